// The Recorder's moderation records (docs/operations.md, "Moderation"): bans, hidden games,
// reports and the audit log. What takes entries off the boards, or puts them back, has every
// node fill its ranks afresh (RankCache::put only ever keeps the newer or better entry).
#include "protocol/names.hpp"
#include "server/store/record_rows.hpp"
#include "server/store/recorder.hpp"

namespace tilerace::server {

void Recorder::write_audit(SqlSession& sql, const AuditEntry& e) {
  sql(Sql::insert_audit, e.at, e.actor, e.action, e.target, e.reason, e.detail, e.actor_role,
      e.target_name, e.address);
}

void Recorder::ranks_changed(SqlSession& sql) { sql(Sql::ranks_changed); }

void Recorder::reload_ranks() {
  if (dialect_->hears_ranks_changed()) return;  // every node refills on the notification
  RankCache fresh;
  dialect_->session(SqlTx::snapshot, [&](SqlSession& sql) { fill_ranks(sql, fresh); });
  ranks_.swap(fresh);
}

void Recorder::rebuild_bests(SqlSession& sql, std::string_view player_id) {
  sql(Sql::delete_bests, player_id);
  const SqlResult games = sql(Sql::board_games, player_id);
  for (std::size_t i = 0; i < games.rows(); ++i) {
    const GameRecord g = game_of(games, i);
    if (eligible_for_board(g)) put_on_boards(sql, g);
  }
}

void Recorder::ban(const BanRecord& ban, const AuditEntry& entry) {
  unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::upsert_ban, ban.player_id, ban.reason, ban.until, ban.at);
    sql(Sql::set_banned, ban.player_id, 1);
    write_audit(sql, entry);
    ranks_changed(sql);
  });
  reload_ranks();
}

bool Recorder::unban(std::string_view player_id, const AuditEntry& entry) {
  const bool lifted = unit(SqlTx::write, [&](SqlSession& sql) {
    if (sql(Sql::delete_ban, player_id).rows() == 0) return false;
    sql(Sql::set_banned, player_id, 0);
    write_audit(sql, entry);
    ranks_changed(sql);
    return true;
  });
  if (lifted) reload_ranks();
  return lifted;
}

std::optional<BanRecord> Recorder::ban_of(std::string_view player_id, std::int64_t now) {
  return unit(SqlTx::none, [&](SqlSession& sql) -> std::optional<BanRecord> {
    const SqlResult r = sql(Sql::select_ban, player_id);
    if (r.rows() == 0) return std::nullopt;
    BanRecord ban{std::string(player_id), r.string(0, 0), r.int64(0, 1), r.int64(0, 2)};
    if (ban.until != 0 && ban.until <= now) return std::nullopt;  // over: lifted soon
    return ban;
  });
}

std::vector<std::string> Recorder::lift_expired_bans(std::int64_t now) {
  std::vector<std::string> lifted = unit(SqlTx::write, [&](SqlSession& sql) {
    std::vector<std::string> ids =
        rows_of(sql(Sql::expired_bans, now),
                [](const SqlResult& r, std::size_t i) { return r.string(i, 0); });
    for (const std::string& id : ids) {
      sql(Sql::delete_ban, id);
      sql(Sql::set_banned, id, 0);
      write_audit(sql, {.at = now,
                        .actor = "server",
                        .action = "unban",
                        .target = id,
                        .reason = "the ban's time is over"});
    }
    if (!ids.empty()) ranks_changed(sql);
    return ids;
  });
  if (!lifted.empty()) reload_ranks();
  return lifted;
}

bool Recorder::hide_game(std::string_view game_id, bool hidden, const AuditEntry& entry) {
  const bool changed = unit(SqlTx::write, [&](SqlSession& sql) {
    const SqlResult game = sql(Sql::select_game, game_id);
    if (game.rows() == 0) return false;
    const bool did = hidden ? sql(Sql::hide_game, game_id, entry.reason, entry.at).changed() == 1
                            : sql(Sql::unhide_game, game_id).changed() == 1;
    if (!did) return false;
    rebuild_bests(sql, game.string(0, 1));
    write_audit(sql, entry);
    ranks_changed(sql);
    return true;
  });
  if (changed) reload_ranks();
  return changed;
}

void Recorder::drop_race(std::string_view race_id, std::string_view room, std::int64_t at) {
  unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::insert_race, race_id, room, "closed", "", "{}", at);
    sql(Sql::delete_race, race_id);
  });
}

void Recorder::audit(const AuditEntry& entry) {
  unit(SqlTx::write, [&](SqlSession& sql) { write_audit(sql, entry); });
}

