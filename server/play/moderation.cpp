#include "server/play/moderation.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

#include "protocol/names.hpp"
#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/rules/daily.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

AdminAnswer done() { return {200, protocol::encode_admin_done()}; }
AdminAnswer refused(int status, std::string_view error, std::string_view message) {
  return {status, protocol::encode_admin_error(error, message)};
}

protocol::ReportView view_of(ReportRecord r) {
  return {r.id,
          std::move(r.reporter),
          std::move(r.reporter_name),
          std::move(r.player_id),
          std::move(r.player_name),
          std::move(r.reason),
          std::move(r.note),
          r.at,
          r.resolved_at,
          std::move(r.resolution)};
}

protocol::PlayerSummary summary_of(const PlayerRecord& p, const std::optional<BanRecord>& ban) {
  return {p.id,
          p.name,
          shown(p.ratings[protocol::index_of(protocol::kDefaultVariant)].rating.rating),
          p.created_at,
          p.registered_at > 0,
          ban ? std::optional<std::int64_t>(ban->until) : std::nullopt};
}

}  // namespace

AuditEntry audit_entry(const Actor& actor, std::string action, std::string target,
                       std::string target_name, std::string reason, std::string detail) {
  return {.at = unix_ms(),
          .actor = actor.name,
          .action = std::move(action),
          .target = std::move(target),
          .reason = std::move(reason),
          .detail = std::move(detail),
          .actor_role = actor.role,
          .target_name = std::move(target_name),
          .address = actor.address};
}

Moderation::Moderation(PlayerRegistry& players, RoomRegistry& rooms, RoomDirectory& directory,
                       StoreWorker& store, Metrics& metrics, PlayerReach* reach)
    : players_(players),
      rooms_(rooms),
      directory_(directory),
      store_(store),
      metrics_(metrics),
      reach_(reach) {}

void Moderation::start(asio::any_io_executor executor) {
  timer_ = std::make_shared<asio::steady_timer>(executor);
  asio::co_spawn(executor, sweep(), asio::detached);
}

void Moderation::stop() {
  stopped_ = true;
  if (timer_) timer_->cancel();
  analysis_.stop();
}

asio::awaitable<void> Moderation::sweep() {
  const auto timer = timer_;
  while (!stopped_) {
    timer->expires_after(kSweepEvery);
    co_await timer->async_wait(asio::as_tuple(asio::use_awaitable));
    if (stopped_) co_return;
    std::vector<std::string> banned;
    const StoreWorker::JobOn<ModerationStore> read = [&banned](ModerationStore& s) {
      s.lift_expired_bans(unix_ms());
      banned = s.banned_players();
    };
    try {
      co_await store_.run(read);
    } catch (const std::exception& e) {
      spdlog::debug("moderation sweep: {}", e.what());  // the next one tries again
      continue;
    }
    for (const std::string& id : banned) co_await close_banned(id);
    try {
      co_await analyse_some();
    } catch (const std::exception& e) {
      spdlog::debug("assisted-play signals: {}", e.what());
    }
  }
}

asio::awaitable<void> Moderation::analyse_some() {
  std::vector<GameRecord> games;
  const StoreWorker::JobOn<ModerationStore> load = [&games](ModerationStore& s) {
    games = s.unanalysed_games(kAnalysedPerSweep);
  };
  co_await store_.run(load);
  for (GameRecord& game : games) {
    if (stopped_) co_return;
    const SignalRecord record = co_await analyse(std::move(game));
    const StoreWorker::JobOn<ModerationStore> save = [&record](ModerationStore& s) {
      s.save_signals(record, unix_ms());
    };
    co_await store_.run(save);
  }
}

asio::awaitable<SignalRecord> Moderation::analyse(GameRecord game) {
  auto initiate = [this, game = std::move(game)](auto handler) mutable {
    asio::post(analysis_, [game = std::move(game), handler = std::move(handler)]() mutable {
      thread_local engine::Bot bot;
      SignalRecord signals = assist_signals(game, bot);
      const auto executor = asio::get_associated_executor(handler);
      asio::post(executor, [handler = std::move(handler), signals = std::move(signals)]() mutable {
        std::move(handler)(std::move(signals));
      });
    });
  };
  co_return co_await asio::async_initiate<decltype(asio::use_awaitable), void(SignalRecord)>(
      std::move(initiate), asio::use_awaitable);
}

void Moderation::apply_here(const std::string& kind, const std::string& target,
                            const std::string& text) {
  if (kind == "close_room") {
    if (const auto room = rooms_.find(target)) room->close_by_operator(text);
    return;
  }
  if (kind == "close") {  // the ban is read from the store, as every path reads it
    if (timer_) asio::co_spawn(timer_->get_executor(), close_banned(target), asio::detached);
    return;
  }
  const auto player = players_.find(target);
  if (!player) return;
  const std::shared_ptr<Participant> connection = connection_of(target);
  if (kind == "rename") {
    player->set_name(text);
    if (connection) {
      connection->deliver(
          std::make_shared<const std::string>(protocol::encode_renamed({player->id, text}, {})));
    }
    if (const auto room = room_of(*player)) room->renamed(player->id, text);
  } else if (kind == "unregister") {
    player->registered = false;
  }
}

