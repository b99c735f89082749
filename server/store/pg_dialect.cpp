#include "server/store/pg_dialect.hpp"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <regex>

#include "protocol/period.hpp"
#include "server/base/split.hpp"
#include "server/store/rank_cache.hpp"

namespace tilerace::server {

namespace {

constexpr const char* kChannel = "tilerace_ranks";
// Any number, the same in every node: the lock two nodes starting at once migrate under.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(2048204820482048)";

// Each entry moves the schema from version i to i + 1. Never edit one that has shipped.
// Identifiers collate as "C": the same order as SQLite's, whatever the database's locale.
constexpr const char* kMigrations[] = {
    R"sql(
CREATE TABLE players (
  id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  token_hash text NOT NULL,
  rating integer NOT NULL DEFAULT 1500,
  wins integer NOT NULL DEFAULT 0,
  losses integer NOT NULL DEFAULT 0,
  races integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL
);
CREATE INDEX players_by_rating ON players (rating DESC, id) WHERE races > 0;
CREATE TABLE games (
  id text PRIMARY KEY,
  player_id text NOT NULL,
  mode text NOT NULL,
  size integer NOT NULL,
  target bigint NOT NULL,
  seed text NOT NULL,
  moves text NOT NULL,
  score bigint NOT NULL,
  max_tile bigint NOT NULL,
  move_count integer NOT NULL,
  state text NOT NULL,
  ranked boolean NOT NULL,
  started_at bigint NOT NULL,
  ended_at bigint NOT NULL,
  room text NOT NULL
);
CREATE INDEX games_by_player ON games (player_id, ended_at);
CREATE TABLE races (
  id text PRIMARY KEY,
  room text NOT NULL,
  reason text NOT NULL,
  winner text NOT NULL,
  result text NOT NULL,
  ended_at bigint NOT NULL
);
-- Each player's best ranked solo result per mode and size: the score leaderboard.
CREATE TABLE best_results (
  player_id text COLLATE "C" NOT NULL,
  mode text NOT NULL,
  size integer NOT NULL,
  score bigint NOT NULL,
  max_tile bigint NOT NULL,
  move_count integer NOT NULL,
  game_id text NOT NULL,
  ended_at bigint NOT NULL,
  PRIMARY KEY (player_id, mode, size)
);
CREATE INDEX best_by_score ON best_results (mode, size, score DESC, max_tile DESC, move_count, ended_at, player_id);
CREATE INDEX best_by_moves ON best_results (mode, size, move_count, ended_at, player_id);
-- Solo games being played, journaled in pieces: each pass adds the moves since the last.
CREATE TABLE active_games (
  player_id text PRIMARY KEY,
  game_id text NOT NULL,
  mode text NOT NULL,
  size integer NOT NULL,
  target bigint NOT NULL,
  seed text NOT NULL,
  explicit_seed boolean NOT NULL,
  moves text NOT NULL,
  started_at bigint NOT NULL
);
CREATE TABLE active_moves (
  player_id text NOT NULL REFERENCES active_games (player_id) ON DELETE CASCADE,
  first integer NOT NULL,
  moves text NOT NULL,
  PRIMARY KEY (player_id, first)
);
-- Running races, journaled by the node that hosts them.
CREATE TABLE active_races (
  id text PRIMARY KEY,
  node text NOT NULL,
  room text NOT NULL,
  mode text NOT NULL,
  size integer NOT NULL,
  target bigint NOT NULL,
  seed text NOT NULL,
  time_limit integer NOT NULL,
  max_players integer NOT NULL,
  is_public boolean NOT NULL,
  max_moves_per_second integer NOT NULL,
  host text NOT NULL,
  started_at bigint NOT NULL,
  remaining_ms bigint NOT NULL
);
CREATE INDEX active_races_by_node ON active_races (node, started_at, id);
CREATE TABLE active_racers (
  race_id text NOT NULL REFERENCES active_races (id) ON DELETE CASCADE,
  position integer NOT NULL,
  player_id text NOT NULL,
  game_id text NOT NULL,
  moves text NOT NULL,
  state text NOT NULL,
  left_race boolean NOT NULL,
  PRIMARY KEY (race_id, position)
);
)sql",
    R"sql(
-- Each person's record against the computer, per strength.
CREATE TABLE bot_records (
  player_id text NOT NULL,
  strength text NOT NULL,
  wins integer NOT NULL,
  losses integer NOT NULL,
  draws integer NOT NULL,
  PRIMARY KEY (player_id, strength)
);
)sql",
    R"sql(
-- Each player's rating after each rated race: the profile's chart.
CREATE TABLE rating_history (
  player_id text NOT NULL,
  race_id text NOT NULL,
  at bigint NOT NULL,
  rating integer NOT NULL,
  PRIMARY KEY (player_id, at, race_id)
);
)sql",
    R"sql(
-- Each player's best ranked solo result per mode and size in each period: all time, each UTC
-- day and each ISO week ("all-time", "2026-11-23", "2026-W47"). Replaces best_results; the
-- days and weeks of the games already recorded are filled in from them.
CREATE TABLE period_results (
  period text COLLATE "C" NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  mode text NOT NULL,
  size integer NOT NULL,
  score bigint NOT NULL,
  max_tile bigint NOT NULL,
  move_count integer NOT NULL,
  game_id text NOT NULL,
  ended_at bigint NOT NULL,
  PRIMARY KEY (period, player_id, mode, size)
);
CREATE INDEX period_by_score ON period_results (period, mode, size, score DESC, max_tile DESC, move_count, ended_at, player_id);
CREATE INDEX period_by_moves ON period_results (period, mode, size, move_count, ended_at, player_id);
INSERT INTO period_results SELECT 'all-time', player_id, mode, size, score, max_tile, move_count, game_id, ended_at FROM best_results;
INSERT INTO period_results
SELECT period, player_id, mode, size, score, max_tile, move_count, id, ended_at FROM (
  SELECT to_char(to_timestamp(g.ended_at / 1000.0) AT TIME ZONE 'UTC',
                 CASE k.kind WHEN 'day' THEN 'YYYY-MM-DD' ELSE 'IYYY-"W"IW' END) AS period,
         g.*, row_number() OVER (
           PARTITION BY k.kind, to_char(to_timestamp(g.ended_at / 1000.0) AT TIME ZONE 'UTC',
                 CASE k.kind WHEN 'day' THEN 'YYYY-MM-DD' ELSE 'IYYY-"W"IW' END), g.player_id, g.mode, g.size
           ORDER BY CASE WHEN g.mode = 'fifteen' THEN 0 ELSE -g.score END,
                    CASE WHEN g.mode = 'fifteen' THEN 0 ELSE -g.max_tile END,
                    g.move_count, g.ended_at, g.id) AS n
  FROM games g, (VALUES ('day'), ('week')) AS k (kind)
  WHERE g.ranked AND g.room = '' AND (g.mode <> 'fifteen' OR g.state = 'solved')) AS best
