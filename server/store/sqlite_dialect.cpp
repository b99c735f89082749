#include "server/store/sqlite_dialect.hpp"

#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>

#include "protocol/period.hpp"
#include "server/base/secrets.hpp"

namespace tilerace::server {

namespace {

// Each entry moves the schema from version i to i + 1. Never edit one that has shipped.
constexpr const char* kMigrations[] = {
    R"sql(
CREATE TABLE players (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  rating INTEGER NOT NULL DEFAULT 1500,
  wins INTEGER NOT NULL DEFAULT 0,
  losses INTEGER NOT NULL DEFAULT 0,
  races INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX players_by_rating ON players (rating DESC, id) WHERE races > 0;
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  player_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  size INTEGER NOT NULL,
  target INTEGER NOT NULL,
  seed TEXT NOT NULL,
  moves TEXT NOT NULL,
  score INTEGER NOT NULL,
  max_tile INTEGER NOT NULL,
  move_count INTEGER NOT NULL,
  state TEXT NOT NULL,
  ranked INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL,
  room TEXT NOT NULL
);
CREATE INDEX games_by_player ON games (player_id, ended_at);
CREATE TABLE races (
  id TEXT PRIMARY KEY,
  room TEXT NOT NULL,
  reason TEXT NOT NULL,
  winner TEXT NOT NULL,
  result TEXT NOT NULL,
  ended_at INTEGER NOT NULL
);
-- Each player's best ranked solo result per mode and size: the score leaderboard.
CREATE TABLE best_results (
  player_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  size INTEGER NOT NULL,
  score INTEGER NOT NULL,
  max_tile INTEGER NOT NULL,
  move_count INTEGER NOT NULL,
  game_id TEXT NOT NULL,
  ended_at INTEGER NOT NULL,
  PRIMARY KEY (player_id, mode, size)
);
CREATE INDEX best_by_score ON best_results (mode, size, score DESC, max_tile DESC, move_count, ended_at, player_id);
CREATE INDEX best_by_moves ON best_results (mode, size, move_count, ended_at, player_id);
CREATE TABLE active_games (
  player_id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  size INTEGER NOT NULL,
  target INTEGER NOT NULL,
  seed TEXT NOT NULL,
  explicit_seed INTEGER NOT NULL,
  moves TEXT NOT NULL,
  started_at INTEGER NOT NULL
);
)sql",
    R"sql(
-- Running races, journaled once a second and at shutdown so a restart lets them go on.
CREATE TABLE active_races (
  id TEXT PRIMARY KEY,
  room TEXT NOT NULL,
  mode TEXT NOT NULL,
  size INTEGER NOT NULL,
  target INTEGER NOT NULL,
  seed TEXT NOT NULL,
  time_limit INTEGER NOT NULL,
  max_players INTEGER NOT NULL,
  public INTEGER NOT NULL,
  max_moves_per_second INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  remaining_ms INTEGER NOT NULL
);
CREATE TABLE active_racers (
  race_id TEXT NOT NULL REFERENCES active_races (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  player_id TEXT NOT NULL,
  game_id TEXT NOT NULL,
  moves TEXT NOT NULL,
  state TEXT NOT NULL,
  left_race INTEGER NOT NULL,
  PRIMARY KEY (race_id, position)
);
)sql",
    R"sql(
-- Solo games are journaled in pieces: each pass adds the moves played since the last one.
CREATE TABLE active_moves (
  player_id TEXT NOT NULL REFERENCES active_games (player_id) ON DELETE CASCADE,
  first INTEGER NOT NULL,
  moves TEXT NOT NULL,
  PRIMARY KEY (player_id, first)
) WITHOUT ROWID;
)sql",
    R"sql(
-- Each person's record against the computer, per strength.
CREATE TABLE bot_records (
  player_id TEXT NOT NULL,
  strength TEXT NOT NULL,
  wins INTEGER NOT NULL,
  losses INTEGER NOT NULL,
  draws INTEGER NOT NULL,
  PRIMARY KEY (player_id, strength)
) WITHOUT ROWID;
)sql",
    R"sql(
-- Each player's rating after each rated race: the profile's chart.
CREATE TABLE rating_history (
  player_id TEXT NOT NULL,
  race_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  rating INTEGER NOT NULL,
  PRIMARY KEY (player_id, at, race_id)
) WITHOUT ROWID;
)sql",
    R"sql(
-- Each player's best ranked solo result per mode and size in each period: all time, each UTC
-- day and each ISO week ("all-time", "2026-11-23", "2026-W47"). Replaces best_results; the
-- days and weeks of the games already recorded are filled in from them.
CREATE TABLE period_results (
  period TEXT NOT NULL,
  player_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  size INTEGER NOT NULL,
  score INTEGER NOT NULL,
  max_tile INTEGER NOT NULL,
  move_count INTEGER NOT NULL,
  game_id TEXT NOT NULL,
  ended_at INTEGER NOT NULL,
  PRIMARY KEY (period, player_id, mode, size)
) WITHOUT ROWID;
CREATE INDEX period_by_score ON period_results (period, mode, size, score DESC, max_tile DESC, move_count, ended_at, player_id);
CREATE INDEX period_by_moves ON period_results (period, mode, size, move_count, ended_at, player_id);
INSERT INTO period_results SELECT 'all-time', player_id, mode, size, score, max_tile, move_count, game_id, ended_at FROM best_results;
INSERT INTO period_results
SELECT period, player_id, mode, size, score, max_tile, move_count, id, ended_at FROM (
  SELECT CASE k.kind WHEN 'day' THEN utc_day(g.ended_at) ELSE iso_week(g.ended_at) END AS period,
         g.*, row_number() OVER (
           PARTITION BY k.kind, CASE k.kind WHEN 'day' THEN utc_day(g.ended_at) ELSE iso_week(g.ended_at) END, g.player_id, g.mode, g.size
           ORDER BY CASE WHEN g.mode = 'fifteen' THEN 0 ELSE -g.score END,
                    CASE WHEN g.mode = 'fifteen' THEN 0 ELSE -g.max_tile END,
                    g.move_count, g.ended_at, g.id) AS n
  FROM games g, (SELECT 'day' AS kind UNION ALL SELECT 'week') k
  WHERE g.ranked <> 0 AND g.room = '' AND (g.mode <> 'fifteen' OR g.state = 'solved'))