std::vector<AuditEntry> Recorder::audit_log(std::int64_t before_id, int limit) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::select_audit, before_id, limit), [](const SqlResult& r, std::size_t i) {
      return AuditEntry{.id = r.int64(i, 0),
                        .at = r.int64(i, 1),
                        .actor = r.string(i, 2),
                        .action = r.string(i, 3),
                        .target = r.string(i, 4),
                        .reason = r.string(i, 5),
                        .detail = r.string(i, 6),
                        .actor_role = r.string(i, 7),
                        .target_name = r.string(i, 8),
                        .address = r.string(i, 9)};
    });
  });
}

bool Recorder::add_report(const ReportRecord& report, std::string_view day) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return sql(Sql::insert_report, report.reporter, report.player_id, report.reason, report.note,
               report.at, day)
               .changed() == 1;
  });
}

std::vector<ReportRecord> Recorder::reports(bool open_only, int limit) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::select_reports, open_only, limit),
                   [](const SqlResult& r, std::size_t i) {
                     return ReportRecord{.id = r.int64(i, 0),
                                         .reporter = r.string(i, 1),
                                         .reporter_name = r.string(i, 2),
                                         .player_id = r.string(i, 3),
                                         .player_name = r.string(i, 4),
                                         .reason = r.string(i, 5),
                                         .note = r.string(i, 6),
                                         .at = r.int64(i, 7),
                                         .resolved_at = r.int64(i, 8),
                                         .resolution = r.string(i, 9)};
                   });
  });
}

bool Recorder::resolve_report(std::int64_t id, std::string_view resolution,
                              const AuditEntry& entry) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    if (sql(Sql::resolve_report, id, entry.at, resolution).changed() == 0) return false;
    write_audit(sql, entry);
    return true;
  });
}

std::vector<std::string> Recorder::banned_players() {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::banned_players),
                   [](const SqlResult& r, std::size_t i) { return r.string(i, 0); });
  });
}

std::vector<std::pair<GameRecord, bool>> Recorder::recent_games(std::string_view player_id,
                                                                int limit) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::recent_games, player_id, limit), [](const SqlResult& r, std::size_t i) {
      return std::pair(game_of(r, i), r.boolean(i, 17));
    });
  });
}

std::vector<GameRecord> Recorder::unanalysed_games(int limit) {
  return unit(SqlTx::none,
              [&](SqlSession& sql) { return rows_of(sql(Sql::unanalysed_games, limit), game_of); });
}

namespace {
std::int64_t thousandths(double v) { return static_cast<std::int64_t>(v * 1000.0 + 0.5); }
double from_thousandths(std::int64_t v) { return static_cast<double>(v) / 1000.0; }
}  // namespace

void Recorder::save_signals(const SignalRecord& s, std::int64_t at) {
  unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::upsert_signals, s.game_id, s.player_id, thousandths(s.moves_per_second),
        thousandths(s.spread), s.match_rate ? thousandths(*s.match_rate) : std::int64_t{-1},
        s.sampled, thousandths(s.suspicion), at);
    sql(Sql::analysed, s.game_id);
  });
}

std::vector<SignalRecord> Recorder::suspicious_games(int limit) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::top_signals, limit), [](const SqlResult& r, std::size_t i) {
      const std::int64_t match = r.int64(i, 8);
      return SignalRecord{
          .game_id = r.string(i, 0),
          .player_id = r.string(i, 1),
          .player_name = r.string(i, 2),
          .mode = mode_of(r.string(i, 3)),
          .size = r.integer(i, 4),
          .score = r.int64(i, 5),
          .moves_per_second = from_thousandths(r.int64(i, 6)),
          .spread = from_thousandths(r.int64(i, 7)),
          .match_rate = match < 0 ? std::nullopt : std::optional<double>(from_thousandths(match)),
          .sampled = r.integer(i, 9),
          .suspicion = from_thousandths(r.int64(i, 10))};
    });
  });
}

std::vector<PlayerRecord> Recorder::search_players(std::string_view query, int limit) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    const SqlResult r = sql(Sql::search_players, query, protocol::name_key(query), limit);
    std::vector<PlayerRecord> found =
        rows_of(r, [](const SqlResult& r, std::size_t i) { return player_of(r, i); });
    for (PlayerRecord& p : found) ratings_in(sql, p);
    return found;
  });
}

std::vector<std::pair<std::string, std::int64_t>> Recorder::old_names(std::string_view player_id) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::old_names_of, player_id), [](const SqlResult& r, std::size_t i) {
      return std::pair(r.string(i, 0), r.int64(i, 1));
    });
  });
}

}  // namespace tilerace::server