WHERE n = 1;
DROP TABLE best_results;
)sql",
    R"sql(
-- Achievements granted (server/achievements.hpp), each once per player; and each player's
-- current run of race wins against people.
CREATE TABLE achievements (
  player_id text COLLATE "C" NOT NULL,
  achievement text COLLATE "C" NOT NULL,
  game_id text NOT NULL,
  at bigint NOT NULL,
  PRIMARY KEY (player_id, achievement)
);
ALTER TABLE players ADD COLUMN streak integer NOT NULL DEFAULT 0;
)sql",
    R"sql(
-- Accounts. A session per signed-in device (a player's one token moves here); a password
-- for players who registered; names unique by their key (NFKC_Casefold, protocol/names.hpp:
-- the recorder fills it in at open, as SQL cannot), the names players had before, and
-- single-use link codes.
CREATE TABLE sessions (
  token_hash text COLLATE "C" PRIMARY KEY,
  player_id text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  last_seen bigint NOT NULL,
  label text NOT NULL DEFAULT ''
);
CREATE INDEX sessions_by_player ON sessions (player_id);
INSERT INTO sessions SELECT token_hash, id, created_at, created_at, '' FROM players;
ALTER TABLE players DROP COLUMN token_hash;
ALTER TABLE players ADD COLUMN name_key text COLLATE "C";
ALTER TABLE players ADD COLUMN password_hash text NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN registered_at bigint NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN renamed_at bigint NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX players_by_name_key ON players (name_key);
CREATE TABLE old_names (
  player_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  until bigint NOT NULL
);
CREATE INDEX old_names_by_player ON old_names (player_id);
CREATE TABLE link_codes (
  code text COLLATE "C" PRIMARY KEY,
  player_id text COLLATE "C" NOT NULL,
  expires_at bigint NOT NULL
);
)sql",
    R"sql(
-- Friends (server/store/friendship.hpp): one row per link that is not none; a friendship is
-- two rows.
CREATE TABLE friend_links (
  player text COLLATE "C" NOT NULL,
  other text COLLATE "C" NOT NULL,
  link text NOT NULL,
  at bigint NOT NULL,
  PRIMARY KEY (player, other)
);
CREATE INDEX friend_links_by_other ON friend_links (other);
)sql",
    R"sql(
-- The daily challenge: the server's secrets (the daily seeds' key), and each player's one
-- ranked attempt per day and mode, kept up to date while it is played.
CREATE TABLE server_secrets (
  name text COLLATE "C" PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE daily_attempts (
  day text COLLATE "C" NOT NULL,
  mode text COLLATE "C" NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  game_id text COLLATE "C" NOT NULL,
  score bigint NOT NULL DEFAULT 0,
  max_tile bigint NOT NULL DEFAULT 0,
  moves integer NOT NULL DEFAULT 0,
  at bigint NOT NULL,
  finished integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, mode, player_id)
);
CREATE INDEX daily_attempts_by_game ON daily_attempts (game_id);
ALTER TABLE games ADD COLUMN daily text NOT NULL DEFAULT '';
-- When each move was played (ms from the game's start, comma-separated); '' when unknown.
ALTER TABLE games ADD COLUMN times text NOT NULL DEFAULT '';
ALTER TABLE active_games ADD COLUMN daily text NOT NULL DEFAULT '';
)sql",
    R"sql(
-- Moderation (docs/operations.md, "Moderation"): the bans in force (players.banned mirrors
-- them for the boards' queries), the games taken off the boards, players' reports, and the
-- append-only audit log of every moderation action.
CREATE TABLE bans (
  player_id text COLLATE "C" PRIMARY KEY,
  reason text NOT NULL,
  until bigint NOT NULL,
  at bigint NOT NULL
);
ALTER TABLE players ADD COLUMN banned integer NOT NULL DEFAULT 0;
-- Where each session was last seen from (the console shows a player's addresses).
ALTER TABLE sessions ADD COLUMN address text NOT NULL DEFAULT '';
CREATE TABLE hidden_games (
  game_id text COLLATE "C" PRIMARY KEY,
  reason text NOT NULL,
  at bigint NOT NULL
);
CREATE TABLE reports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reporter text COLLATE "C" NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  reason text NOT NULL,
  note text NOT NULL,
  at bigint NOT NULL,
  day text COLLATE "C" NOT NULL,
  resolved_at bigint NOT NULL DEFAULT 0,
  resolution text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX reports_once_a_day ON reports (reporter, player_id, day);
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at bigint NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  reason text NOT NULL,
  detail text NOT NULL
);
-- Signals of computer-assisted play per ranked game (server/game/assist_signals.hpp), in
-- thousandths (match -1: not worked out).
CREATE TABLE game_signals (
  game_id text COLLATE "C" PRIMARY KEY,
  player_id text COLLATE "C" NOT NULL,
  moves_per_second bigint NOT NULL,
  spread bigint NOT NULL,
  match bigint NOT NULL,
  sampled integer NOT NULL,
  suspicion bigint NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX game_signals_by_suspicion ON game_signals (suspicion DESC, game_id);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
)sql",
    // A race game's race, for the outcome a profile lists (recent_races).
    R"sql(
CREATE INDEX IF NOT EXISTS races_by_room ON races (room, ended_at);
)sql",
    // Fencing (docs/operations.md, "Fencing"): a running race's owner holds an epoch that every
    // adoption increments, and a recorded race says who recorded it.
    R"sql(
ALTER TABLE active_races ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 1,
  ADD COLUMN IF NOT EXISTS url text NOT NULL DEFAULT '';
ALTER TABLE races ADD COLUMN IF NOT EXISTS node text NOT NULL DEFAULT '',
  ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS url text NOT NULL DEFAULT '';
ALTER TABLE active_games ADD COLUMN IF NOT EXISTS node text NOT NULL DEFAULT '',
  ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0;
)sql",
    // A running race's journal row says how far the race had got (Recorder::journal_races): a
    // write of an earlier snapshot of it does not replace a later one.
    R"sql(
ALTER TABLE active_races ADD COLUMN IF NOT EXISTS progress bigint NOT NULL DEFAULT 0;
)sql",
    // Tournaments (server/store/tournament_record.hpp): each as one document, with its node
    // and epoch as a race has them; and the tournament a journaled race is a match of.
    R"sql(
