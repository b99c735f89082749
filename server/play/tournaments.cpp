#include "server/play/tournaments.hpp"

#include <spdlog/spdlog.h>

#include "server/base/secrets.hpp"

namespace tilerace::server {

using protocol::ErrorCode;

Tournaments::Tournaments(PlayerRegistry& players, RoomRegistry& rooms, TournamentMembers& members,
                         Metrics& metrics, std::chrono::seconds grace, std::int64_t (*wall_clock)(),
                         std::function<void(const std::string& code)> released, int per_player_hour)
    : players_(players),
      rooms_(rooms),
      members_(members),
      metrics_(metrics),
      grace_(grace),
      wall_clock_(wall_clock),
      released_(std::move(released)),
      per_player_hour_(per_player_hour) {}

std::shared_ptr<Tournament> Tournaments::find(const std::string& code) const {
  std::lock_guard lock(mutex_);
  const auto it = tournaments_.find(code);
  return it == tournaments_.end() ? nullptr : it->second;
}

TournamentServices Tournaments::services() {
  return {rooms_.executor(),
          &rooms_,
          &players_,
          &metrics_,
          grace_,
          wall_clock_,
          &members_,
          [this](const std::string& code) {
            {
              std::lock_guard lock(mutex_);
              tournaments_.erase(code);
            }
            if (released_) released_(code);
          }};
}

void Tournaments::error(Connection& c, ErrorCode code, std::string_view text,
                        const protocol::Rid& rid) {
  send_error(c, metrics_, code, std::string(text), rid);
}

boost::asio::awaitable<bool> Tournaments::may_create(Connection& c, StoreWorker& worker,
                                                     const protocol::Rid& rid) {
  if (per_player_hour_ <= 0) co_return true;
  bool allowed = false;
  const std::int64_t window =
      std::chrono::duration_cast<std::chrono::milliseconds>(kCreationWindow).count();
  try {
    const StoreWorker::JobOn<TournamentStore> note = [&](TournamentStore& s) {
      allowed = s.note_tournament_creation(c.player->id, wall_clock_(), per_player_hour_, window);
    };
    co_await worker.run(note);
  } catch (const std::exception& e) {
    spdlog::warn("counting {}'s tournaments: {}", c.player->id, e.what());
    error(c, ErrorCode::unavailable, "tournaments cannot be created now: try again shortly", rid);
    co_return false;
  }
  if (!allowed) {
    error(c, ErrorCode::rate_limited,
          "you have created " + std::to_string(per_player_hour_) +
              " tournaments in the last hour: try again later",
          rid);
  }
  co_return allowed;
}

void Tournaments::create(Connection& c, const protocol::CreateTournament& m,
                         const protocol::Rid& rid, std::string code) {
  if (members_.of(c.player->id)) {
    return error(c, ErrorCode::already_in_tournament, "you are in a tournament already", rid);
  }
  if (m.options.starts) {
    const std::int64_t now = wall_clock_();
    const std::int64_t latest =
        now + std::chrono::duration_cast<std::chrono::milliseconds>(kMaxStartsAhead).count();
    if (*m.options.starts <= now || *m.options.starts > latest) {
      metrics_.count_error(ErrorCode::bad_field);
      c.send(protocol::encode_error(
          {ErrorCode::bad_field, "starts must be \"manual\" or a time in the next 7 days",
           "starts"},
          rid));
      return;
    }
  }
  {
    std::lock_guard lock(mutex_);
    while (code.empty() || tournaments_.count(code) != 0) {
      code = random_code(protocol::kRoomCodeLength, protocol::kRoomCodeAlphabet);
    }
    tournaments_.emplace(code, nullptr);  // taken
  }
  auto made = Tournament::make(code, m.options, c.player, services());
  {
    std::lock_guard lock(mutex_);
    if (stopped_) made->stop();
    tournaments_[code] = made;
  }
  made->announce(c.out, rid);  // found by its code from now on
}

void Tournaments::join(Connection& c, const protocol::JoinTournament& m, const protocol::Rid& rid) {
  const auto target = find(m.code);
  if (!target) return error(c, ErrorCode::no_such_tournament, "no tournament with that code", rid);
  if (const auto mine = members_.of(c.player->id)) {
    return error(c, ErrorCode::already_in_tournament,
                 mine == target ? "you are in this tournament" : "you are in another tournament",
                 rid);
  }
  target->join(c.player, c.out, rid);
}

void Tournaments::leave(Connection& c, const protocol::Rid& rid) {
  if (const auto mine = members_.of(c.player->id)) return mine->leave(c.player, c.out, rid);
  if (c.following) {
    stop_following(c);
    c.send(protocol::encode_bare("stopped", rid));
    return;
  }
  error(c, ErrorCode::not_in_tournament, "you are in no tournament", rid);
}

void Tournaments::start(Connection& c, const protocol::Rid& rid) {
  const auto mine = members_.of(c.player->id);
  if (!mine) return error(c, ErrorCode::not_in_tournament, "you are in no tournament", rid);
  mine->start(*c.player, c.out, rid);
}

void Tournaments::spectate(Connection& c, const protocol::SpectateTournament& m,
                           const protocol::Rid& rid) {
  const auto target = find(m.code);
  if (!target) return error(c, ErrorCode::no_such_tournament, "no tournament with that code", rid);
  const auto self = c.self.lock();
  if (!self) return;  // the connection is going away
  stop_following(c);
  if (target->add_spectator(self, rid)) c.following = target;
}

void Tournaments::stop_following(Connection& c) {
  if (!c.following) return;
  c.following->remove_spectator(&c.out);
  c.following.reset();
}

void Tournaments::presence(Connection& c, bool connected) {
  if (const auto mine = members_.of(c.player->id)) mine->presence(connected ? &c.out : nullptr);
  if (!connected) return;
  for (const auto& notice : members_.take_notices(c.player->id)) c.out.deliver(notice);
}

void Tournaments::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  for (const auto& [code, t] : tournaments_) {
    if (t) t->stop();
  }
}