std::shared_ptr<Participant> Moderation::connection_of(const std::string& player_id) {
  const auto player = players_.find(player_id);
  if (!player) return nullptr;
  std::lock_guard lock(player->mutex);
  return player->connection.lock();
}

asio::awaitable<void> Moderation::close_banned(std::string player_id) {
  if (!connection_of(player_id)) co_return;  // not connected here: nothing to read
  // The store unreachable: the ban is in force (it was just written or read), so it is closed
  // anyway, in general words.
  std::optional<BanRecord> ban = BanRecord{.player_id = player_id};
  const StoreWorker::JobOn<ModerationStore> find = [&](ModerationStore& s) {
    ban = s.ban_of(player_id, unix_ms());
  };
  try {
    co_await store_.run(find);
  } catch (const std::exception& e) {
    spdlog::warn("ban of {}: {}", player_id, e.what());
  }
  if (!ban) co_return;  // lifted meanwhile
  const auto connection = connection_of(player_id);
  if (!connection) co_return;
  connection->deliver(std::make_shared<const std::string>(protocol::encode_banned(
      ban->reason.empty() ? "banned by the operator" : ban->reason, ban->until, {})));
  connection->close(kBannedClose);
}

void Moderation::everywhere(const std::string& kind, const std::string& target,
                            const std::string& text) {
  apply_here(kind, target, text);
  if (reach_ != nullptr) reach_->moderate(kind, target, text);
}

bool Moderation::may_report(const std::string& reporter) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  auto& times = recent_[reporter];
  while (!times.empty() && now - times.front() >= std::chrono::minutes(1)) times.pop_front();
  if (static_cast<int>(times.size()) >= kReportsPerMinute) return false;
  times.push_back(now);
  return true;
}

asio::awaitable<void> Moderation::report(Connection& c, const protocol::Report& m,
                                         const protocol::Rid& rid) {
  const auto refuse = [&](ErrorCode code, std::string text) {
    send_error(c, metrics_, code, std::move(text), rid);
  };
  if (m.player == c.player->id)
    co_return refuse(ErrorCode::not_allowed, "you cannot report yourself");
  if (!may_report(c.player->id)) {
    co_return refuse(ErrorCode::rate_limited, "too many reports: try again in a minute");
  }
  bool exists = false, filed = false;
  const ReportRecord report{.reporter = c.player->id,
                            .player_id = m.player,
                            .reason = std::string(protocol::to_string(m.reason)),
                            .note = m.note,
                            .at = unix_ms()};
  const std::string day = day_of(report.at);
  const StoreWorker::JobOn<AccountStore, ModerationStore> file = [&](AccountStore& accounts,
                                                                     ModerationStore& moderation) {
    exists = accounts.find_player(report.player_id).has_value();
    if (exists) filed = moderation.add_report(report, day);
  };
  co_await store_.run(file);
  if (!exists) co_return refuse(ErrorCode::no_such_player, "no player with that id");
  if (!filed) co_return refuse(ErrorCode::rate_limited, "you reported this player today already");
  metrics_.reports_total.fetch_add(1, std::memory_order_relaxed);
  c.send(protocol::encode_reported(m.player, rid));
}

asio::awaitable<AdminAnswer> Moderation::act(Actor actor, protocol::AdminAction action) {
  AdminAnswer answer;
  if (const auto* a = std::get_if<protocol::AdminBan>(&action)) answer = co_await ban(actor, *a);
  if (const auto* a = std::get_if<protocol::AdminUnban>(&action))
    answer = co_await unban(actor, *a);
  if (const auto* a = std::get_if<protocol::AdminRename>(&action))
    answer = co_await rename(actor, *a);
  if (const auto* a = std::get_if<protocol::AdminResetPassword>(&action)) {
    answer = co_await reset_password(actor, *a);
  }
  if (const auto* a = std::get_if<protocol::AdminHideGame>(&action)) {
    answer = co_await hide_game(actor, *a);
  }
  if (const auto* a = std::get_if<protocol::AdminCloseRoom>(&action)) {
    answer = co_await close_room(actor, *a);
  }
  if (const auto* a = std::get_if<protocol::AdminResolveReport>(&action)) {
    answer = co_await resolve_report(actor, *a);
  }
  if (answer.status == 200) metrics_.admin_actions_total.fetch_add(1, std::memory_order_relaxed);
  co_return answer;
}