ALTER TABLE active_races ADD COLUMN IF NOT EXISTS tournament text NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS tournaments (
  code text COLLATE "C" PRIMARY KEY,
  node text NOT NULL,
  state text NOT NULL,
  document text NOT NULL,
  updated_at bigint NOT NULL,
  epoch bigint NOT NULL DEFAULT 1,
  url text NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS tournaments_open ON tournaments (node, updated_at)
  WHERE state IN ('waiting', 'running');
)sql",
    // The games still to analyse for assisted play, newest first, from an index of them alone
    // (the sweep had read every game recorded, every second); a player's daily days from an
    // index of their own (the profile had read every attempt).
    R"sql(
ALTER TABLE games ADD COLUMN IF NOT EXISTS to_analyse boolean NOT NULL DEFAULT false;
UPDATE games SET to_analyse = true WHERE ranked AND player_id NOT LIKE 'bot-%' AND
  NOT EXISTS (SELECT 1 FROM game_signals s WHERE s.game_id = games.id);
CREATE INDEX IF NOT EXISTS games_to_analyse ON games (ended_at) WHERE to_analyse;
CREATE INDEX IF NOT EXISTS daily_attempts_by_player ON daily_attempts (player_id, day);
)sql",
    // Each board's index holds the rows that board reads and no others: the score boards'
    // every mode but Fifteen, the fewest-moves board's Fifteen alone. A finished game then
    // updates one of them, not both.
    R"sql(
DROP INDEX IF EXISTS period_by_score;
DROP INDEX IF EXISTS period_by_moves;
CREATE INDEX period_by_score ON period_results (period, mode, size, score DESC, max_tile DESC, move_count, ended_at, player_id) WHERE mode <> 'fifteen';
CREATE INDEX period_by_moves ON period_results (period, mode, size, move_count, ended_at, player_id) WHERE mode = 'fifteen';
)sql",
    // One live connection per player, cluster-wide: each welcome takes the player's next
    // connection epoch, and an open connection under an earlier one has been taken over.
    R"sql(
CREATE TABLE IF NOT EXISTS connection_epochs (
  player_id TEXT PRIMARY KEY,
  epoch bigint NOT NULL
);
)sql",
    // Names compared by what they look like (protocol/names.hpp): a second key, and the
    // version of the rules the keys were made under (none yet: every name is keyed again at
    // open, the oldest holder of a key keeping their name).
    R"sql(
ALTER TABLE players ADD COLUMN look_key text COLLATE "C";
CREATE UNIQUE INDEX players_by_look_key ON players (look_key);
CREATE TABLE IF NOT EXISTS name_keys_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version TEXT NOT NULL
);
)sql",
    // No secret at rest: link and reset codes are kept as their SHA-256 (code_hash).
    R"sql(
UPDATE link_codes SET code = encode(sha256(convert_to(code, 'UTF8')), 'hex');
)sql",
    // Operators as people (server/play/operator_desk.hpp): accounts with a role, a password
    // and a TOTP secret; their sessions (kept as hashes); and who did what in the audit log.
    R"sql(
CREATE TABLE operators (
  id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  name_key text COLLATE "C" NOT NULL UNIQUE,
  role text NOT NULL,
  password_hash text NOT NULL,
  totp_secret text NOT NULL DEFAULT '',
  totp_pending text NOT NULL DEFAULT '',
  totp_step bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL
);
CREATE TABLE operator_sessions (
  token_hash text COLLATE "C" PRIMARY KEY,
  operator_id text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  address text NOT NULL
);
CREATE INDEX operator_sessions_by_operator ON operator_sessions (operator_id);
ALTER TABLE audit_log ADD COLUMN actor_role text NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN target_name text NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN address text NOT NULL DEFAULT '';
)sql",
    // Guest names come free (Store::release_guest_name): the name a guest lost, until told.
    R"sql(
ALTER TABLE players ADD COLUMN released_name text NOT NULL DEFAULT '';
)sql",
};

// The rank change a best result or a rating makes, announced to every node in the same
// transaction (delivered at commit): b|period|mode|size|score|max_tile|moves|player and
// r|rating|races|player.
#define TILERACE_NOTIFY_BEST                                                               \
  "SELECT up.period, pg_notify('tilerace_ranks', concat_ws('|', 'b', up.period, up.mode, " \
  "up.size, up.score, up.max_tile, up.move_count, up.player_id)) FROM up"
#define TILERACE_BEST_ROWS                                                                    \
  "WITH up AS (INSERT INTO period_results AS b VALUES ($1, $4, $5, $6::integer, $7::bigint, " \
  "$8::bigint, $9::integer, $10, $11::bigint), ($2, $4, $5, $6, $7, $8, $9, $10, $11), "      \
  "($3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (period, player_id, mode, size) DO "    \
  "UPDATE SET score = excluded.score, max_tile = excluded.max_tile, move_count = "            \
  "excluded.move_count, game_id = excluded.game_id, ended_at = excluded.ended_at WHERE "
#define TILERACE_TOP                                                                           \
  "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at FROM " \
  "period_results b JOIN players p ON p.id = b.player_id WHERE b.period = $1 AND b.mode = $2 " \
  "AND b.size = $3 AND p.banned = 0 "
// A daily attempt (a) of a player (p) that is on the boards: not banned, its game not hidden.
#define TILERACE_ON_BOARD \
  "AND p.banned = 0 AND a.game_id NOT IN (SELECT game_id FROM hidden_games) "
#define TILERACE_PLAYER_COLUMNS \
  "id, name, created_at, rating, wins, losses, registered_at, renamed_at"
#define TILERACE_RACE_COLUMNS                                                \
  "id, room, mode, size, target, seed, time_limit, max_players, is_public, " \
  "max_moves_per_second, host, started_at, remaining_ms, epoch, url, tournament"