WHERE n = 1;
DROP TABLE best_results;
)sql",
    R"sql(
-- Achievements granted (server/achievements.hpp), each once per player; and each player's
-- current run of race wins against people.
CREATE TABLE achievements (
  player_id TEXT NOT NULL,
  achievement TEXT NOT NULL,
  game_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (player_id, achievement)
) WITHOUT ROWID;
ALTER TABLE players ADD COLUMN streak INTEGER NOT NULL DEFAULT 0;
)sql",
    R"sql(
-- Accounts. A session per signed-in device (a player's one token moves here); a password
-- for players who registered; names unique by their key (NFKC_Casefold, protocol/names.hpp:
-- the recorder fills it in at open, as SQL cannot), the names players had before, and
-- single-use link codes.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  player_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  label TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE INDEX sessions_by_player ON sessions (player_id);
INSERT INTO sessions SELECT token_hash, id, created_at, created_at, '' FROM players;
ALTER TABLE players DROP COLUMN token_hash;
ALTER TABLE players ADD COLUMN name_key TEXT;
ALTER TABLE players ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN registered_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN renamed_at INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX players_by_name_key ON players (name_key);
CREATE TABLE old_names (
  player_id TEXT NOT NULL,
  name TEXT NOT NULL,
  until INTEGER NOT NULL
);
CREATE INDEX old_names_by_player ON old_names (player_id);
CREATE TABLE link_codes (
  code TEXT PRIMARY KEY,
  player_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
)sql",
    R"sql(
-- Friends (server/store/friendship.hpp): one row per link that is not none; a friendship is
-- two rows.
CREATE TABLE friend_links (
  player TEXT NOT NULL,
  other TEXT NOT NULL,
  link TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (player, other)
) WITHOUT ROWID;
CREATE INDEX friend_links_by_other ON friend_links (other);
)sql",
    R"sql(
-- The daily challenge: the server's secrets (the daily seeds' key), and each player's one
-- ranked attempt per day and mode, kept up to date while it is played.
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE daily_attempts (
  day TEXT NOT NULL,
  mode TEXT NOT NULL,
  player_id TEXT NOT NULL,
  game_id TEXT NOT NULL,
  score INTEGER NOT NULL DEFAULT 0,
  max_tile INTEGER NOT NULL DEFAULT 0,
  moves INTEGER NOT NULL DEFAULT 0,
  at INTEGER NOT NULL,
  finished INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, mode, player_id)
) WITHOUT ROWID;
CREATE INDEX daily_attempts_by_game ON daily_attempts (game_id);
ALTER TABLE games ADD COLUMN daily TEXT NOT NULL DEFAULT '';
-- When each move was played (ms from the game's start, comma-separated); '' when unknown.
ALTER TABLE games ADD COLUMN times TEXT NOT NULL DEFAULT '';
ALTER TABLE active_games ADD COLUMN daily TEXT NOT NULL DEFAULT '';
)sql",
    R"sql(
-- Moderation (docs/operations.md, "Moderation"): the bans in force (players.banned mirrors
-- them for the boards' queries), the games taken off the boards, players' reports, and the
-- append-only audit log of every moderation action.
CREATE TABLE bans (
  player_id TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  until INTEGER NOT NULL,
  at INTEGER NOT NULL
) WITHOUT ROWID;
ALTER TABLE players ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;
-- Where each session was last seen from (the console shows a player's addresses).
ALTER TABLE sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE TABLE hidden_games (
  game_id TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE reports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  reporter TEXT NOT NULL,
  player_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  note TEXT NOT NULL,
  at INTEGER NOT NULL,
  day TEXT NOT NULL,
  resolved_at INTEGER NOT NULL DEFAULT 0,
  resolution TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX reports_once_a_day ON reports (reporter, player_id, day);
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  reason TEXT NOT NULL,
  detail TEXT NOT NULL
);
-- Signals of computer-assisted play per ranked game (server/game/assist_signals.hpp), in
-- thousandths (match -1: not worked out).
CREATE TABLE game_signals (
  game_id TEXT PRIMARY KEY,
  player_id TEXT NOT NULL,
  moves_per_second INTEGER NOT NULL,
  spread INTEGER NOT NULL,
  match INTEGER NOT NULL,
  sampled INTEGER NOT NULL,
  suspicion INTEGER NOT NULL,
  at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX game_signals_by_suspicion ON game_signals (suspicion DESC, game_id);
CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
)sql",
    // A race game's race, for the outcome a profile lists (recent_races).
    R"sql(
CREATE INDEX IF NOT EXISTS races_by_room ON races (room, ended_at);
)sql",
    // Tournaments (server/store/tournament_record.hpp): each as one document, and the
    // tournament a journaled race is a match of.
    R"sql(
ALTER TABLE active_races ADD COLUMN tournament TEXT NOT NULL DEFAULT '';
CREATE TABLE tournaments (
  code TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  document TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX tournaments_open ON tournaments (updated_at) WHERE state IN ('waiting', 'running');
)sql",
    // The games still to analyse for assisted play, newest first, from an index of them alone
    // (the sweep had read every game recorded, every second); a player's daily days from an
    // index of their own (the profile had read every attempt).
    R"sql(
ALTER TABLE games ADD COLUMN to_analyse INTEGER NOT NULL DEFAULT 0;
UPDATE games SET to_analyse = 1 WHERE ranked <> 0 AND player_id NOT LIKE 'bot-%' AND
  NOT EXISTS (SELECT 1 FROM game_signals s WHERE s.game_id = games.id);
CREATE INDEX games_to_analyse ON games (ended_at) WHERE to_analyse <> 0;
CREATE INDEX daily_attempts_by_player ON daily_attempts (player_id, day);
)sql",
    // Each board's index holds the rows that board reads and no others: the score boards'
    // every mode but Fifteen, the fewest-moves board's Fifteen alone. A finished game then
    // updates one of them, not both (the fewest-moves index of every 2048 result was written
    // with each new best and never read).
    R"sql(