asio::awaitable<AdminAnswer> Moderation::ban(const Actor& actor, const protocol::AdminBan& a) {
  const std::int64_t now = unix_ms();
  if (a.until != 0 && a.until <= now) co_return refused(400, "bad_field", "until has passed");
  bool exists = false;
  const StoreWorker::JobOn<AccountStore, ModerationStore> save = [&](AccountStore& accounts,
                                                                     ModerationStore& moderation) {
    const std::optional<PlayerRecord> player = accounts.find_player(a.player);
    exists = player.has_value();
    if (!exists) return;
    moderation.ban({a.player, a.reason, a.until, now},
                   audit_entry(actor, "ban", a.player, player->name, a.reason,
                               a.until == 0 ? "until lifted" : "until " + std::to_string(a.until)));
  };
  co_await store_.run(save);
  if (!exists) co_return refused(404, "no_such_player", "no player with that id");
  metrics_.bans_total.fetch_add(1, std::memory_order_relaxed);
  everywhere("close", a.player, a.reason);
  co_return done();
}

asio::awaitable<AdminAnswer> Moderation::unban(const Actor& actor, const protocol::AdminUnban& a) {
  bool lifted = false;
  const StoreWorker::JobOn<AccountStore, ModerationStore> save = [&](AccountStore& accounts,
                                                                     ModerationStore& moderation) {
    const std::optional<PlayerRecord> player = accounts.find_player(a.player);
    lifted = moderation.unban(
        a.player, audit_entry(actor, "unban", a.player, player ? player->name : "", a.reason));
  };
  co_await store_.run(save);
  if (!lifted) co_return refused(404, "not_banned", "that player is not banned");
  co_return done();
}

asio::awaitable<AdminAnswer> Moderation::rename(const Actor& actor,
                                                const protocol::AdminRename& a) {
  std::optional<PlayerRecord> before;
  bool renamed = false;
  const StoreWorker::JobOn<AccountStore, ModerationStore> save = [&](AccountStore& accounts,
                                                                     ModerationStore& moderation) {
    before = accounts.find_player(a.player);
    if (!before) return;
    renamed = accounts.rename(a.player, a.name, protocol::name_key(a.name), unix_ms());
    if (renamed) {
      moderation.audit(audit_entry(actor, "rename", a.player, before->name, a.reason,
                                   before->name + " → " + a.name));
    }
  };
  co_await store_.run(save);
  if (!before) co_return refused(404, "no_such_player", "no player with that id");
  if (!renamed) co_return refused(409, "name_taken", "another player has that name");
  everywhere("rename", a.player, a.name);
  co_return done();
}

asio::awaitable<AdminAnswer> Moderation::reset_password(const Actor& actor,
                                                        const protocol::AdminResetPassword& a) {
  const std::string code = random_code(protocol::kLinkCodeLength, protocol::kRoomCodeAlphabet);
  const std::int64_t expires_at = unix_ms() + kResetCodeMs;
  bool exists = false;
  const StoreWorker::JobOn<AccountStore, ModerationStore> save = [&](AccountStore& accounts,
                                                                     ModerationStore& moderation) {
    const std::optional<PlayerRecord> player = accounts.find_player(a.player);
    exists = player.has_value();
    if (!exists) return;
    accounts.set_password(a.player, "", 0);  // a guest again: the link code lets them choose anew
    accounts.add_link_code(code, a.player, expires_at);
    moderation.audit(audit_entry(actor, "reset_password", a.player, player->name, a.reason));
  };
  co_await store_.run(save);
  if (!exists) co_return refused(404, "no_such_player", "no player with that id");
  everywhere("unregister", a.player, "");
  co_return AdminAnswer{200, protocol::encode_admin_reset(code, expires_at)};
}

asio::awaitable<AdminAnswer> Moderation::hide_game(const Actor& actor,
                                                   const protocol::AdminHideGame& a) {
  bool changed = false;
  const StoreWorker::JobOn<ModerationStore> save = [&](ModerationStore& s) {
    changed =
        s.hide_game(a.game, a.hidden,
                    audit_entry(actor, a.hidden ? "hide_game" : "show_game", a.game, "", a.reason));
  };
  co_await store_.run(save);
  if (!changed) {
    co_return refused(404, "no_change",
                      a.hidden ? "no such game, or hidden already" : "no such hidden game");
  }
  co_return done();
}

asio::awaitable<AdminAnswer> Moderation::close_room(const Actor& actor,
                                                    const protocol::AdminCloseRoom& a) {
  if (!rooms_.find(a.code)) {
    std::optional<std::string> elsewhere;
    try {
      elsewhere = co_await directory_.locate(a.code);
    } catch (const std::exception&) {
      co_return refused(503, "unavailable", "the cluster directory cannot be reached");
    }
    if (!elsewhere) co_return refused(404, "no_such_room", "no room with that code");
  }
  const StoreWorker::JobOn<ModerationStore> save = [&](ModerationStore& s) {
    s.audit(audit_entry(actor, "close_room", a.code, "", a.reason));
  };
  co_await store_.run(save);
  everywhere("close_room", a.code, a.reason);
  co_return done();
}