// The text of each statement (server/store/sql.hpp says its parameters and columns).
const char* text(Sql statement) {
  switch (statement) {
    case Sql::insert_player:
      return "INSERT INTO players (id, name, name_key, rating, wins, losses, created_at, "
             "look_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING";
    case Sql::select_player: return "SELECT " TILERACE_PLAYER_COLUMNS " FROM players WHERE id = $1";
    case Sql::player_by_key: return "SELECT id, password_hash FROM players WHERE name_key = $1";
    case Sql::unkeyed_players:
      return "SELECT id, name FROM players WHERE name_key IS NULL ORDER BY created_at, id";
    case Sql::set_name:
      return "UPDATE players SET name = $2, name_key = $3, renamed_at = $4, look_key = $5 "
             "WHERE id = $1";
    case Sql::player_by_keys: return "SELECT id FROM players WHERE name_key = $1 OR look_key = $2";
    case Sql::lock_name_keys: return "SELECT pg_advisory_xact_lock(2048204820482049)";
    case Sql::name_keys_version: return "SELECT version FROM name_keys_version";
    case Sql::set_name_keys_version:
      return "INSERT INTO name_keys_version VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET "
             "version = excluded.version";
    case Sql::clear_name_keys: return "UPDATE players SET name_key = NULL, look_key = NULL";
    case Sql::set_password:
      return "UPDATE players SET password_hash = $2, registered_at = $3 WHERE id = $1";
    case Sql::insert_old_name:
      return "INSERT INTO old_names (player_id, name, until) VALUES ($1, $2, $3)";
    case Sql::insert_session:
      return "INSERT INTO sessions (token_hash, player_id, created_at, last_seen, label, "
             "address) VALUES ($1, $2, $3, $3, $4, $5)";
    case Sql::session_player:
      return "SELECT s.player_id, p.name, p.released_name FROM sessions s JOIN players p ON "
             "p.id = s.player_id WHERE s.token_hash = $1";
    case Sql::touch_session:
      return "UPDATE sessions SET last_seen = $2, address = $3 WHERE token_hash = $1";
    case Sql::sessions_of:
      return "SELECT token_hash, created_at, last_seen, label, address FROM sessions "
             "WHERE player_id = $1 ORDER BY created_at, token_hash";
    case Sql::delete_session: return "DELETE FROM sessions WHERE token_hash = $1";
    case Sql::delete_other_sessions:
      return "DELETE FROM sessions WHERE player_id = $1 AND token_hash <> $2 RETURNING token_hash";
    case Sql::take_connection:
      return "INSERT INTO connection_epochs VALUES ($1, 1) ON CONFLICT (player_id) DO UPDATE "
             "SET epoch = connection_epochs.epoch + 1 RETURNING epoch";
    case Sql::connection_states:
      return "SELECT p.id, COALESCE(c.epoch, 0), p.name FROM players p LEFT JOIN connection_epochs "
             "c "
             "ON c.player_id = p.id WHERE p.id IN "
             "(SELECT jsonb_array_elements_text($1::jsonb))";
    case Sql::live_sessions:
      return "SELECT token_hash FROM sessions WHERE token_hash IN "
             "(SELECT jsonb_array_elements_text($1::jsonb))";
    case Sql::insert_link_code:
      return "INSERT INTO link_codes (code, player_id, expires_at) VALUES ($1, $2, $3)";
    case Sql::take_link_code:
      return "DELETE FROM link_codes WHERE code = $1 RETURNING player_id, expires_at";
    case Sql::friend_links:
      return "SELECT player, link FROM friend_links WHERE (player = $1 AND other = $2) OR "
             "(player = $2 AND other = $1)";
    case Sql::delete_friend_links:
      return "DELETE FROM friend_links WHERE (player = $1 AND other = $2) OR "
             "(player = $2 AND other = $1)";
    case Sql::insert_friend_link: return "INSERT INTO friend_links VALUES ($1, $2, $3, $4)";
    case Sql::friend_counts:
      return "SELECT COUNT(*) FILTER (WHERE link = 'friend'), "
             "COUNT(*) FILTER (WHERE link = 'requested') FROM friend_links WHERE player = $1";
    case Sql::friend_list:
      return "SELECT p.id, p.name, p.rating, f.link, 0 FROM friend_links f "
             "JOIN players p ON p.id = f.other WHERE f.player = $1 UNION ALL "
             "SELECT p.id, p.name, p.rating, f.link, 1 FROM friend_links f "
             "JOIN players p ON p.id = f.player WHERE f.other = $1 AND f.link = 'requested' "
             "ORDER BY 2, 1";
    case Sql::insert_secret:
      return "INSERT INTO server_secrets VALUES ($1, $2) ON CONFLICT DO NOTHING";
    case Sql::select_secret: return "SELECT value FROM server_secrets WHERE name = $1";
    case Sql::insert_daily:
      return "INSERT INTO daily_attempts (day, mode, player_id, game_id, at) "
             "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
    case Sql::daily_progress:
      return "UPDATE daily_attempts SET score = $2, max_tile = $3, moves = $4, at = $5, "
             "finished = $6 WHERE game_id = $1 AND finished = 0";
    case Sql::daily_of_game: return "SELECT day, mode FROM daily_attempts WHERE game_id = $1";
    case Sql::finish_daily: return "UPDATE daily_attempts SET finished = 1 WHERE game_id = $1";
    case Sql::daily_days:
      return "SELECT DISTINCT day FROM daily_attempts WHERE player_id = $1 ORDER BY day";
    case Sql::daily_top:
      return "SELECT a.player_id, p.name, a.score, a.max_tile, a.moves, a.game_id, a.at "
             "FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = $1 AND a.mode = $2 " TILERACE_ON_BOARD
             "ORDER BY a.score DESC, a.moves, a.at, a.player_id LIMIT $3";
    case Sql::daily_entry:
      return "SELECT a.player_id, p.name, a.score, a.max_tile, a.moves, a.game_id, a.at "
             "FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = $1 AND a.mode = $2 AND a.player_id = $3 " TILERACE_ON_BOARD;
    case Sql::daily_better:
      return "SELECT COUNT(*) FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = $1 AND a.mode = $2 " TILERACE_ON_BOARD
             "AND (a.score > $3 OR (a.score = $3 AND (a.moves < $4 OR (a.moves = $4 AND a.at < "
             "$5))))";
    case Sql::daily_of_day:
      return "SELECT a.day, a.mode, a.player_id, p.name, a.game_id, a.score, a.max_tile, a.moves, "
             "a.at, a.finished FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day = $1 " TILERACE_ON_BOARD
             "ORDER BY a.mode, a.score DESC, a.moves, a.at, a.player_id";
    case Sql::open_dailies:
      return "SELECT a.day, a.mode, a.player_id, p.name, a.game_id, a.score, a.max_tile, a.moves, "
             "a.at, a.finished FROM daily_attempts a JOIN players p ON p.id = a.player_id "
             "WHERE a.day < $1 AND a.finished = 0 ORDER BY a.day, a.mode, a.player_id";
    case Sql::update_rating:
      return "WITH up AS (UPDATE players SET rating = $1, wins = wins + $2, "
             "losses = losses + $3, races = races + 1, "
             "streak = CASE WHEN $2 > 0 THEN streak + 1 ELSE 0 END WHERE id = $4 "
             "RETURNING id, rating, races, streak) SELECT up.races, up.streak, "
             "pg_notify('tilerace_ranks', concat_ws('|', 'r', up.rating, up.races, up.id)) "
             "FROM up";
    case Sql::rated_players:
      return "SELECT id, rating, races FROM players WHERE races > 0 AND banned = 0";
    case Sql::top_rating:
      return "SELECT id, name, rating, wins, losses FROM players WHERE races > 0 AND banned = 0 "
             "ORDER BY rating DESC, id LIMIT $1";
    case Sql::rating_of:
      return "SELECT id, name, rating, wins, losses FROM players "
             "WHERE races > 0 AND banned = 0 AND id = $1";
    case Sql::insert_game:
      return "INSERT INTO games (id, player_id, mode, size, target, seed, moves, score, "
             "max_tile, move_count, state, ranked, started_at, ended_at, room, daily, times, "
             "to_analyse) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, "
             "$15, $16, $17, $12 AND $2 NOT LIKE 'bot-%') ON CONFLICT (id) DO NOTHING";
    case Sql::select_game:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times FROM games "
             "WHERE id = $1";
    case Sql::count_games: return "SELECT COUNT(*) FROM games WHERE player_id = $1";
    case Sql::recent_races:
      return "SELECT g.id, g.mode, g.size, g.target, g.seed, g.score, g.max_tile, g.move_count, "
             "g.state, g.ended_at, g.room, " TILERACE_RACE_OUTCOME
             " FROM games g WHERE "
             "g.player_id = $1 AND g.room <> '' ORDER BY g.ended_at DESC, g.id LIMIT 10";
    case Sql::insert_race:
      return "INSERT INTO races (id, room, reason, winner, result, ended_at) "
             "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING";
    case Sql::set_race_recorder:
      return "UPDATE races SET node = $2, epoch = $3::bigint, url = $4 WHERE id = $1";
    case Sql::race_recorder: return "SELECT node, epoch, url FROM races WHERE id = $1";
    case Sql::insert_rating_point:
      return "INSERT INTO rating_history VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";
    case Sql::rating_history:
      return "SELECT at, rating FROM rating_history WHERE player_id = $1 ORDER BY at, race_id";
    case Sql::upsert_bot_record:
      return "INSERT INTO bot_records VALUES ($1, $2, $3, $4, $5) "
             "ON CONFLICT (player_id, strength) DO UPDATE SET "
             "wins = bot_records.wins + excluded.wins, "
             "losses = bot_records.losses + excluded.losses, "
             "draws = bot_records.draws + excluded.draws";
    case Sql::select_bot_records:
      return "SELECT strength, wins, losses, draws FROM bot_records WHERE player_id = $1";
    case Sql::insert_achievement:
      return "INSERT INTO achievements VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";
    case Sql::achievements_of:
      return "SELECT achievement, game_id, at FROM achievements WHERE player_id = $1 "
             "ORDER BY at, achievement";
    case Sql::upsert_best_2048:
      return TILERACE_BEST_ROWS
          "excluded.score > b.score OR (excluded.score = b.score AND "
          "(excluded.max_tile > b.max_tile OR (excluded.max_tile = b.max_tile AND "
          "excluded.move_count < b.move_count))) RETURNING b.*) " TILERACE_NOTIFY_BEST;
    case Sql::upsert_best_fifteen:
      return TILERACE_BEST_ROWS
          "excluded.move_count < b.move_count RETURNING b.*) " TILERACE_NOTIFY_BEST;
    case Sql::all_bests:
      return "SELECT b.mode, b.size, b.player_id, b.score, b.max_tile, b.move_count, b.period "
             "FROM period_results b JOIN players p ON p.id = b.player_id WHERE p.banned = 0";
    case Sql::bests_of:
      return "SELECT mode, size, score, max_tile, move_count, game_id, ended_at "
             "FROM period_results WHERE period = 'all-time' AND player_id = $1 "
             "ORDER BY mode, size";
    case Sql::top_2048:
      return TILERACE_TOP
          "AND b.mode <> 'fifteen' ORDER BY b.score DESC, b.max_tile DESC, b.move_count, "
          "b.ended_at, b.player_id "
          "LIMIT $4";
    case Sql::top_fifteen:
      return TILERACE_TOP
          "AND b.mode = 'fifteen' ORDER BY b.move_count, b.ended_at, b.player_id LIMIT $4";
    case Sql::best_of: return TILERACE_TOP "AND b.player_id = $4";
    case Sql::upsert_active:
      return "INSERT INTO active_games SELECT $1, $2, $3, $4::integer, $5::bigint, $6, "
             "$7::boolean, $8, $9::bigint, $10, $11, $12::bigint WHERE NOT EXISTS (SELECT 1 FROM "
             "games WHERE id = $2) "
             "ON CONFLICT (player_id) DO UPDATE SET game_id = excluded.game_id, "
             "mode = excluded.mode, size = excluded.size, target = excluded.target, "
             "seed = excluded.seed, explicit_seed = excluded.explicit_seed, "
             "moves = excluded.moves, started_at = excluded.started_at, daily = excluded.daily, "
             "node = excluded.node, epoch = excluded.epoch "
             "WHERE active_games.game_id <> excluded.game_id OR "
             "(active_games.node = excluded.node AND active_games.epoch = excluded.epoch)";
    case Sql::delete_active:
      return "DELETE FROM active_games WHERE player_id = $1 AND game_id = $2";
    case Sql::delete_pieces:
      return "DELETE FROM active_moves WHERE player_id = $1 AND NOT EXISTS "
             "(SELECT 1 FROM games WHERE id = $2) AND NOT EXISTS (SELECT 1 FROM active_games "
             "WHERE player_id = $1 AND game_id = $2 AND (node <> $3 OR epoch <> $4::bigint))";
    case Sql::insert_piece:
      return "INSERT INTO active_moves SELECT $1, $2::integer, $3 WHERE EXISTS (SELECT 1 FROM "
             "active_games WHERE player_id = $1 AND game_id = $4 AND node = $5 AND "
             "epoch = $6::bigint) "
             "ON CONFLICT (player_id, first) DO UPDATE SET moves = excluded.moves";
    case Sql::claim_active:
      return "UPDATE active_games SET node = $2, "
             "epoch = CASE WHEN node = $2 THEN epoch ELSE epoch + 1 END "
             "WHERE player_id = $1 RETURNING epoch";
    case Sql::active_owner:
      return "SELECT node, epoch FROM active_games WHERE player_id = $1 AND game_id = $2";
    case Sql::select_active:
      // A journal write may commit just after the game's record (two store threads), so an
      // entry whose game is recorded is never read back.
      return "SELECT player_id, game_id, mode, size, target, seed, explicit_seed, moves, "
             "started_at, daily, epoch FROM active_games a WHERE player_id = $1 AND NOT EXISTS "
             "(SELECT 1 FROM games g WHERE g.id = a.game_id)";
    case Sql::select_pieces:
      return "SELECT first, moves FROM active_moves WHERE player_id = $1 ORDER BY first";
    case Sql::upsert_race:
      return "INSERT INTO active_races SELECT $1, $2, $3, $4, $5::integer, $6::bigint, $7, "
             "$8::integer, $9::integer, $10::boolean, $11::integer, $12, $13::bigint, "
             "$14::bigint, $15::bigint, $16, $17::bigint, $18 WHERE NOT EXISTS (SELECT 1 FROM "
             "races "
             "WHERE id = $1) ON CONFLICT (id) DO UPDATE SET node = excluded.node, host = "
             "excluded.host, remaining_ms = excluded.remaining_ms, progress = excluded.progress "
             "WHERE active_races.progress <= excluded.progress RETURNING 1";
    case Sql::lock_race:
      // Without it, a race's first journal write and its recording could both miss the
      // other's uncommitted row, leaving the recorded race in the journal to be adopted.
      return "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))";
    case Sql::race_owner:
      return "SELECT node, epoch, url FROM active_races WHERE id = $1 FOR UPDATE";
    case Sql::delete_race:
      return "DELETE FROM active_races WHERE id = $1";  // with its racers (ON DELETE CASCADE)
    case Sql::drop_recorded_race:
      return "DELETE FROM active_races WHERE id = $1 AND EXISTS (SELECT 1 FROM races WHERE id = "
             "$1)";
    case Sql::delete_racers: return "DELETE FROM active_racers WHERE race_id = $1";
    case Sql::insert_racer:
      return "INSERT INTO active_racers SELECT $1, $2::integer, $3, $4, $5, $6, $7::boolean "
             "WHERE EXISTS (SELECT 1 FROM active_races WHERE id = $1)";
    case Sql::select_races:
      return "SELECT " TILERACE_RACE_COLUMNS " FROM active_races WHERE node = $1";
    case Sql::adoptable_races: return "SELECT id FROM active_races WHERE node = $1 ORDER BY id";
    case Sql::adopt_races:
      // A node taking back its own races (after a restart) keeps their epoch: its name is
      // the same, and no other copy runs under it. Only the races whose locks the adoption
      // holds: one journaled meanwhile waits for the next pass.
      return "UPDATE active_races SET node = $2, url = $3, "
             "epoch = CASE WHEN node = $2 THEN epoch ELSE epoch + 1 END WHERE node = $1 "
             "AND id IN (SELECT jsonb_array_elements_text($4::jsonb)) "
             "RETURNING " TILERACE_RACE_COLUMNS;
    case Sql::select_racers:
      return "SELECT player_id, game_id, moves, state, left_race FROM active_racers "
             "WHERE race_id = $1 ORDER BY position";
    case Sql::race_room_of:
      return "SELECT r.room FROM active_racers a JOIN active_races r ON r.id = a.race_id "
             "WHERE a.player_id = $1 AND NOT a.left_race ORDER BY r.started_at DESC LIMIT 1";
    case Sql::upsert_tournament:
      // A code is reused once its tournament is over; an open one is written only by its
      // owner under its epoch.
      return "INSERT INTO tournaments VALUES ($1, $2, $3, $4, $5::bigint, $6::bigint, $7) "
             "ON CONFLICT (code) DO UPDATE SET node = excluded.node, state = excluded.state, "
             "document = excluded.document, updated_at = excluded.updated_at, "
             "epoch = excluded.epoch, url = excluded.url WHERE tournaments.state NOT IN "
             "('waiting', 'running') OR (tournaments.node = excluded.node AND "
             "tournaments.epoch <= excluded.epoch) RETURNING 1";
    case Sql::adopt_tournaments:
      return "UPDATE tournaments SET node = $2, url = $3, "
             "epoch = CASE WHEN node = $2 THEN epoch ELSE epoch + 1 END "
             "WHERE node = $1 AND state IN ('waiting', 'running') "
             "RETURNING code, state, document, updated_at, epoch, url";
    case Sql::open_tournaments:
      return "SELECT code, state, document, updated_at, epoch, url FROM tournaments "
             "WHERE node = $1 AND state IN ('waiting', 'running') ORDER BY updated_at, code";
    case Sql::tournament_of:
      return "SELECT code FROM tournaments WHERE state IN ('waiting', 'running') AND "
             "document::jsonb -> 'members' @> jsonb_build_array(jsonb_build_object('id', "
             "$1::text, 'left', false)) ORDER BY updated_at DESC LIMIT 1";
    case Sql::race_in_room:
      return "SELECT winner, reason, result FROM races WHERE room = $1 AND ended_at >= $2::bigint "
             "ORDER BY ended_at LIMIT 1";
    case Sql::upsert_ban:
      return "INSERT INTO bans VALUES ($1, $2, $3, $4) ON CONFLICT (player_id) DO UPDATE SET "
             "reason = excluded.reason, until = excluded.until, at = excluded.at";
    case Sql::delete_ban: return "DELETE FROM bans WHERE player_id = $1 RETURNING player_id";
    case Sql::set_banned: return "UPDATE players SET banned = $2 WHERE id = $1";
    case Sql::select_ban: return "SELECT reason, until, at FROM bans WHERE player_id = $1";
    case Sql::expired_bans:
      return "SELECT player_id FROM bans WHERE until > 0 AND until <= $1 ORDER BY player_id";
    case Sql::hide_game:
      return "INSERT INTO hidden_games VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    case Sql::unhide_game: return "DELETE FROM hidden_games WHERE game_id = $1";
    case Sql::board_games:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times FROM games "
             "WHERE player_id = $1 AND ranked AND room = '' AND daily = '' "
             "AND id NOT IN (SELECT game_id FROM hidden_games) ORDER BY ended_at, id";
    case Sql::delete_bests: return "DELETE FROM period_results WHERE player_id = $1";
    case Sql::insert_report:
      return "INSERT INTO reports (reporter, player_id, reason, note, at, day) "
             "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";
    case Sql::select_reports:
      return "SELECT r.id, r.reporter, a.name, r.player_id, b.name, r.reason, r.note, r.at, "
             "r.resolved_at, r.resolution FROM reports r JOIN players a ON a.id = r.reporter "
             "JOIN players b ON b.id = r.player_id WHERE $1::integer = 0 OR r.resolved_at = 0 "
             "ORDER BY r.id DESC LIMIT $2";
    case Sql::resolve_report:
      return "UPDATE reports SET resolved_at = $2, resolution = $3 "
             "WHERE id = $1 AND resolved_at = 0";
    case Sql::insert_audit:
      return "INSERT INTO audit_log (at, actor, action, target, reason, detail, actor_role, "
             "target_name, address) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
    case Sql::select_audit:
      return "SELECT id, at, actor, action, target, reason, detail, actor_role, target_name, "
             "address FROM audit_log WHERE id < $1 ORDER BY id DESC LIMIT $2";
    case Sql::search_players:
      return "SELECT " TILERACE_PLAYER_COLUMNS
             " FROM players WHERE id = $1 "
             "OR strpos(name_key, $2) > 0 OR id IN (SELECT player_id FROM old_names "
             "WHERE strpos(lower(name), $2) > 0) ORDER BY name_key LIMIT $3";
    case Sql::old_names_of:
      return "SELECT name, until FROM old_names WHERE player_id = $1 ORDER BY until";
    case Sql::ranks_changed: return "SELECT pg_notify('tilerace_ranks', 'reload')";
    case Sql::banned_players: return "SELECT player_id FROM bans";
    case Sql::unanalysed_games:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times FROM games "
             "WHERE to_analyse ORDER BY ended_at DESC LIMIT $1";
    case Sql::upsert_signals:
      return "INSERT INTO game_signals VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT "
             "(game_id) DO NOTHING";
    case Sql::analysed: return "UPDATE games SET to_analyse = false WHERE id = $1";
    case Sql::insert_operator:
      return "INSERT INTO operators (id, name, name_key, role, password_hash, created_at) "
             "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";
    case Sql::operator_by_key:
      return "SELECT id, name, role, password_hash, totp_secret, totp_pending, totp_step, "
             "created_at FROM operators WHERE name_key = $1";
    case Sql::select_operators:
      return "SELECT o.id, o.name, o.role, CASE WHEN o.totp_secret <> '' THEN 1 ELSE 0 END, "
             "o.created_at, (SELECT COUNT(*) FROM operator_sessions s WHERE s.operator_id = o.id "
             "AND s.expires_at > $1), (SELECT COALESCE(MAX(s.created_at), 0) FROM "
             "operator_sessions s WHERE s.operator_id = o.id) FROM operators o ORDER BY o.name_key";
    case Sql::set_totp_pending: return "UPDATE operators SET totp_pending = $2 WHERE id = $1";
    case Sql::confirm_totp:
      return "UPDATE operators SET totp_secret = totp_pending, totp_pending = '', totp_step = $2 "
             "WHERE id = $1 AND totp_pending <> '' AND totp_step < $2";
    case Sql::use_totp_step:
      return "UPDATE operators SET totp_step = $2 WHERE id = $1 AND totp_step < $2";
    case Sql::insert_operator_session:
      return "INSERT INTO operator_sessions (token_hash, operator_id, created_at, expires_at, "
             "address) VALUES ($1, $2, $3, $4, $5)";
    case Sql::operator_of_session:
      return "SELECT o.id, o.name, o.role, o.password_hash, o.totp_secret, o.totp_pending, "
             "o.totp_step, o.created_at FROM operator_sessions s JOIN operators o ON o.id = "
             "s.operator_id WHERE s.token_hash = $1 AND s.expires_at > $2";
    case Sql::delete_operator_session: return "DELETE FROM operator_sessions WHERE token_hash = $1";
    case Sql::delete_operator_sessions:
      return "DELETE FROM operator_sessions WHERE operator_id = $1";
    case Sql::delete_operator: return "DELETE FROM operators WHERE id = $1";
    case Sql::guest_name_holders:  // locked: a node releasing it at once waits, then sees it gone
      return "SELECT p.id, p.name, p.registered_at, GREATEST(p.created_at, COALESCE((SELECT "
             "MAX(last_seen) FROM sessions WHERE player_id = p.id), 0), COALESCE((SELECT "
             "MAX(ended_at) FROM games WHERE player_id = p.id), 0)) FROM players p "
             "WHERE p.name_key = $1 OR p.look_key = $2 FOR UPDATE OF p";
    case Sql::release_name:
      return "UPDATE players SET name = $2, name_key = $3, look_key = $4, released_name = $5 "
             "WHERE id = $1";
    case Sql::clear_released_name: return "UPDATE players SET released_name = '' WHERE id = $1";
    case Sql::top_signals:
      return "SELECT s.game_id, s.player_id, p.name, g.mode, g.size, g.score, s.moves_per_second, "
             "s.spread, s.match, s.sampled, s.suspicion FROM game_signals s "
             "JOIN players p ON p.id = s.player_id JOIN games g ON g.id = s.game_id "
             "ORDER BY s.suspicion DESC, s.game_id LIMIT $1";
    case Sql::recent_games:
      return "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, "
             "move_count, state, ranked, started_at, ended_at, room, daily, times, "
             "(id IN (SELECT game_id FROM hidden_games))::integer FROM games WHERE player_id = $1 "
             "ORDER BY ended_at DESC, id LIMIT $2";
  }
  return nullptr;
}
#undef TILERACE_ON_BOARD
#undef TILERACE_PLAYER_COLUMNS
#undef TILERACE_NOTIFY_BEST
#undef TILERACE_BEST_ROWS
#undef TILERACE_TOP
#undef TILERACE_RACE_COLUMNS

