#include "server/cluster/adoption.hpp"

#include <spdlog/spdlog.h>

#include <map>

#include "server/cluster/redis_connection.hpp"
#include "server/cluster/scripts.hpp"
#include "server/game/store_journal.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using namespace redis_scripts;

void merge_moves(ActiveRaceRecord& race, const std::vector<std::optional<std::string>>& moves) {
  for (std::size_t i = 0; i < race.racers.size() && i < moves.size(); ++i) {
    if (!moves[i]) continue;
    std::string_view journaled = *moves[i];
    const bool resigned = journaled.ends_with('!');
    if (resigned) journaled.remove_suffix(1);
    ActiveRacerRecord& racer = race.racers[i];
    if (journaled.size() < racer.moves.size() || !journaled.starts_with(racer.moves)) continue;
    racer.moves = std::string(journaled);
    if (resigned) racer.state = engine::GameState::resigned;
  }
}

std::size_t mismatches(const std::vector<std::string>& rebuilt,
                       const std::vector<std::optional<std::string>>& checks) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < rebuilt.size() && i < checks.size(); ++i) {
    if (!checks[i]) continue;
    // A check starts with its move count: compare only where the moves are the same ones.
    const std::string_view count = std::string_view(*checks[i]).substr(0, checks[i]->find(':'));
    if (!rebuilt[i].starts_with(std::string(count) + ":")) continue;
    if (rebuilt[i] != *checks[i]) ++wrong;
  }
  return wrong;
}

Adoption::Adoption(std::string node, std::string url, RedisConnection& redis, StoreWorker& store,
                   PlayerRegistry& players, SoloGames& solo, RoomRegistry& rooms, Metrics& metrics,
                   AdoptMore adopt_tournaments)
    : node_(std::move(node)),
      url_(std::move(url)),
      redis_(redis),
      store_(store),
      players_(players),
      solo_(solo),
      rooms_(rooms),
      metrics_(metrics),
      adopt_tournaments_(std::move(adopt_tournaments)) {}

asio::awaitable<std::size_t> Adoption::run(std::vector<std::string> orphans) {
  std::size_t adopted = 0;
  for (const std::string& orphan : orphans) {
    try {
      const std::size_t rooms = co_await adopt(orphan);
      if (rooms > 0) spdlog::warn("cluster: {} races of node {} adopted", rooms, orphan);
      adopted += rooms;
    } catch (const std::exception& e) {
      spdlog::error("cluster: adopting the races of node {}: {}", orphan, e.what());
    }
  }
  co_return adopted;
}

asio::awaitable<JournalRead> Adoption::read_journal(const ActiveRaceRecord& race) {
  const std::size_t n = race.racers.size();
  // Commands on one connection run in order: an append under the earlier epoch is either in
  // what MGET reads, or refused.
  const std::vector<std::string> own{"SET", owner_key(race.id),
                                     std::to_string(race.epoch) + " " + node_ + " " + url_, "PX",
                                     "86400000"};
  if (const RedisReply set = co_await redis_.command(own); set.error()) {
    throw std::runtime_error("redis: " + set.str);
  }
  std::vector<std::string> command{"MGET"};
  for (std::size_t i = 0; i < n; ++i) command.push_back(moves_key(race.id, i));
  for (std::size_t i = 0; i < n; ++i) command.push_back(check_key(race.id, i));
  const RedisReply reply = co_await redis_.command(std::move(command));
  JournalRead read;
  for (std::size_t i = 0; i < reply.elements.size(); ++i) {
    const RedisReply& e = reply.elements[i];
    (i < n ? read.moves : read.checks)
        .push_back(e.type == RedisReply::Type::string ? std::optional(e.str) : std::nullopt);
  }
  co_return read;
}

asio::awaitable<std::size_t> Adoption::adopt(const std::string& orphan) {
  // 1. The races move to this node in the store: from here on no other node can take them.
  std::vector<ActiveRaceRecord> races;
  const StoreWorker::JobOn<GameStore> take = [&](GameStore& s) {
    races = s.adopt_races(orphan, url_);
  };
  co_await store_.run(take);
  std::vector<std::string> codes = co_await run_here(races, orphan);

  // 5. Its tournaments come here, once their match rooms are back: each match racing in one
  // is watched again.
  const std::size_t restored = codes.size();
  if (adopt_tournaments_) {
    std::vector<std::string> tournaments = co_await adopt_tournaments_(orphan);
    for (std::string& code : tournaments) codes.push_back(std::move(code));
  }

  // 6. Their codes are this node's now; the orphan is done.
  co_await claim(codes, {});
  const std::vector<std::string> done_args{node_, orphan};
  co_await eval(redis_, kAdopted, done_args);
  co_return restored;
}

asio::awaitable<std::optional<ActiveRaceRecord>> Adoption::take(const std::string& from,
                                                                const std::string& room) {
  std::vector<ActiveRaceRecord> races;
  const StoreWorker::JobOn<GameStore> take = [&](GameStore& s) {
    races = s.adopt_race(from, room, url_);
  };
  co_await store_.run(take);
  const std::vector<std::string> codes = co_await run_here(races, from);
  if (codes.empty()) co_return std::nullopt;
  co_await claim(codes, from);
  co_return races.front();
}

asio::awaitable<void> Adoption::claim(const std::vector<std::string>& codes,
                                      const std::string& from) {
  for (const std::string& code : codes) {
    std::vector<std::string> claim_args{code, node_};
    if (!from.empty()) claim_args.push_back(from);
    const RedisReply claimed = co_await eval(redis_, kClaim, claim_args);
    if (claimed.integer != 1) {
      spdlog::error("cluster: {} came back here but its code is taken", code);
    }
  }
}

asio::awaitable<std::vector<std::string>> Adoption::run_here(std::vector<ActiveRaceRecord>& races,
                                                             const std::string& orphan) {
  // 2. Each is brought up to the move journal (Redis away: they are this node's now, and run
  // with what the store's journal has).
  std::map<std::string, JournalRead> reads;  // by race id
  try {
    for (ActiveRaceRecord& race : races) {
      JournalRead read = co_await read_journal(race);
      merge_moves(race, read.moves);
      reads.emplace(race.id, std::move(read));
    }
  } catch (const std::exception& e) {
    spdlog::error("cluster: the move journal of node {} cannot be read: {}", orphan, e.what());
  }

  // 3. Their racers are loaded, and the rooms run them: each game rebuilt once, from seed and
  // moves.
  std::vector<LoadedRace> loaded;
  const StoreWorker::JobOn<AccountStore, GameStore> load = [&](AccountStore& accounts,
                                                               GameStore& games) {
    loaded = load_races(races, accounts, games, players_, solo_, metrics_);
  };
  co_await store_.run(load);
  std::vector<std::string> codes = restore_races(loaded, rooms_);

  // 4. Each rebuilt game is checked against the journal. The games run either way (seed and
  // moves are the truth); a difference means the nodes disagree on the rules (different
  // versions) and is worth an operator's look.
  for (const ActiveRaceRecord& race : races) {
    const auto read = reads.find(race.id);
    const auto room = rooms_.find(race.room);
    if (read == reads.end() || !room) continue;
    if (const std::size_t wrong = mismatches(room->checks(), read->second.checks); wrong > 0) {
      metrics_.adoption_mismatches_total.fetch_add(wrong, std::memory_order_relaxed);
      spdlog::error("cluster: race {} rebuilt: {} racers' games differ from their journal's check",
                    race.id, wrong);
    }
  }

  co_return codes;
}

}  // namespace tilerace::server