asio::awaitable<AdminAnswer> Moderation::resolve_report(const Actor& actor,
                                                        const protocol::AdminResolveReport& a) {
  bool resolved = false;
  const StoreWorker::JobOn<ModerationStore> save = [&](ModerationStore& s) {
    resolved = s.resolve_report(
        a.id, a.resolution,
        audit_entry(actor, "resolve_report", std::to_string(a.id), "", a.resolution));
  };
  co_await store_.run(save);
  if (!resolved) co_return refused(404, "no_such_report", "no open report with that id");
  co_return done();
}

asio::awaitable<AdminAnswer> Moderation::search(std::string query) {
  std::vector<protocol::PlayerSummary> found;
  const StoreWorker::JobOn<ModerationStore> load = [&](ModerationStore& s) {
    const std::int64_t now = unix_ms();
    for (const PlayerRecord& p : s.search_players(query, 50)) {
      found.push_back(summary_of(p, s.ban_of(p.id, now)));
    }
  };
  co_await store_.run(load);
  co_return AdminAnswer{200, protocol::encode_player_list(found)};
}

asio::awaitable<AdminAnswer> Moderation::player(std::string id) {
  std::optional<protocol::AdminPlayerView> view;
  const StoreWorker::JobOn<AccountStore, ModerationStore> load = [&](AccountStore& accounts,
                                                                     ModerationStore& moderation) {
    const std::optional<PlayerRecord> p = accounts.find_player(id);
    if (!p) return;
    const std::optional<BanRecord> ban = moderation.ban_of(id, unix_ms());
    view.emplace();
    view->player = summary_of(*p, ban);
    if (ban) view->ban_reason = ban->reason;
    view->old_names = accounts.old_names(id);
    for (const SessionRecord& r : accounts.sessions(id)) {
      view->sessions.push_back({r.label, r.created_at, r.last_seen, r.address});
    }
    for (const auto& [g, hidden] : moderation.recent_games(id, 30)) {
      view->games.push_back({g.id, g.config.mode, g.config.size, g.score, g.move_count, g.state,
                             g.room, g.ended_at, g.ranked, hidden});
    }
    for (ReportRecord& r : moderation.reports(false, 500)) {
      if (r.player_id == id) view->reports.push_back(view_of(std::move(r)));
    }
  };
  co_await store_.run(load);
  if (!view) co_return refused(404, "no_such_player", "no player with that id");
  co_return AdminAnswer{200, protocol::encode_admin_player(*view)};
}

asio::awaitable<AdminAnswer> Moderation::audit(std::int64_t before, int limit) {
  std::vector<protocol::AuditView> entries;
  const StoreWorker::JobOn<ModerationStore> load = [&](ModerationStore& s) {
    for (AuditEntry& e : s.audit_log(before, limit)) {
      entries.push_back({e.id, e.at, std::move(e.actor), std::move(e.action), std::move(e.target),
                         std::move(e.reason), std::move(e.detail), std::move(e.actor_role),
                         std::move(e.target_name), std::move(e.address)});
    }
  };
  co_await store_.run(load);
  co_return AdminAnswer{200, protocol::encode_audit(entries)};
}

asio::awaitable<AdminAnswer> Moderation::suspicion(int limit) {
  std::vector<SignalRecord> records;
  const StoreWorker::JobOn<ModerationStore> load = [&](ModerationStore& s) {
    records = s.suspicious_games(limit);
  };
  co_await store_.run(load);
  std::vector<protocol::SuspicionView> views;
  for (SignalRecord& r : records) {
    views.push_back({.game = std::move(r.game_id),
                     .player_id = std::move(r.player_id),
                     .player_name = std::move(r.player_name),
                     .mode = r.mode,
                     .size = r.size,
                     .score = r.score,
                     .moves_per_second = r.moves_per_second,
                     .spread = r.spread,
                     .match_rate = r.match_rate,
                     .sampled = r.sampled,
                     .suspicion = r.suspicion});
  }
  co_return AdminAnswer{200, protocol::encode_suspicion(views)};
}

asio::awaitable<AdminAnswer> Moderation::reports(bool open_only) {
  std::vector<ReportRecord> records;
  const StoreWorker::JobOn<ModerationStore> load = [&](ModerationStore& s) {
    records = s.reports(open_only, 200);
  };
  co_await store_.run(load);
  std::vector<protocol::ReportView> views;
  for (ReportRecord& r : records) views.push_back(view_of(std::move(r)));
  co_return AdminAnswer{200, protocol::encode_reports(views)};
}

}  // namespace tilerace::server