// The name a statement is prepared under on every connection.
std::string name_of(Sql statement) {
  return std::string("s").append(std::to_string(static_cast<int>(statement)));
}

engine::Mode mode_of(std::string_view name) {
  return engine::mode_from_string(name).value_or(engine::Mode::classic);
}

std::int64_t to_int(std::string_view s) {
  std::int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

}  // namespace

class PgDialect::Session final : public SqlSession {
 public:
  explicit Session(PgConnection& conn) : conn_(conn) {}

  SqlResult run(Sql statement, std::span<const SqlValue> params) override {
    std::vector<PgParam> texts;
    texts.reserve(params.size());
    for (const SqlValue& p : params) {
      if (const auto* n = std::get_if<std::int64_t>(&p)) {
        texts.emplace_back(std::to_string(*n));
      } else {
        texts.emplace_back(std::string(std::get<std::string_view>(p)));
      }
    }
    const PgResult r = conn_.run(name_of(statement), texts);
    const int columns = r.columns();
    std::vector<SqlResult::Cell> cells;
    cells.reserve(static_cast<std::size_t>(r.rows() * columns));
    for (int i = 0; i < r.rows(); ++i) {
      for (int c = 0; c < columns; ++c) cells.emplace_back(r.string(i, c));
    }
    return {static_cast<std::size_t>(columns), std::move(cells), r.changed()};
  }