DROP INDEX period_by_score;
DROP INDEX period_by_moves;
CREATE INDEX period_by_score ON period_results (period, mode, size, score DESC, max_tile DESC, move_count, ended_at, player_id) WHERE mode <> 'fifteen';
CREATE INDEX period_by_moves ON period_results (period, mode, size, move_count, ended_at, player_id) WHERE mode = 'fifteen';
)sql",
    // One live connection per player, cluster-wide: each welcome takes the player's next
    // connection epoch, and an open connection under an earlier one has been taken over.
    R"sql(
CREATE TABLE IF NOT EXISTS connection_epochs (
  player_id TEXT PRIMARY KEY,
  epoch INTEGER NOT NULL
);
)sql",
    // Names compared by what they look like (protocol/names.hpp): a second key, and the
    // version of the rules the keys were made under (none yet: every name is keyed again at
    // open, the oldest holder of a key keeping their name).
    R"sql(
ALTER TABLE players ADD COLUMN look_key TEXT;
CREATE UNIQUE INDEX players_by_look_key ON players (look_key);
CREATE TABLE IF NOT EXISTS name_keys_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version TEXT NOT NULL
);
)sql",
    // No secret at rest: link and reset codes are kept as their SHA-256 (code_hash).
    R"sql(
UPDATE link_codes SET code = sha256_hex(code);
)sql",
    // Operators as people (server/play/operator_desk.hpp): accounts with a role, a password
    // and a TOTP secret; their sessions (kept as hashes); and who did what in the audit log.
    R"sql(
CREATE TABLE operators (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  totp_secret TEXT NOT NULL DEFAULT '',
  totp_pending TEXT NOT NULL DEFAULT '',
  totp_step INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE operator_sessions (
  token_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  address TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX operator_sessions_by_operator ON operator_sessions (operator_id);
ALTER TABLE audit_log ADD COLUMN actor_role TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN target_name TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN address TEXT NOT NULL DEFAULT '';
)sql",
    // Guest names come free (Store::release_guest_name): the name a guest lost, until told.
    R"sql(
ALTER TABLE players ADD COLUMN released_name TEXT NOT NULL DEFAULT '';
)sql",
};

// utc_day(ms) and iso_week(ms): the names of the day and the ISO week holding a Unix
// millisecond instant, for SQL (the migration that fills in past periods).
template <protocol::PeriodKind kind>
void period_function(sqlite3_context* context, int, sqlite3_value** args) {
  const std::string name = protocol::to_string(
      protocol::period_containing(kind, std::max<sqlite3_int64>(0, sqlite3_value_int64(args[0]))));
  sqlite3_result_text(context, name.c_str(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
}

// sha256_hex(text): code_hash of a text, for SQL (the migration that hashes the link codes).
void sha256_function(sqlite3_context* context, int, sqlite3_value** args) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(args[0]));
  const std::string hash = code_hash(std::string_view(
      text == nullptr ? "" : text, static_cast<std::size_t>(sqlite3_value_bytes(args[0]))));
  sqlite3_result_text(context, hash.c_str(), static_cast<int>(hash.size()), SQLITE_TRANSIENT);
}

// A daily attempt (a) of a player (p) that is on the boards: not banned, its game not hidden.
#define TILERACE_ON_BOARD \
  "AND p.banned = 0 AND a.game_id NOT IN (SELECT game_id FROM hidden_games) "
#define TILERACE_PLAYER_COLUMNS \
  "id, name, created_at, rating, wins, losses, registered_at, renamed_at"

