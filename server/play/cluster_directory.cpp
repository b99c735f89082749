#include "server/play/cluster_directory.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "protocol/encode.hpp"
#include "server/store/account_store.hpp"
#include "server/store/game_store.hpp"
#include "server/store/tournament_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

// How long a partner paired from another node has to arrive before their seat is given up.
constexpr auto kMatchReservation = std::chrono::seconds(15);
// Partners popped from the queue who turn out to be busy before we queue ourselves instead.
constexpr int kPairAttempts = 32;

}  // namespace

asio::awaitable<std::string> ClusterDirectory::claim_code() {
  co_return co_await cluster_.claim_new_code();
}

asio::awaitable<std::optional<std::string>> ClusterDirectory::locate(std::string code) {
  if (std::optional<std::string> owner = rooms_.handed_over(code)) co_return owner;
  co_return co_await cluster_.locate(code);
}

asio::awaitable<bool> ClusterDirectory::unqueue(std::shared_ptr<Player> player) {
  co_return co_await cluster_.unqueue(player->id);
}

asio::awaitable<QuickMatchResult> ClusterDirectory::quick_match(std::shared_ptr<Player> player,
                                                                protocol::RoomOptions options,
                                                                Seeking seeking) {
  co_return co_await pair(std::move(player), options, seeking, false);
}

asio::awaitable<QuickMatchResult> ClusterDirectory::rematch(std::shared_ptr<Player> player,
                                                            protocol::RoomOptions options) {
  const std::optional<Seeking> seeking = cluster_.seeking_of(player->id);
  if (!seeking) co_return QuickMatchResult{QuickMatchResult::Outcome::gone, nullptr};
  co_return co_await pair(std::move(player), options, *seeking, true);
}

asio::awaitable<QuickMatchResult> ClusterDirectory::pair(std::shared_ptr<Player> player,
                                                         protocol::RoomOptions options,
                                                         Seeking seeking, bool again) {
  using Outcome = QuickMatchResult::Outcome;
  const std::string key = std::string(engine::to_string(options.mode)) + ":" +
                          std::to_string(options.size) + (options.bot_queue ? ":bots" : "");
  for (int attempt = 0; attempt < kPairAttempts; ++attempt) {
    bool gone = false;
    const std::optional<Cluster::Waiting> partner =
        co_await cluster_.pair(key, player->id, seeking, again && attempt == 0, gone);
    if (gone) co_return QuickMatchResult{Outcome::gone, nullptr};
    if (!partner) co_return QuickMatchResult{Outcome::queued, nullptr};
    const bool here = partner->node == cluster_.settings().node;
    std::shared_ptr<Player> waiting = players_.find(partner->player);
    if (!here) {  // their ratings as the store has them, even when they were here before
      std::optional<PlayerRecord> record;
      const std::string& id = partner->player;
      const StoreWorker::JobOn<AccountStore> load = [&](AccountStore& s) {
        record = s.find_player(id);
      };
      co_await store_.run(load);
      waiting = record ? players_.adopt(*record) : nullptr;
    }
    if (!waiting) continue;  // gone
    std::string code = co_await cluster_.claim_new_code();
    QuickMatchResult result{Outcome::paired, nullptr};
    std::optional<Room::Time> expected_by;
    if (!here) expected_by = Room::Time::clock::now() + kMatchReservation;
    const Claim claim =
        rooms_.create_matched(options, waiting, player, result.room, code, expected_by);
    if (claim != Claim::paired) {
      cluster_.release(code);
      if (claim == Claim::arriving_busy) co_return QuickMatchResult{Outcome::refused, nullptr};
      continue;  // the partner is busy: the next one
    }
    if (here) {
      cluster_.forget_queued(waiting->id);
    } else {
      // The partner's node redirects them here; they are seated and expected.
      co_await cluster_.announce_match(*partner, result.room->code());
    }
    co_return result;
  }
  throw RedisUnavailable("no partner could be paired");
}

void ClusterDirectory::follow_race(std::weak_ptr<Participant> to, std::shared_ptr<Player> player) {
  asio::co_spawn(executor_, resume(std::move(to), std::move(player)), asio::detached);
}

asio::awaitable<void> ClusterDirectory::resume(std::weak_ptr<Participant> to,
                                               std::shared_ptr<Player> player) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (int attempt = 0; attempt < kResumeTries; ++attempt) {
    if (attempt > 0) {
      timer.expires_after(kResumeEvery);
      co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    const std::shared_ptr<Participant> out = to.lock();
    if (!out || room_of(*player)) co_return;  // gone, or back in a room here
    {
      std::lock_guard lock(player->mutex);
      if (player->connection.lock() != out) co_return;  // a newer connection took over
    }
    if (members_.of(player->id)) co_return;  // their tournament is here
    std::optional<std::string> code;
    std::optional<std::string> url;
    try {
      // Their race; else, between matches, their tournament (whose node opens the next).
      const StoreWorker::JobOn<GameStore, TournamentStore> find =
          [&](GameStore& games, TournamentStore& tournaments) {
            code = games.race_room_of(player->id);
            if (!code) code = tournaments.tournament_of(player->id);
          };
      co_await store_.run(find);
      if (!code) co_return;  // in no race and no tournament anywhere
      // A race this node handed over: its new owner was learned then (Redis may not answer).
      url = rooms_.handed_over(*code);
      // Else its owner — or here, when the owner holds it for none of its racers any more.
      if (!url) url = co_await cluster_.follow(*code);
    } catch (const std::exception& e) {
      spdlog::debug("resume {}: {}", player->id, e.what());  // try again
      continue;
    }
    // Its node missed its heartbeats or is gone, and its race is not adopted yet (or it is
    // here soon): a node that may be dead is never named.
    if (!url) continue;
    if (*url == cluster_.settings().public_url) co_return;  // here (it is on its way)
    metrics_.redirects_total.fetch_add(1, std::memory_order_relaxed);
    out->deliver(
        std::make_shared<const std::string>(protocol::encode_redirect(*url, *code, "resume", {})));
    co_return;
  }
}

}  // namespace tilerace::server