 private:
  PgConnection& conn_;
};

std::string redact_database_url(std::string_view url) {
  static const std::regex password(R"(^([a-z]+://[^:/@]*:)[^@]*@)");
  return std::regex_replace(std::string(url), password, "$1***@");
}

PgDialect::PgDialect(std::string url, std::string node)
    : url_(std::move(url)), node_(std::move(node)) {
  try {
    idle_.push_back(connect());  // migrates before anything is prepared against the schema
    open_ = 1;
  } catch (const std::exception& e) {
    throw std::runtime_error(redact_database_url(url_) + ": " + e.what());
  }
}

PgDialect::~PgDialect() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_changed_.notify_all();
  if (listener_.joinable()) listener_.join();
}

std::unique_ptr<PgConnection> PgDialect::connect() {
  auto conn = std::make_unique<PgConnection>(url_);
  conn->exec("SET synchronous_commit = on");
  // A node cut off in the middle of a transaction would hold its row locks, and stall every
  // other node's writes to those rows, until PostgreSQL noticed the connection was gone (hours,
  // by TCP keepalive): our transactions never wait between their statements, so one that sits
  // idle is cut off, and PostgreSQL ends it.
  conn->exec(("SET idle_in_transaction_session_timeout = '" +
              std::to_string(kIdleInTransactionLimit.count()) + "s'")
                 .c_str());
  migrate(*conn);
  for (std::size_t i = 0; i < kSqlCount; ++i) {
    conn->prepare(name_of(static_cast<Sql>(i)), text(static_cast<Sql>(i)));
  }
  return conn;
}