// The text of each statement (server/store/sql.hpp says its parameters and columns).
const char* text(Sql statement) {
  switch (statement) {
    case Sql::insert_player:
      return "INSERT OR IGNORE INTO players (id, name, name_key, rating, wins, losses, "
             "created_at, look_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    case Sql::select_player: return "SELECT " TILERACE_PLAYER_COLUMNS " FROM players WHERE id = ?";
    case Sql::player_by_key: return "SELECT id, password_hash FROM players WHERE name_key = ?";
    case Sql::unkeyed_players:
      return "SELECT id, name FROM players WHERE name_key IS NULL ORDER BY created_at, id";
    case Sql::set_name:
      return "UPDATE players SET name = ?2, name_key = ?3, renamed_at = ?4, look_key = ?5 "
             "WHERE id = ?1";
    case Sql::player_by_keys: return "SELECT id FROM players WHERE name_key = ?1 OR look_key = ?2";
    case Sql::lock_name_keys: return "SELECT 1";  // one writer: nothing to wait for
    case Sql::name_keys_version: return "SELECT version FROM name_keys_version";
    case Sql::set_name_keys_version:
      return "INSERT INTO name_keys_version VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET "
             "version = excluded.version";
    case Sql::clear_name_keys: return "UPDATE players SET name_key = NULL, look_key = NULL";
    case Sql::set_password:
      return "UPDATE players SET password_hash = ?2, registered_at = ?3 WHERE id = ?1";
    case Sql::insert_old_name:
      return "INSERT INTO old_names (player_id, name, until) VALUES (?, ?, ?)";
    case Sql::insert_session:
      return "INSERT INTO sessions (token_hash, player_id, created_at, last_seen, label, "
             "address) VALUES (?1, ?2, ?3, ?3, ?4, ?5)";
    case Sql::session_player:
      return "SELECT s.player_id, p.name, p.released_name FROM sessions s JOIN players p ON "
             "p.id = s.player_id WHERE s.token_hash = ?";
    case Sql::touch_session:
      return "UPDATE sessions SET last_seen = ?2, address = ?3 WHERE token_hash = ?1";
    case Sql::sessions_of:
      return "SELECT token_hash, created_at, last_seen, label, address FROM sessions "
             "WHERE player_id = ? ORDER BY created_at, token_hash";
    case Sql::delete_session: return "DELETE FROM sessions WHERE token_hash = ?";
    case Sql::delete_other_sessions:
      return "DELETE FROM sessions WHERE player_id = ?1 AND token_hash <> ?2 RETURNING token_hash";
    case Sql::take_connection:
      return "INSERT INTO connection_epochs VALUES (?1, 1) ON CONFLICT (player_id) DO UPDATE "
             "SET epoch = connection_epochs.epoch + 1 RETURNING epoch";
    case Sql::connection_states:
      return "SELECT p.id, COALESCE(c.epoch, 0), p.name FROM players p LEFT JOIN connection_epochs "
             "c "
             "ON c.player_id = p.id WHERE p.id IN "
             "(SELECT value FROM json_each(?1))";
    case Sql::live_sessions:
      return "SELECT token_hash FROM sessions WHERE token_hash IN "
             "(SELECT value FROM json_each(?1))";
    case Sql::insert_link_code:
      return "INSERT INTO link_codes (code, player_id, expires_at) VALUES (?, ?, ?)";
    case Sql::take_link_code:
      return "DELETE FROM link_codes WHERE code = ? RETURNING player_id, expires_at";
    case Sql::friend_links:
      return "SELECT player, link FROM friend_links WHERE (player = ?1 AND other = ?2) OR "
             "(player = ?2 AND other = ?1)";
    case Sql::delete_friend_links:
      return "DELETE FROM friend_links WHERE (player = ?1 AND other = ?2) OR "
             "(player = ?2 AND other = ?1)";
    case Sql::insert_friend_link: return "INSERT INTO friend_links VALUES (?, ?, ?, ?)";
    case Sql::friend_counts:
      return "SELECT COUNT(*) FILTER (WHERE link = 'friend'), "
             "COUNT(*) FILTER (WHERE link = 'requested') FROM friend_links WHERE player = ?";
    case Sql::friend_list:
      return "SELECT p.id, p.name, p.rating, f.link, 0 FROM friend_links f "
             "JOIN players p ON p.id = f.other WHERE f.player = ?1 UNION ALL "
             "SELECT p.id, p.name, p.rating, f.link, 1 FROM friend_links f "
             "JOIN players p ON p.id = f.player WHERE f.other = ?1 AND f.link = 'requested' "
             "ORDER BY 2, 1";
    case Sql::insert_secret:
      return "INSERT INTO server_secrets VALUES (?1, ?2) ON CONFLICT DO NOTHING";
    case Sql::select_secret: return "SELECT value FROM server_secrets WHERE name = ?1";
    case Sql::insert_daily:
      return "INSERT INTO daily_attempts (day, mode, player_id, game_id, at) "
             "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING";
    case Sql::daily_progress:
      return "UPDATE daily_attempts SET score = ?2, max_tile = ?3, moves = ?4, at = ?5, "
             "finished = ?6 WHERE game_id = ?1 AND finished = 0";
    case Sql::daily_of_game: return "SELECT day, mode FROM daily_attempts WHERE game_id = ?1";
    case Sql::finish_daily: return "UPDATE daily_attempts SET finished = 1 WHERE game_id = ?1";
    case Sql::daily_days:
      return "SELECT DISTINCT day FROM daily_attempts WHERE player_id = ?1 ORDER BY day";
    case Sql::daily_top:
      return "SELECT a.player_id, p.name, a.score, a.max_tile, a.moves, a.game_id, a.at "
             "FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = ?1 AND a.mode = ?2 " TILERACE_ON_BOARD
             "ORDER BY a.score DESC, a.moves, a.at, a.player_id LIMIT ?3";
    case Sql::daily_entry:
      return "SELECT a.player_id, p.name, a.score, a.max_tile, a.moves, a.game_id, a.at "
             "FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = ?1 AND a.mode = ?2 AND a.player_id = ?3 " TILERACE_ON_BOARD;
    case Sql::daily_better:
      return "SELECT COUNT(*) FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = ?1 AND a.mode = ?2 " TILERACE_ON_BOARD
             "AND (a.score > ?3 OR (a.score = ?3 AND (a.moves < ?4 OR (a.moves = ?4 AND a.at < "
             "?5))))";
    case Sql::daily_of_day:
      return "SELECT a.day, a.mode, a.player_id, p.name, a.game_id, a.score, a.max_tile, a.moves, "
             "a.at, a.finished FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = ?1 " TILERACE_ON_BOARD
             "ORDER BY a.mode, a.score DESC, a.moves, a.at, a.player_id";
    case Sql::open_dailies:
      return "SELECT a.day, a.mode, a.player_id, p.name, a.game_id, a.score, a.max_tile, a.moves, "
             "a.at, a.finished FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day < ?1 AND a.finished = 0 ORDER BY a.day, a.mode, a.player_id";
    case Sql::update_rating:
      return "UPDATE players SET rating = ?1, wins = wins + ?2, losses = losses + ?3, "
             "races = races + 1, streak = CASE WHEN ?2 > 0 THEN streak + 1 ELSE 0 END "
             "WHERE id = ?4 RETURNING races, streak";
    case Sql::rated_players:
      return "SELECT id, rating, races FROM players WHERE races > 0 AND banned = 0";
    case Sql::top_rating:
      return "SELECT id, name, rating, wins, losses FROM players WHERE races > 0 AND banned = 0 "
             "ORDER BY rating DESC, id LIMIT ?";
    case Sql::rating_of:
      return "SELECT id, name, rating, wins, losses FROM players "
             "WHERE races > 0 AND banned = 0 AND id = ?";
    case Sql::insert_game:
      return "INSERT OR IGNORE INTO games (id, player_id, mode, size, target, seed, moves, "
             "score, max_tile, move_count, state, ranked, started_at, ended_at, room, daily, "
             "times, to_analyse) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
             "?14, ?15, ?16, ?17, ?12 <> 0 AND ?2 NOT LIKE 'bot-%')";
    case Sql::select_game:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times FROM games "
             "WHERE id = ?";
    case Sql::count_games: return "SELECT COUNT(*) FROM games WHERE player_id = ?";
    case Sql::recent_races:
      return "SELECT g.id, g.mode, g.size, g.target, g.seed, g.score, g.max_tile, g.move_count, "
             "g.state, g.ended_at, g.room, " TILERACE_RACE_OUTCOME
             " FROM games g WHERE "
             "g.player_id = ?1 AND g.room <> '' ORDER BY g.ended_at DESC, g.id LIMIT 10";
    case Sql::insert_race:
      return "INSERT OR IGNORE INTO races (id, room, reason, winner, result, ended_at) "
             "VALUES (?, ?, ?, ?, ?, ?)";
    case Sql::set_race_recorder:  // one server: nobody else records its races
      return "SELECT ?1, ?2, ?3, ?4 WHERE 0";
    case Sql::race_recorder: return "SELECT '', 0, '' WHERE ?1 IS NULL";
    case Sql::insert_rating_point:
      return "INSERT OR IGNORE INTO rating_history VALUES (?, ?, ?, ?)";
    case Sql::rating_history:
      return "SELECT at, rating FROM rating_history WHERE player_id = ? ORDER BY at, race_id";
    case Sql::upsert_bot_record:
      return "INSERT INTO bot_records VALUES (?, ?, ?, ?, ?) ON CONFLICT (player_id, strength) "
             "DO UPDATE SET wins = bot_records.wins + excluded.wins, "
             "losses = bot_records.losses + excluded.losses, "
             "draws = bot_records.draws + excluded.draws";
    case Sql::select_bot_records:
      return "SELECT strength, wins, losses, draws FROM bot_records WHERE player_id = ?";
    case Sql::insert_achievement: return "INSERT OR IGNORE INTO achievements VALUES (?, ?, ?, ?)";
    case Sql::achievements_of:
      return "SELECT achievement, game_id, at FROM achievements WHERE player_id = ? "
             "ORDER BY at, achievement";
    case Sql::upsert_best_2048:
      return "INSERT INTO period_results VALUES (?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), "
             "(?2, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
             "ON CONFLICT (period, player_id, mode, size) DO UPDATE SET score = excluded.score, "
             "max_tile = excluded.max_tile, move_count = excluded.move_count, "
             "game_id = excluded.game_id, ended_at = excluded.ended_at "
             "WHERE excluded.score > score OR (excluded.score = score AND "
             "(excluded.max_tile > max_tile OR (excluded.max_tile = max_tile AND "
             "excluded.move_count < move_count))) RETURNING period";
    case Sql::upsert_best_fifteen:
      return "INSERT INTO period_results VALUES (?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), "
             "(?2, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
             "ON CONFLICT (period, player_id, mode, size) DO UPDATE SET score = excluded.score, "
             "max_tile = excluded.max_tile, move_count = excluded.move_count, "
             "game_id = excluded.game_id, ended_at = excluded.ended_at "
             "WHERE excluded.move_count < move_count RETURNING period";
    case Sql::all_bests:
      return "SELECT b.mode, b.size, b.player_id, b.score, b.max_tile, b.move_count, b.period "
             "FROM period_results b JOIN players p ON p.id = b.player_id WHERE p.banned = 0";
    case Sql::bests_of:
      return "SELECT mode, size, score, max_tile, move_count, game_id, ended_at "
             "FROM period_results WHERE period = 'all-time' AND player_id = ? "
             "ORDER BY mode, size";
    case Sql::top_2048:
      return "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, "
             "b.ended_at FROM period_results b JOIN players p ON p.id = b.player_id "
             "WHERE b.period = ? AND b.mode = ? AND b.mode <> 'fifteen' AND b.size = ? "
             "AND p.banned = 0 ORDER BY b.score DESC, b.max_tile DESC, b.move_count, b.ended_at, "
             "b.player_id LIMIT ?";
    case Sql::top_fifteen:
      return "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, "
             "b.ended_at FROM period_results b JOIN players p ON p.id = b.player_id "
             "WHERE b.period = ? AND b.mode = ? AND b.mode = 'fifteen' AND b.size = ? "
             "AND p.banned = 0 ORDER BY b.move_count, b.ended_at, b.player_id LIMIT ?";
    case Sql::best_of:
      return "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, "
             "b.ended_at FROM period_results b JOIN players p ON p.id = b.player_id "
             "WHERE b.period = ? AND b.mode = ? AND b.size = ? AND b.player_id = ? "
             "AND p.banned = 0";
    case Sql::upsert_active:
      return "INSERT INTO active_games SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?10 "
             "WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = ?2) "
             "ON CONFLICT (player_id) DO UPDATE SET game_id = excluded.game_id, "
             "mode = excluded.mode, size = excluded.size, target = excluded.target, "
             "seed = excluded.seed, explicit_seed = excluded.explicit_seed, "
             "moves = excluded.moves, started_at = excluded.started_at, daily = excluded.daily";
    case Sql::delete_active:
      return "DELETE FROM active_games WHERE player_id = ?1 AND game_id = ?2";
    case Sql::delete_pieces:
      return "DELETE FROM active_moves WHERE player_id = ? "
             "AND NOT EXISTS (SELECT 1 FROM games WHERE id = ?)";
    case Sql::insert_piece:
      return "INSERT OR REPLACE INTO active_moves SELECT ?1, ?2, ?3 "
             "WHERE EXISTS (SELECT 1 FROM active_games WHERE player_id = ?1 AND game_id = ?4)";
    case Sql::claim_active:  // one server: its entries are its own
      return "SELECT 0 WHERE ?1 IS NULL AND ?2 IS NULL";
    case Sql::active_owner: return "SELECT '', 0 WHERE ?1 IS NULL AND ?2 IS NULL";
    case Sql::select_active:
      return "SELECT player_id, game_id, mode, size, target, seed, explicit_seed, moves, "
             "started_at, daily, 0 FROM active_games WHERE player_id = ?";
    case Sql::select_pieces:
      return "SELECT first, moves FROM active_moves WHERE player_id = ? ORDER BY first";
    case Sql::upsert_race:
      // ?2, the node, is not kept: the file is this server's own. Nor is ?17, the progress:
      // one server writes its races from its journal pass only, one snapshot after the other.
      return "INSERT INTO active_races SELECT ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
             "?13, ?14, ?18 WHERE NOT EXISTS (SELECT 1 FROM races WHERE id = ?1) "
             "ON CONFLICT (id) DO UPDATE SET host = excluded.host, "
             "remaining_ms = excluded.remaining_ms RETURNING 1";
    case Sql::lock_race: return "SELECT ?1 IS NULL";  // one writer: nothing to wait for
    case Sql::race_owner: return "SELECT '', 0, '' WHERE ?1 IS NULL";  // its own races only
    case Sql::delete_race:
      return "DELETE FROM active_races WHERE id = ?";  // its racers go with it (ON DELETE CASCADE)
    case Sql::drop_recorded_race:
      return "DELETE FROM active_races WHERE id = ?1 AND EXISTS (SELECT 1 FROM races WHERE id = "
             "?1)";
    case Sql::delete_racers: return "DELETE FROM active_racers WHERE race_id = ?";
    case Sql::insert_racer:
      return "INSERT INTO active_racers SELECT ?, ?, ?, ?, ?, ?, ? "
             "WHERE EXISTS (SELECT 1 FROM active_races WHERE id = ?1)";
    case Sql::select_races:  // every journaled race is this server's
      return "SELECT id, room, mode, size, target, seed, time_limit, max_players, public, "
             "max_moves_per_second, host, started_at, remaining_ms, 0, '', tournament "
             "FROM active_races";
    case Sql::adoptable_races:
    case Sql::adopt_races:
      return nullptr;  // no other server's races are here (the Recorder never asks)
    case Sql::select_racers:
      return "SELECT player_id, game_id, moves, state, left_race FROM active_racers "
             "WHERE race_id = ? ORDER BY position";
    case Sql::race_room_of:
      return "SELECT r.room FROM active_racers a JOIN active_races r ON r.id = a.race_id "
             "WHERE a.player_id = ? AND NOT a.left_race ORDER BY r.started_at DESC LIMIT 1";
    case Sql::upsert_tournament:  // ?2 (the node), ?6 and ?7 (epoch, url): one server
      return "INSERT INTO tournaments SELECT ?1, ?3, ?4, ?5 WHERE ?2 IS NOT NULL AND "
             "?6 IS NOT NULL AND ?7 IS NOT NULL ON CONFLICT (code) DO UPDATE SET "
             "state = excluded.state, document = excluded.document, "
             "updated_at = excluded.updated_at RETURNING 1";
    case Sql::adopt_tournaments:
      return nullptr;  // no other server's tournaments are here (the Recorder never asks)
    case Sql::open_tournaments:
      return "SELECT code, state, document, updated_at, 0, '' FROM tournaments "
             "WHERE state IN ('waiting', 'running') AND ?1 IS NOT NULL ORDER BY updated_at, code";
    case Sql::tournament_of:
      return nullptr;  // one server: its tournaments' members are linked (never asked)
    case Sql::race_in_room:
      return "SELECT winner, reason, result FROM races WHERE room = ? AND ended_at >= ? "
             "ORDER BY ended_at LIMIT 1";
    case Sql::upsert_ban:
      return "INSERT INTO bans VALUES (?, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET "
             "reason = excluded.reason, until = excluded.until, at = excluded.at";
    case Sql::delete_ban: return "DELETE FROM bans WHERE player_id = ? RETURNING player_id";
    case Sql::set_banned: return "UPDATE players SET banned = ?2 WHERE id = ?1";
    case Sql::select_ban: return "SELECT reason, until, at FROM bans WHERE player_id = ?";
    case Sql::expired_bans:
      return "SELECT player_id FROM bans WHERE until > 0 AND until <= ? ORDER BY player_id";
    case Sql::hide_game: return "INSERT OR IGNORE INTO hidden_games VALUES (?, ?, ?)";
    case Sql::unhide_game: return "DELETE FROM hidden_games WHERE game_id = ?";
    case Sql::board_games:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times FROM games "
             "WHERE player_id = ? AND ranked <> 0 AND room = '' AND daily = '' "
             "AND id NOT IN (SELECT game_id FROM hidden_games) ORDER BY ended_at, id";
    case Sql::delete_bests: return "DELETE FROM period_results WHERE player_id = ?";
    case Sql::insert_report:
      return "INSERT OR IGNORE INTO reports (reporter, player_id, reason, note, at, day) "
             "VALUES (?, ?, ?, ?, ?, ?)";
    case Sql::select_reports:
      return "SELECT r.id, r.reporter, a.name, r.player_id, b.name, r.reason, r.note, r.at, "
             "r.resolved_at, r.resolution FROM reports r JOIN players a ON a.id = r.reporter "
             "JOIN players b ON b.id = r.player_id WHERE ?1 = 0 OR r.resolved_at = 0 "
             "ORDER BY r.id DESC LIMIT ?2";
    case Sql::resolve_report:
      return "UPDATE reports SET resolved_at = ?2, resolution = ?3 "
             "WHERE id = ?1 AND resolved_at = 0";
    case Sql::insert_audit:
      return "INSERT INTO audit_log (at, actor, action, target, reason, detail, actor_role, "
             "target_name, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    case Sql::select_audit:
      return "SELECT id, at, actor, action, target, reason, detail, actor_role, target_name, "
             "address FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?";
    case Sql::search_players:
      return "SELECT " TILERACE_PLAYER_COLUMNS
             " FROM players WHERE id = ?1 "
             "OR instr(name_key, ?2) > 0 OR id IN (SELECT player_id FROM old_names "
             "WHERE instr(lower(name), ?2) > 0) ORDER BY name_key LIMIT ?3";
    case Sql::old_names_of:
      return "SELECT name, until FROM old_names WHERE player_id = ? ORDER BY until";
    case Sql::ranks_changed: return "SELECT 0";
    case Sql::banned_players: return "SELECT player_id FROM bans";
    case Sql::unanalysed_games:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times FROM games "
             "WHERE to_analyse <> 0 ORDER BY ended_at DESC LIMIT ?";
    case Sql::upsert_signals:
      return "INSERT INTO game_signals VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO "
             "NOTHING";
    case Sql::analysed: return "UPDATE games SET to_analyse = 0 WHERE id = ?";
    case Sql::insert_operator:
      return "INSERT INTO operators (id, name, name_key, role, password_hash, created_at) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING";
    case Sql::operator_by_key:
      return "SELECT id, name, role, password_hash, totp_secret, totp_pending, totp_step, "
             "created_at FROM operators WHERE name_key = ?1";
    case Sql::select_operators:
      return "SELECT o.id, o.name, o.role, CASE WHEN o.totp_secret <> '' THEN 1 ELSE 0 END, "
             "o.created_at, (SELECT COUNT(*) FROM operator_sessions s WHERE s.operator_id = o.id "
             "AND s.expires_at > ?1), (SELECT COALESCE(MAX(s.created_at), 0) FROM "
             "operator_sessions s WHERE s.operator_id = o.id) FROM operators o ORDER BY o.name_key";
    case Sql::set_totp_pending: return "UPDATE operators SET totp_pending = ?2 WHERE id = ?1";
    case Sql::confirm_totp:
      return "UPDATE operators SET totp_secret = totp_pending, totp_pending = '', totp_step = ?2 "
             "WHERE id = ?1 AND totp_pending <> '' AND totp_step < ?2";
    case Sql::use_totp_step:
      return "UPDATE operators SET totp_step = ?2 WHERE id = ?1 AND totp_step < ?2";
    case Sql::insert_operator_session:
      return "INSERT INTO operator_sessions (token_hash, operator_id, created_at, expires_at, "
             "address) VALUES (?1, ?2, ?3, ?4, ?5)";
    case Sql::operator_of_session:
      return "SELECT o.id, o.name, o.role, o.password_hash, o.totp_secret, o.totp_pending, "
             "o.totp_step, o.created_at FROM operator_sessions s JOIN operators o ON o.id = "
             "s.operator_id WHERE s.token_hash = ?1 AND s.expires_at > ?2";
    case Sql::delete_operator_session: return "DELETE FROM operator_sessions WHERE token_hash = ?1";
    case Sql::delete_operator_sessions:
      return "DELETE FROM operator_sessions WHERE operator_id = ?1";
    case Sql::delete_operator: return "DELETE FROM operators WHERE id = ?1";
    case Sql::guest_name_holders:
      return "SELECT p.id, p.name, p.registered_at, MAX(p.created_at, COALESCE((SELECT "
             "MAX(last_seen) FROM sessions WHERE player_id = p.id), 0), COALESCE((SELECT "
             "MAX(ended_at) FROM games WHERE player_id = p.id), 0)) FROM players p "
             "WHERE p.name_key = ?1 OR p.look_key = ?2";
    case Sql::release_name:
      return "UPDATE players SET name = ?2, name_key = ?3, look_key = ?4, released_name = ?5 "
             "WHERE id = ?1";
    case Sql::clear_released_name: return "UPDATE players SET released_name = '' WHERE id = ?1";
    case Sql::top_signals:
      return "SELECT s.game_id, s.player_id, p.name, g.mode, g.size, g.score, s.moves_per_second, "
             "s.spread, s.match, s.sampled, s.suspicion FROM game_signals s "
             "JOIN players p ON p.id = s.player_id JOIN games g ON g.id = s.game_id "
             "ORDER BY s.suspicion DESC, s.game_id LIMIT ?";
    case Sql::recent_games:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times, "
             "id IN (SELECT game_id FROM hidden_games) FROM games WHERE player_id = ? "
             "ORDER BY ended_at DESC, id LIMIT ?";
  }
  return nullptr;
}
#undef TILERACE_ON_BOARD
#undef TILERACE_PLAYER_COLUMNS

}  // namespace