std::size_t Tournaments::restore(AccountStore& accounts, GameStore& games,
                                 TournamentStore& journal) {
  return rebuild(journal.open_tournaments(), accounts, games);
}

std::size_t Tournaments::rebuild(const std::vector<TournamentRecord>& records,
                                 AccountStore& accounts, GameStore& games) {
  std::size_t rebuilt = 0;
  for (const TournamentRecord& record : records) {
    try {
      auto t = Tournament::restore(record, services(), accounts, games);
      std::lock_guard lock(mutex_);
      if (stopped_) t->stop();
      tournaments_[record.code] = std::move(t);
      ++rebuilt;
    } catch (const std::exception& e) {
      spdlog::error("tournament {} cannot be rebuilt from the journal: {}", record.code, e.what());
    }
  }
  return rebuilt;
}

boost::asio::awaitable<std::vector<std::string>> Tournaments::adopt(std::string orphan,
                                                                    std::string url,
                                                                    StoreWorker& worker) {
  std::vector<std::string> codes;
  try {
    const StoreWorker::JobOn<AccountStore, GameStore, TournamentStore> take =
        [&](AccountStore& accounts, GameStore& games, TournamentStore& journal) {
          const std::vector<TournamentRecord> records = journal.adopt_tournaments(orphan, url);
          rebuild(records, accounts, games);
          for (const TournamentRecord& r : records) codes.push_back(r.code);
        };
    co_await worker.run(take);
  } catch (const std::exception& e) {
    spdlog::error("cluster: adopting the tournaments of node {}: {}", orphan, e.what());
  }
  if (!codes.empty())
    spdlog::warn("cluster: {} tournaments of node {} adopted", codes.size(), orphan);
  co_return codes;
}

std::vector<std::string> Tournaments::codes() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> codes;
  for (const auto& [code, t] : tournaments_) codes.push_back(code);
  return codes;
}

boost::asio::awaitable<void> Tournaments::journal(StoreWorker& worker) {
  std::vector<std::shared_ptr<Tournament>> all;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [code, t] : tournaments_) {
      if (t) all.push_back(t);
    }
  }
  std::vector<std::pair<std::shared_ptr<Tournament>, std::uint64_t>> written;
  std::vector<TournamentRecord> records;
  for (const auto& t : all) {
    if (auto unsaved = t->unsaved()) {
      records.push_back(std::move(unsaved->first));
      written.emplace_back(t, unsaved->second);
    }
  }
  if (records.empty()) co_return;
  std::vector<std::string> lost;
  try {
    const StoreWorker::JobOn<TournamentStore> save = [&](TournamentStore& s) {
      lost = s.journal_tournaments(records);
    };
    co_await worker.run(save);
  } catch (const std::exception& e) {
    spdlog::warn("tournament journal: {}", e.what());
    co_return;
  }
  for (const auto& [t, version] : written) t->saved(version);
  for (const std::string& code : lost) {
    std::shared_ptr<Tournament> gone;
    {
      std::lock_guard lock(mutex_);
      const auto it = tournaments_.find(code);
      if (it == tournaments_.end()) continue;
      gone = std::move(it->second);
      tournaments_.erase(it);
    }
    if (gone) gone->lose();
  }
}

}  // namespace tilerace::server