void PgDialect::migrate(PgConnection& conn) {
  PgTransaction tx(conn);
  conn.exec(kMigrationLock);
  conn.exec("CREATE TABLE IF NOT EXISTS tilerace_schema (version integer NOT NULL)");
  const PgResult current = conn.exec("SELECT version FROM tilerace_schema");
  const int version = current.rows() > 0 ? current.integer(0, 0) : 0;
  constexpr int kKnown = static_cast<int>(std::size(kMigrations));
  static_assert(kKnown == kSchemaVersion);
  if (version > kKnown) {
    throw std::runtime_error("the database is from a newer tilerace (schema " +
                             std::to_string(version) + ")");
  }
  if (version == kKnown) return;  // the transaction rolls back: nothing to do
  for (int v = version; v < kKnown; ++v) conn.exec(kMigrations[v]);
  conn.exec("DELETE FROM tilerace_schema");
  conn.exec(("INSERT INTO tilerace_schema VALUES (" + std::to_string(kKnown) + ")").c_str());
  tx.commit();
}

void PgDialect::session(SqlTx tx, const std::function<void(SqlSession&)>& work) {
  Lease conn(*this);
  Session session(*conn);
  if (tx == SqlTx::none) return work(session);
  PgTransaction transaction(
      *conn, tx == SqlTx::snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
  work(session);
  transaction.commit();
}

std::unique_ptr<PgConnection> PgDialect::listening() {
  auto conn = connect();
  // Listen before reading the ranks: a change committed in between is then not missed.
  conn->exec("LISTEN tilerace_ranks");
  refill(*conn);
  return conn;
}

void PgDialect::refill(PgConnection& conn) {
  RankCache fresh;
  PgTransaction tx(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  // Filling the cache from a large board (a million players) sits between and after its reads
  // for longer than kIdleInTransactionLimit; this transaction only reads, holds no row lock,
  // and may.
  conn.exec("SET LOCAL idle_in_transaction_session_timeout = 0");
  Session session(conn);
  fill_(session, fresh);
  tx.commit();
  ranks_->swap(fresh);
}

void PgDialect::keep_ranks(RankCache& ranks, FillRanks fill) {
  ranks_ = &ranks;
  fill_ = std::move(fill);
  try {
    listener_ = std::thread([this, conn = listening()]() mutable { listen(std::move(conn)); });
  } catch (const std::exception& e) {
    throw std::runtime_error(redact_database_url(url_) + ": " + e.what());
  }
}

void PgDialect::apply_notification(PgConnection& conn, std::string_view payload) {
  // Moderation took entries off the boards (or put them back): a put cannot say that.
  if (payload == "reload") return refill(conn);
  const auto f = split(payload, '|');
  if (f.size() == 8 && f[0] == "b") {
    const auto period = protocol::period_from_string(f[1]);
    if (!period) return;
    const engine::Mode mode = mode_of(f[2]);
    ranks_->put_best({mode, static_cast<int>(to_int(f[3])), false, *period}, f[7],
                     best_key(mode, to_int(f[4]), to_int(f[5]), to_int(f[6])));
  } else if (f.size() == 4 && f[0] == "r") {
    ranks_->put(kRatingBoard, f[3], rating_key(to_int(f[1])), to_int(f[2]));
  }
}

void PgDialect::listen(std::unique_ptr<PgConnection> conn) {
  auto backoff = std::chrono::milliseconds(100);
  for (;;) {
    try {
      if (!conn) {
        conn = listening();  // and what was announced while we were away
        spdlog::info("database: listening for rank changes again");
        backoff = std::chrono::milliseconds(100);
      }
      for (;;) {
        {
          std::lock_guard lock(stop_mutex_);
          if (stopping_) return;
        }
        pollfd p{conn->socket(), POLLIN, 0};
        ::poll(&p, 1, 200);
        if (!conn->consume_input()) throw StoreUnavailable("the listening connection was lost");
        while (const auto n = conn->next_notification()) {
          if (n->channel == kChannel) apply_notification(*conn, n->payload);
        }
      }
    } catch (const std::exception& e) {
      spdlog::warn("database: rank changes: {}", e.what());
      conn.reset();
    }
    std::unique_lock lock(stop_mutex_);
    if (stop_changed_.wait_for(lock, backoff, [this] { return stopping_; })) return;
    backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
  }
}

PgDialect::Lease::Lease(PgDialect& dialect) : dialect_(dialect) {
  {
    std::unique_lock lock(dialect_.pool_mutex_);
    dialect_.pool_changed_.wait(
        lock, [this] { return !dialect_.idle_.empty() || dialect_.open_ < kPoolSize; });
    if (!dialect_.idle_.empty()) {
      conn_ = std::move(dialect_.idle_.back());
      dialect_.idle_.pop_back();
      return;
    }
    ++dialect_.open_;
  }
  try {
    conn_ = dialect_.connect();
  } catch (...) {
    std::lock_guard lock(dialect_.pool_mutex_);
    --dialect_.open_;
    dialect_.pool_changed_.notify_one();
    throw;
  }
}

PgDialect::Lease::~Lease() {
  std::lock_guard lock(dialect_.pool_mutex_);
  if (conn_->healthy()) {
    dialect_.idle_.push_back(std::move(conn_));
  } else {
    --dialect_.open_;  // dropped: the next unit connects afresh
  }
  dialect_.pool_changed_.notify_one();
}

void PgDialect::ping() {
  Lease conn(*this);
  conn->exec("SELECT 1");
}

}  // namespace tilerace::server