class SqliteDialect::Session final : public SqlSession {
 public:
  explicit Session(SqliteDialect& dialect) : dialect_(dialect) {}

  SqlResult run(Sql statement, std::span<const SqlValue> params) override {
    SQLite::Statement* s = dialect_.statements_[static_cast<std::size_t>(statement)].get();
    if (s == nullptr) throw std::logic_error("SQLite: a statement this database lacks");
    // Reset when done, whatever happened.
    struct Reset {
      SQLite::Statement& s;
      ~Reset() {
        s.tryReset();
        s.clearBindings();
      }
    } reset{*s};
    const int count = s->getBindParameterCount();
    for (int i = 0; i < static_cast<int>(params.size()) && i < count; ++i) {
      if (const auto* n = std::get_if<std::int64_t>(&params[i])) {
        s->bind(i + 1, *n);
      } else {
        s->bind(i + 1, std::string(std::get<std::string_view>(params[i])));
      }
    }
    const int columns = s->getColumnCount();
    std::vector<SqlResult::Cell> cells;
    while (s->executeStep()) {
      for (int c = 0; c < columns; ++c) {
        const SQLite::Column column = s->getColumn(c);
        if (column.isInteger()) {
          cells.emplace_back(column.getInt64());
        } else {
          cells.emplace_back(column.getString());
        }
      }
    }
    return {static_cast<std::size_t>(columns), std::move(cells), dialect_.db_.getChanges()};
  }

 private:
  SqliteDialect& dialect_;
};

SqliteDialect::SqliteDialect(const std::filesystem::path& path)
    : db_(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE) {
  db_.exec("PRAGMA journal_mode = WAL");
  db_.exec("PRAGMA synchronous = FULL");
  db_.exec("PRAGMA busy_timeout = 5000");
  db_.exec("PRAGMA foreign_keys = ON");
  db_.createFunction("utc_day", 1, true, nullptr, period_function<protocol::PeriodKind::day>);
  db_.createFunction("iso_week", 1, true, nullptr, period_function<protocol::PeriodKind::week>);
  db_.createFunction("sha256_hex", 1, true, nullptr, sha256_function);
  migrate();
  for (std::size_t i = 0; i < kSqlCount; ++i) {
    if (const char* sql = text(static_cast<Sql>(i))) {
      statements_[i] = std::make_unique<SQLite::Statement>(db_, sql);
    }
  }
}

SqliteDialect::~SqliteDialect() = default;

void SqliteDialect::migrate() {
  const int version = db_.execAndGet("PRAGMA user_version").getInt();
  constexpr int kKnown = static_cast<int>(std::size(kMigrations));
  static_assert(kKnown == kSchemaVersion);
  if (version > kKnown) {
    throw std::runtime_error("the database is from a newer tilerace (schema " +
                             std::to_string(version) + ")");
  }
  for (int v = version; v < kKnown; ++v) {
    SQLite::Transaction tx(db_);
    db_.exec(kMigrations[v]);
    db_.exec("PRAGMA user_version = " + std::to_string(v + 1));
    tx.commit();
  }
}

void SqliteDialect::session(SqlTx tx, const std::function<void(SqlSession&)>& work) {
  Session session(*this);
  if (tx == SqlTx::none) return work(session);
  SQLite::Transaction transaction(db_);  // rolls back unless committed
  work(session);
  transaction.commit();
}

std::string SqliteDialect::plan(Sql statement) {
  const char* sql = text(statement);
  if (sql == nullptr) return "";
  SQLite::Statement explain(db_, std::string("EXPLAIN QUERY PLAN ").append(sql));
  std::string steps;
  while (explain.executeStep()) steps.append(explain.getColumn(3).getString()).append("\n");
  return steps;
}

void SqliteDialect::keep_ranks(RankCache& ranks, FillRanks fill) {
  // Only this server writes here: the Recorder keeps the ranks.
  session(SqlTx::snapshot, [&](SqlSession& sql) { fill(sql, ranks); });
}

}  // namespace tilerace::server
