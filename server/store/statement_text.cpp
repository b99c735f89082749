// The statement table: every statement's text, written once. See statement_text.hpp.
#include "server/store/statement_text.hpp"

#include <cctype>

namespace tilerace::server {
namespace {

// How the race of a race game g ended for its player (won, lost, draw; '' when that race is
// not recorded): its race is the first recorded in its room as the game ended (rematches share
// a room; an operator's close is no result).
#define TILERACE_RACE_OUTCOME                                                              \
  "COALESCE((SELECT CASE WHEN r.winner = '' THEN 'draw' WHEN r.winner = g.player_id THEN " \
  "'won' ELSE 'lost' END FROM races r WHERE r.room = g.room AND r.ended_at >= g.ended_at " \
  "AND r.reason <> 'closed' ORDER BY r.ended_at LIMIT 1), '')"
// The rank change a best result or a rating makes, announced to every node in the same
// transaction (delivered at commit): b|period|mode|size|score|max_tile|moves|player and
// r|rating|races|player.
#define TILERACE_NOTIFY_BEST                                                               \
  "SELECT up.period, pg_notify('tilerace_ranks', concat_ws('|', 'b', up.period, up.mode, " \
  "up.size, up.score, up.max_tile, up.move_count, up.player_id)) FROM up"
#define TILERACE_BEST_ROWS                                                                    \
  "WITH up AS (INSERT INTO period_results AS b VALUES (?1, ?4, ?5, ?6::integer, ?7::bigint, " \
  "?8::bigint, ?9::integer, ?10, ?11::bigint), (?2, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), "      \
  "(?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (period, player_id, mode, size) DO "    \
  "UPDATE SET score = excluded.score, max_tile = excluded.max_tile, move_count = "            \
  "excluded.move_count, game_id = excluded.game_id, ended_at = excluded.ended_at WHERE "
#define TILERACE_TOP                                                                           \
  "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at FROM " \
  "period_results b JOIN players p ON p.id = b.player_id WHERE b.period = ?1 AND b.mode = ?2 " \
  "AND b.size = ?3 AND p.banned = 0 "
// A daily attempt (a) of a player (p) that is on the boards: not banned, its game not hidden.
#define TILERACE_ON_BOARD \
  "AND p.banned = 0 AND a.game_id NOT IN (SELECT game_id FROM hidden_games) "
#define TILERACE_PLAYER_COLUMNS "id, name, created_at, wins, losses, registered_at, renamed_at, bot"
// A rating board's row (r: ratings, p: players), banned players left out; bots are on their
// own board (?5: 1 for the bots', 0 for the people's).
#define TILERACE_RATING_COLUMNS                                                                    \
  "p.id, p.name, r.rating, r.rd, r.volatility, r.at, r.wins, r.losses, p.bot FROM ratings r JOIN " \
  "players p ON p.id = r.player_id AND p.banned = 0"
// A player's (p) rating in the default variant (classic-4), whole points.
#define TILERACE_DEFAULT_RATING                                                                \
  "COALESCE((SELECT CAST(ROUND(r.rating) AS INTEGER) FROM ratings r WHERE r.player_id = p.id " \
  "AND r.variant = 'classic-4'), 1500)"
#define TILERACE_RACE_COLUMNS                                                \
  "id, room, mode, size, target, seed, time_limit, max_players, is_public, " \
  "max_moves_per_second, host, started_at, remaining_ms, epoch, url, tournament"

#define TILERACE_GAME_COLUMNS                                                                    \
  "id, player_id, mode, size, target, seed, moves, score, max_tile, move_count, state, ranked, " \
  "started_at, ended_at, room, daily, times"

// A statement's text in each language: one text for both, or SQLite's and PostgreSQL's;
// nullptr where a language has no such statement.
struct Texts {
  Texts(const char* both) : sqlite(both), postgres(both) {}  // NOLINT: one text, implicitly
  Texts(const char* sqlite_text, const char* postgres_text)
      : sqlite(sqlite_text), postgres(postgres_text) {}
  const char* sqlite;
  const char* postgres;
};

Texts texts(Sql statement) {
  switch (statement) {
    case Sql::insert_player:
      return "INSERT INTO players (id, name, name_key, wins, losses, created_at, look_key, bot) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING";
    case Sql::select_player: return "SELECT " TILERACE_PLAYER_COLUMNS " FROM players WHERE id = ?1";
    case Sql::player_by_key:
      return "SELECT id, password_hash, bot FROM players WHERE name_key = ?1";
    case Sql::unkeyed_players:
      return "SELECT id, name FROM players WHERE name_key IS NULL ORDER BY created_at, id";
    case Sql::set_name:
      return "UPDATE players SET name = ?2, name_key = ?3, renamed_at = ?4, look_key = ?5 WHERE id "
             "= ?1";
    case Sql::player_by_keys: return "SELECT id FROM players WHERE name_key = ?1 OR look_key = ?2";
    case Sql::lock_name_keys: return {"SELECT 1", "SELECT pg_advisory_xact_lock(2048204820482049)"};
    case Sql::name_keys_version: return "SELECT version FROM name_keys_version";
    case Sql::set_name_keys_version:
      return "INSERT INTO name_keys_version VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET version "
             "= excluded.version";
    case Sql::clear_name_keys: return "UPDATE players SET name_key = NULL, look_key = NULL";
    case Sql::set_password:
      return "UPDATE players SET password_hash = ?2, registered_at = ?3 WHERE id = ?1";
    case Sql::insert_old_name:
      return "INSERT INTO old_names (player_id, name, until) VALUES (?1, ?2, ?3)";
    case Sql::insert_session:
      return "INSERT INTO sessions (token_hash, player_id, created_at, last_seen, label, address) "
             "VALUES (?1, ?2, ?3, ?3, ?4, ?5)";
    case Sql::session_player:
      return "SELECT s.player_id, p.name, p.released_name FROM sessions s JOIN players p ON p.id = "
             "s.player_id WHERE s.token_hash = ?1";
    case Sql::touch_session:
      return "UPDATE sessions SET last_seen = ?2, address = ?3 WHERE token_hash = ?1";
    case Sql::sessions_of:
      return "SELECT token_hash, created_at, last_seen, label, address FROM sessions WHERE "
             "player_id = ?1 ORDER BY created_at, token_hash";
    case Sql::delete_session: return "DELETE FROM sessions WHERE token_hash = ?1";
    case Sql::delete_other_sessions:
      return "DELETE FROM sessions WHERE player_id = ?1 AND token_hash <> ?2 RETURNING token_hash";
    case Sql::take_connection:
      return "INSERT INTO connection_epochs VALUES (?1, 1) ON CONFLICT (player_id) DO UPDATE SET "
             "epoch = connection_epochs.epoch + 1 RETURNING epoch";
    case Sql::connection_states:
      return {
          "SELECT p.id, COALESCE(c.epoch, 0), p.name FROM players p LEFT JOIN connection_epochs c "
          "ON c.player_id = p.id WHERE p.id IN (SELECT value FROM json_each(?1))",
          "SELECT p.id, COALESCE(c.epoch, 0), p.name FROM players p LEFT JOIN connection_epochs c "
          "ON c.player_id = p.id WHERE p.id IN (SELECT jsonb_array_elements_text(?1::jsonb))"};
    case Sql::live_sessions:
      return {
          "SELECT token_hash FROM sessions WHERE token_hash IN (SELECT value FROM json_each(?1)) "
          "UNION ALL SELECT token_hash FROM bot_tokens WHERE token_hash IN (SELECT value FROM "
          "json_each(?1))",
          "SELECT token_hash FROM sessions WHERE token_hash IN (SELECT "
          "jsonb_array_elements_text(?1::jsonb)) UNION ALL SELECT token_hash FROM bot_tokens "
          "WHERE token_hash IN (SELECT jsonb_array_elements_text(?1::jsonb))"};
    case Sql::insert_link_code:
      return "INSERT INTO link_codes (code, player_id, expires_at) VALUES (?1, ?2, ?3)";
    case Sql::take_link_code:
      return "DELETE FROM link_codes WHERE code = ?1 RETURNING player_id, expires_at";
    case Sql::set_bot: return "UPDATE players SET bot = 1 WHERE id = ?1";
    case Sql::insert_bot_token:
      return "INSERT INTO bot_tokens (id, player_id, token_hash, created_at) VALUES (?1, ?2, ?3, "
             "?4)";
    case Sql::bot_tokens_of:
      return "SELECT id, created_at, last_used FROM bot_tokens WHERE player_id = ?1 ORDER BY "
             "created_at, id";
    case Sql::delete_bot_token:
      return "DELETE FROM bot_tokens WHERE player_id = ?1 AND id = ?2 RETURNING id";
    case Sql::bot_token_player:
      return "SELECT t.player_id, p.name FROM bot_tokens t JOIN players p ON p.id = t.player_id "
             "WHERE t.token_hash = ?1 AND p.bot = 1";
    case Sql::touch_bot_token: return "UPDATE bot_tokens SET last_used = ?2 WHERE token_hash = ?1";
    case Sql::rated_races_since:
      return "SELECT COUNT(*) FROM rating_history WHERE player_id = ?1 AND at >= ?2";
    case Sql::friend_links:
      return "SELECT player, link FROM friend_links WHERE (player = ?1 AND other = ?2) OR (player "
             "= ?2 AND other = ?1)";
    case Sql::delete_friend_links:
      return "DELETE FROM friend_links WHERE (player = ?1 AND other = ?2) OR (player = ?2 AND "
             "other = ?1)";
    case Sql::insert_friend_link: return "INSERT INTO friend_links VALUES (?1, ?2, ?3, ?4)";
    case Sql::friend_counts:
      return "SELECT COUNT(*) FILTER (WHERE link = 'friend'), COUNT(*) FILTER (WHERE link = "
             "'requested') FROM friend_links WHERE player = ?1";
    case Sql::friend_list:
      return "SELECT p.id, p.name, " TILERACE_DEFAULT_RATING
             ", f.link, 0 FROM friend_links f JOIN "
             "players p ON p.id = f.other WHERE f.player = ?1 UNION ALL SELECT p.id, "
             "p.name, " TILERACE_DEFAULT_RATING
             ", f.link, 1 "
             "FROM friend_links f JOIN players p ON p.id = f.player WHERE f.other = ?1 AND f.link "
             "= 'requested' ORDER BY 2, 1";
    case Sql::insert_secret:
      return "INSERT INTO server_secrets VALUES (?1, ?2) ON CONFLICT DO NOTHING";
    case Sql::select_secret: return "SELECT value FROM server_secrets WHERE name = ?1";
    case Sql::insert_daily:
      return "INSERT INTO daily_attempts (day, mode, player_id, game_id, at) VALUES (?1, ?2, ?3, "
             "?4, ?5) ON CONFLICT DO NOTHING";
    case Sql::daily_progress:
      return "UPDATE daily_attempts SET score = ?2, max_tile = ?3, moves = ?4, at = ?5, finished = "
             "?6 WHERE game_id = ?1 AND finished = 0";
    case Sql::daily_of_game: return "SELECT day, mode FROM daily_attempts WHERE game_id = ?1";
    case Sql::finish_daily: return "UPDATE daily_attempts SET finished = 1 WHERE game_id = ?1";
    case Sql::daily_days:
      return "SELECT DISTINCT day FROM daily_attempts WHERE player_id = ?1 ORDER BY day";
    case Sql::daily_top:
      return "SELECT a.player_id, p.name, a.score, a.max_tile, a.moves, a.game_id, a.at FROM "
             "daily_attempts a JOIN players p ON p.id = a.player_id WHERE a.day = ?1 AND a.mode = "
             "?2 " TILERACE_ON_BOARD "ORDER BY a.score DESC, a.moves, a.at, a.player_id LIMIT ?3";
    case Sql::daily_entry:
      return "SELECT a.player_id, p.name, a.score, a.max_tile, a.moves, a.game_id, a.at FROM "
             "daily_attempts a JOIN players p ON p.id = a.player_id WHERE a.day = ?1 AND a.mode = "
             "?2 AND a.player_id = ?3 " TILERACE_ON_BOARD;
    case Sql::daily_better:
      return "SELECT COUNT(*) FROM daily_attempts a JOIN players p ON p.id = a.player_id WHERE "
             "a.day = ?1 AND a.mode = ?2 " TILERACE_ON_BOARD
             "AND (a.score > ?3 OR (a.score = ?3 AND (a.moves < ?4 OR (a.moves = ?4 AND a.at < "
             "?5))))";
    case Sql::daily_of_day:
      return "SELECT a.day, a.mode, a.player_id, p.name, a.game_id, a.score, a.max_tile, a.moves, "
             "a.at, a.finished FROM daily_attempts a JOIN players p ON p.id = a.player_id WHERE "
             "a.day = ?1 " TILERACE_ON_BOARD
             // listed once its replay exists (an abandoned attempt: once the sweep recorded it)
             "AND EXISTS (SELECT 1 FROM games g WHERE g.id = a.game_id) "
             "ORDER BY a.mode, a.score DESC, a.moves, a.at, a.player_id";
    case Sql::open_dailies:
      return "SELECT a.day, a.mode, a.player_id, p.name, a.game_id, a.score, a.max_tile, a.moves, "
             "a.at, a.finished FROM daily_attempts a JOIN players p ON p.id = a.player_id WHERE "
             "a.day < ?1 AND a.finished = 0 ORDER BY a.day, a.mode, a.player_id";
    case Sql::count_rated_race:
      return "UPDATE players SET wins = wins + ?1, losses = losses + ?2, races = races + 1, streak "
             "= CASE WHEN ?1 > 0 THEN streak + 1 ELSE 0 END WHERE id = ?3 RETURNING races, streak";
    case Sql::upsert_rating:
      return "INSERT INTO ratings VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?9) ON CONFLICT "
             "(player_id, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, "
             "volatility = excluded.volatility, at = excluded.at, listed_until = "
             "excluded.listed_until, races = ratings.races + 1, wins = ratings.wins + "
             "excluded.wins, losses = ratings.losses + excluded.losses";
    case Sql::ratings_of:
      return "SELECT variant, rating, rd, volatility, at, races, wins, losses FROM ratings WHERE "
             "player_id = ?1";
    case Sql::top_rating:
      return "SELECT " TILERACE_RATING_COLUMNS
             " WHERE r.variant = ?1 AND p.bot = ?5 AND (?3 = 1 OR r.listed_until >= ?4) ORDER BY "
             "r.rating DESC, p.id LIMIT ?2";
    case Sql::rating_of:
      return "SELECT " TILERACE_RATING_COLUMNS " WHERE r.variant = ?1 AND p.id = ?2";
    case Sql::rating_rank:
      return "SELECT COUNT(*) FROM ratings r JOIN players p ON p.id = r.player_id WHERE p.banned = "
             "0 AND p.bot = ?5 AND r.variant = ?1 AND (?2 = 1 OR r.listed_until >= ?3) AND "
             "r.rating "
             ">= ?4";
    case Sql::insert_game:
      return "INSERT INTO games (" TILERACE_GAME_COLUMNS
             ", to_analyse) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
             "?15, ?16, ?17, ?12 = TRUE AND ?2 NOT LIKE 'bot-%') ON CONFLICT (id) DO NOTHING";
    case Sql::select_game: return "SELECT " TILERACE_GAME_COLUMNS " FROM games WHERE id = ?1";
    case Sql::count_games: return "SELECT COUNT(*) FROM games WHERE player_id = ?1";
    case Sql::recent_races:
      return "SELECT g.id, g.mode, g.size, g.target, g.seed, g.score, g.max_tile, g.move_count, "
             "g.state, g.ended_at, g.room, " TILERACE_RACE_OUTCOME
             " FROM games g WHERE g.player_id = ?1 AND g.room <> '' ORDER BY g.ended_at DESC, g.id "
             "LIMIT 10";
    case Sql::insert_race:
      return "INSERT INTO races (id, room, reason, winner, result, ended_at) VALUES (?1, ?2, ?3, "
             "?4, ?5, ?6) ON CONFLICT (id) DO NOTHING";
    case Sql::set_race_recorder:
      // one server: nobody else records its races
      return {"SELECT ?1, ?2, ?3, ?4 WHERE 0",
              "UPDATE races SET node = ?2, epoch = ?3::bigint, url = ?4 WHERE id = ?1"};
    case Sql::race_recorder:
      return {"SELECT '', 0, '' WHERE ?1 IS NULL",
              "SELECT node, epoch, url FROM races WHERE id = ?1"};
    case Sql::insert_rating_point:
      return "INSERT INTO rating_history (player_id, race_id, at, rating, variant, rd) VALUES (?1, "
             "?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING";
    case Sql::rating_history:
      return "SELECT variant, at, rating, rd FROM rating_history WHERE player_id = ?1 ORDER BY at, "
             "race_id";
    case Sql::upsert_bot_record:
      return "INSERT INTO bot_records VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (player_id, "
             "strength) DO UPDATE SET wins = bot_records.wins + excluded.wins, losses = "
             "bot_records.losses + excluded.losses, draws = bot_records.draws + excluded.draws";
    case Sql::select_bot_records:
      return "SELECT strength, wins, losses, draws FROM bot_records WHERE player_id = ?1";
    case Sql::insert_achievement:
      return "INSERT INTO achievements VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING";
    case Sql::achievements_of:
      return "SELECT achievement, game_id, at FROM achievements WHERE player_id = ?1 ORDER BY at, "
             "achievement";
    case Sql::upsert_best_2048:
      return {
          "INSERT INTO period_results VALUES (?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), (?2, ?4, ?5, "
          "?6, ?7, ?8, ?9, ?10, ?11), (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (period, "
          "player_id, mode, size) DO UPDATE SET score = excluded.score, max_tile = "
          "excluded.max_tile, move_count = excluded.move_count, game_id = excluded.game_id, "
          "ended_at = excluded.ended_at WHERE excluded.score > score OR (excluded.score = score "
          "AND (excluded.max_tile > max_tile OR (excluded.max_tile = max_tile AND "
          "excluded.move_count < move_count))) RETURNING period",
          TILERACE_BEST_ROWS
          "excluded.score > b.score OR (excluded.score = b.score AND (excluded.max_tile > "
          "b.max_tile OR (excluded.max_tile = b.max_tile AND excluded.move_count < b.move_count))) "
          "RETURNING b.*) " TILERACE_NOTIFY_BEST};
    case Sql::upsert_best_fifteen:
      return {
          "INSERT INTO period_results VALUES (?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), (?2, ?4, ?5, "
          "?6, ?7, ?8, ?9, ?10, ?11), (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (period, "
          "player_id, mode, size) DO UPDATE SET score = excluded.score, max_tile = "
          "excluded.max_tile, move_count = excluded.move_count, game_id = excluded.game_id, "
          "ended_at = excluded.ended_at WHERE excluded.move_count < move_count RETURNING period",
          TILERACE_BEST_ROWS
          "excluded.move_count < b.move_count RETURNING b.*) " TILERACE_NOTIFY_BEST};
    case Sql::all_bests:
      return "SELECT b.mode, b.size, b.player_id, b.score, b.max_tile, b.move_count, b.period FROM "
             "period_results b JOIN players p ON p.id = b.player_id WHERE p.banned = 0";
    case Sql::bests_of:
      return "SELECT mode, size, score, max_tile, move_count, game_id, ended_at FROM "
             "period_results WHERE period = 'all-time' AND player_id = ?1 ORDER BY mode, size";
    case Sql::top_2048:
      return TILERACE_TOP
          "AND b.mode <> 'fifteen' ORDER BY b.score DESC, b.max_tile DESC, b.move_count, "
          "b.ended_at, b.player_id LIMIT ?4";
    case Sql::top_fifteen:
      return TILERACE_TOP
          "AND b.mode = 'fifteen' ORDER BY b.move_count, b.ended_at, b.player_id LIMIT ?4";
    case Sql::best_of: return TILERACE_TOP "AND b.player_id = ?4";
    case Sql::upsert_active:
      return {
          "INSERT INTO active_games SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?13 WHERE NOT "
          "EXISTS (SELECT 1 FROM games WHERE id = ?2) ON CONFLICT "
          " (player_id) DO UPDATE SET game_id = excluded.game_id, mode = excluded.mode, "
          "size = excluded.size, target = excluded.target, seed = excluded.seed, explicit_seed = "
          "excluded.explicit_seed, moves = excluded.moves, started_at = excluded.started_at, "
          "daily = excluded.daily, times = excluded.times",
          "INSERT INTO active_games SELECT ?1, ?2, ?3, ?4::integer, ?5::bigint, ?6, ?7::boolean, "
          "?8, ?9::bigint, ?10, ?11, ?12::bigint, ?13 WHERE NOT EXISTS (SELECT 1 FROM games WHERE "
          "id = ?2) ON CONFLICT (player_id) DO UPDATE SET game_id = excluded.game_id, mode = "
          "excluded.mode, size = excluded.size, target = excluded.target, seed = excluded.seed, "
          "explicit_seed = excluded.explicit_seed, moves = excluded.moves, started_at = "
          "excluded.started_at, daily = excluded.daily, node = excluded.node, epoch = "
          "excluded.epoch, times = excluded.times WHERE active_games.game_id <> excluded.game_id "
          "OR (active_games.node = "
          "excluded.node AND active_games.epoch = excluded.epoch)"};
    case Sql::delete_active:
      return "DELETE FROM active_games WHERE player_id = ?1 AND game_id = ?2";
    case Sql::delete_pieces:
      return {
          "DELETE FROM active_moves WHERE player_id = ?1 AND NOT EXISTS (SELECT 1 FROM games WHERE "
          "id = ?2)",
          "DELETE FROM active_moves WHERE player_id = ?1 AND NOT EXISTS (SELECT 1 FROM games WHERE "
          "id = ?2) AND NOT EXISTS (SELECT 1 FROM active_games WHERE player_id = ?1 AND game_id = "
          "?2 AND (node <> ?3 OR epoch <> ?4::bigint))"};
    case Sql::insert_piece:
      return {
          "INSERT OR REPLACE INTO active_moves SELECT ?1, ?2, ?3, ?7 WHERE EXISTS (SELECT 1 FROM "
          "active_games WHERE player_id = ?1 AND game_id = ?4)",
          "INSERT INTO active_moves SELECT ?1, ?2::integer, ?3, ?7 WHERE EXISTS (SELECT 1 FROM "
          "active_games WHERE player_id = ?1 AND game_id = ?4 AND node = ?5 AND epoch = "
          "?6::bigint) ON CONFLICT (player_id, first) DO UPDATE SET moves = excluded.moves, times "
          "= excluded.times"};
    case Sql::claim_active:
      // one server: its entries are its own
      return {"SELECT 0 WHERE ?1 IS NULL AND ?2 IS NULL",
              "UPDATE active_games SET node = ?2, epoch = CASE WHEN node = ?2 THEN epoch ELSE "
              "epoch + 1 END WHERE player_id = ?1 RETURNING epoch"};
    case Sql::active_owner:
      return {"SELECT '', 0 WHERE ?1 IS NULL AND ?2 IS NULL",
              "SELECT node, epoch FROM active_games WHERE player_id = ?1 AND game_id = ?2"};
    case Sql::select_active:
      // A journal write may commit just after the game's record (two store threads), so an
      // entry whose game is recorded is never read back.
      return {
          "SELECT player_id, game_id, mode, size, target, seed, explicit_seed, moves, started_at, "
          "daily, 0, times FROM active_games WHERE player_id = ?1",
          "SELECT player_id, game_id, mode, size, target, seed, explicit_seed, moves, started_at, "
          "daily, epoch, times FROM active_games a WHERE player_id = ?1 AND NOT EXISTS (SELECT 1 "
          "FROM "
          "games g WHERE g.id = a.game_id)"};
    case Sql::select_pieces:
      return "SELECT first, moves, times FROM active_moves WHERE player_id = ?1 ORDER BY first";
    case Sql::upsert_race:
      // ?2, the node, is not kept: the file is this server's own. Nor is ?17, the progress:
      // one server writes its races from its journal pass only, one snapshot after the other.
      return {
          "INSERT INTO active_races SELECT ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
          "?14, ?18 WHERE NOT EXISTS (SELECT 1 FROM races WHERE id = ?1) ON CONFLICT (id) DO "
          "UPDATE SET host = excluded.host, remaining_ms = excluded.remaining_ms RETURNING 1",
          "INSERT INTO active_races SELECT ?1, ?2, ?3, ?4, ?5::integer, ?6::bigint, ?7, "
          "?8::integer, ?9::integer, ?10::boolean, ?11::integer, ?12, ?13::bigint, ?14::bigint, "
          "?15::bigint, ?16, ?17::bigint, ?18 WHERE NOT EXISTS (SELECT 1 FROM races WHERE id = ?1) "
          "ON CONFLICT (id) DO UPDATE SET node = excluded.node, host = excluded.host, remaining_ms "
          "= excluded.remaining_ms, progress = excluded.progress WHERE active_races.progress <= "
          "excluded.progress RETURNING 1"};
    case Sql::lock_race:
      // Without it, a race's first journal write and its recording could both miss the
      // other's uncommitted row, leaving the recorded race in the journal to be adopted.
      return {"SELECT ?1 IS NULL", "SELECT pg_advisory_xact_lock(hashtextextended(?1, 0))"};
    case Sql::race_owner:
      return {"SELECT '', 0, '' WHERE ?1 IS NULL",
              "SELECT node, epoch, url FROM active_races WHERE id = ?1 FOR UPDATE"};
    case Sql::delete_race: return "DELETE FROM active_races WHERE id = ?1";
    case Sql::drop_recorded_race:
      return "DELETE FROM active_races WHERE id = ?1 AND EXISTS (SELECT 1 FROM races WHERE id = "
             "?1)";
    case Sql::delete_racers: return "DELETE FROM active_racers WHERE race_id = ?1";
    case Sql::insert_racer:
      return {
          "INSERT INTO active_racers SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM "
          "active_races WHERE id = ?1)",
          "INSERT INTO active_racers SELECT ?1, ?2::integer, ?3, ?4, ?5, ?6, ?7::boolean WHERE "
          "EXISTS (SELECT 1 FROM active_races WHERE id = ?1)"};
    case Sql::select_races:
      // every journaled race is this server's
      return {
          "SELECT id, room, mode, size, target, seed, time_limit, max_players, public, "
          "max_moves_per_second, host, started_at, remaining_ms, 0, '', tournament FROM "
          "active_races",
          "SELECT " TILERACE_RACE_COLUMNS " FROM active_races WHERE node = ?1"};
    case Sql::adoptable_races:
      return {nullptr, "SELECT id FROM active_races WHERE node = ?1 ORDER BY id"};
    case Sql::released_race:
      return {nullptr, "SELECT id FROM active_races WHERE node = ?1 AND room = ?2"};
    case Sql::adopt_races:
      // A node taking back its own races (after a restart) keeps their epoch: its name is
      // the same, and no other copy runs under it. Only the races whose locks the adoption
      // holds: one journaled meanwhile waits for the next pass.
      return {nullptr,
              "UPDATE active_races SET node = ?2, url = ?3, epoch = CASE WHEN node = ?2 THEN epoch "
              "ELSE epoch + 1 END WHERE node = ?1 AND id IN (SELECT "
              "jsonb_array_elements_text(?4::jsonb)) RETURNING " TILERACE_RACE_COLUMNS};
    case Sql::select_racers:
      return "SELECT player_id, game_id, moves, state, left_race FROM active_racers WHERE race_id "
             "= ?1 ORDER BY position";
    case Sql::race_room_of:
      return "SELECT r.room FROM active_racers a JOIN active_races r ON r.id = a.race_id WHERE "
             "a.player_id = ?1 AND NOT a.left_race ORDER BY r.started_at DESC LIMIT 1";
    case Sql::upsert_tournament:
      // A code is reused once its tournament is over; an open one is written only by its
      // owner under its epoch.
      // ?2 (the node), ?6 and ?7 (epoch, url): one server
      return {
          "INSERT INTO tournaments SELECT ?1, ?3, ?4, ?5 WHERE ?2 IS NOT NULL AND ?6 IS NOT NULL "
          "AND ?7 IS NOT NULL ON CONFLICT (code) DO UPDATE SET state = excluded.state, document = "
          "excluded.document, updated_at = excluded.updated_at RETURNING 1",
          "INSERT INTO tournaments VALUES (?1, ?2, ?3, ?4, ?5::bigint, ?6::bigint, ?7) ON CONFLICT "
          "(code) DO UPDATE SET node = excluded.node, state = excluded.state, document = "
          "excluded.document, updated_at = excluded.updated_at, epoch = excluded.epoch, url = "
          "excluded.url WHERE tournaments.state NOT IN ('waiting', 'running') OR (tournaments.node "
          "= excluded.node AND tournaments.epoch <= excluded.epoch) RETURNING 1"};
    case Sql::adopt_tournaments:
      return {nullptr,
              "UPDATE tournaments SET node = ?2, url = ?3, epoch = CASE WHEN node = ?2 THEN epoch "
              "ELSE epoch + 1 END WHERE node = ?1 AND state IN ('waiting', 'running') RETURNING "
              "code, state, document, updated_at, epoch, url"};
    case Sql::open_tournaments:
      return {
          "SELECT code, state, document, updated_at, 0, '' FROM tournaments WHERE state IN "
          "('waiting', 'running') AND ?1 IS NOT NULL ORDER BY updated_at, code",
          "SELECT code, state, document, updated_at, epoch, url FROM tournaments WHERE node = ?1 "
          "AND state IN ('waiting', 'running') ORDER BY updated_at, code"};
    case Sql::tournament_of:
      return {nullptr,
              "SELECT code FROM tournaments WHERE state IN ('waiting', 'running') AND "
              "document::jsonb -> 'members' @> jsonb_build_array(jsonb_build_object('id', "
              "?1::text, 'left', false)) ORDER BY updated_at DESC LIMIT 1"};
    case Sql::lock_creations:
      return {"SELECT ?1 IS NULL", "SELECT pg_advisory_xact_lock(hashtextextended(?1, 1))"};
    case Sql::count_creations:
      return "SELECT COUNT(*) FROM tournament_creations WHERE player_id = ?1 AND at > ?2";
    case Sql::note_creation: return "INSERT INTO tournament_creations VALUES (?1, ?2)";
    case Sql::prune_creations: return "DELETE FROM tournament_creations WHERE at <= ?1";
    case Sql::race_in_room:
      return "SELECT winner, reason, result FROM races WHERE room = ?1 AND ended_at >= ?2 ORDER BY "
             "ended_at LIMIT 1";
    case Sql::upsert_ban:
      return "INSERT INTO bans VALUES (?1, ?2, ?3, ?4) ON CONFLICT (player_id) DO UPDATE SET "
             "reason = excluded.reason, until = excluded.until, at = excluded.at";
    case Sql::delete_ban: return "DELETE FROM bans WHERE player_id = ?1 RETURNING player_id";
    case Sql::set_banned: return "UPDATE players SET banned = ?2 WHERE id = ?1";
    case Sql::select_ban: return "SELECT reason, until, at FROM bans WHERE player_id = ?1";
    case Sql::expired_bans:
      return "SELECT player_id FROM bans WHERE until > 0 AND until <= ?1 ORDER BY player_id";
    case Sql::hide_game:
      return "INSERT INTO hidden_games VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING";
    case Sql::unhide_game: return "DELETE FROM hidden_games WHERE game_id = ?1";
    case Sql::board_games:
      return "SELECT " TILERACE_GAME_COLUMNS
             " FROM games WHERE player_id = ?1 AND ranked = TRUE AND room = '' AND daily = '' AND "
             "id NOT IN (SELECT game_id FROM hidden_games) ORDER BY ended_at, id";
    case Sql::delete_bests: return "DELETE FROM period_results WHERE player_id = ?1";
    case Sql::insert_report:
      return "INSERT INTO reports (reporter, player_id, reason, note, at, day) VALUES (?1, ?2, ?3, "
             "?4, ?5, ?6) ON CONFLICT DO NOTHING";
    case Sql::select_reports:
      return "SELECT r.id, r.reporter, a.name, r.player_id, b.name, r.reason, r.note, r.at, "
             "r.resolved_at, r.resolution FROM reports r JOIN players a ON a.id = r.reporter JOIN "
             "players b ON b.id = r.player_id WHERE ?1 = 0 OR r.resolved_at = 0 ORDER BY r.id DESC "
             "LIMIT ?2";
    case Sql::resolve_report:
      return "UPDATE reports SET resolved_at = ?2, resolution = ?3 WHERE id = ?1 AND resolved_at = "
             "0";
    case Sql::insert_audit:
      return "INSERT INTO audit_log (at, actor, action, target, reason, detail, actor_role, "
             "target_name, address) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
    case Sql::select_audit:
      return "SELECT id, at, actor, action, target, reason, detail, actor_role, target_name, "
             "address FROM audit_log WHERE id < ?1 ORDER BY id DESC LIMIT ?2";
    case Sql::search_players:
      return {
          "SELECT " TILERACE_PLAYER_COLUMNS
          " FROM players WHERE id = ?1 OR instr(name_key, ?2) > 0 OR id IN (SELECT player_id FROM "
          "old_names WHERE instr(lower(name), ?2) > 0) ORDER BY name_key LIMIT ?3",
          "SELECT " TILERACE_PLAYER_COLUMNS
          " FROM players WHERE id = ?1 OR strpos(name_key, ?2) > 0 OR id IN (SELECT player_id FROM "
          "old_names WHERE strpos(lower(name), ?2) > 0) ORDER BY name_key LIMIT ?3"};
    case Sql::old_names_of:
      return "SELECT name, until FROM old_names WHERE player_id = ?1 ORDER BY until";
    case Sql::ranks_changed: return {"SELECT 0", "SELECT pg_notify('tilerace_ranks', 'reload')"};
    case Sql::banned_players: return "SELECT player_id FROM bans";
    case Sql::unanalysed_games:
      return {"SELECT " TILERACE_GAME_COLUMNS
              " FROM games WHERE to_analyse <> 0 ORDER BY ended_at DESC LIMIT ?1",
              "SELECT " TILERACE_GAME_COLUMNS
              " FROM games WHERE to_analyse ORDER BY ended_at DESC LIMIT ?1"};
    case Sql::upsert_signals:
      return "INSERT INTO game_signals VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT "
             "(game_id) DO NOTHING";
    case Sql::analysed: return "UPDATE games SET to_analyse = FALSE WHERE id = ?1";
    case Sql::insert_operator:
      return "INSERT INTO operators (id, name, name_key, role, password_hash, created_at) VALUES "
             "(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING";
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
      // locked: a node releasing it at once waits, then sees it gone
      return {
          "SELECT p.id, p.name, p.registered_at, MAX(p.created_at, COALESCE((SELECT MAX(last_seen) "
          "FROM sessions WHERE player_id = p.id), 0), COALESCE((SELECT MAX(ended_at) FROM games "
          "WHERE player_id = p.id), 0)) FROM players p WHERE p.name_key = ?1 OR p.look_key = ?2",
          "SELECT p.id, p.name, p.registered_at, GREATEST(p.created_at, COALESCE((SELECT "
          "MAX(last_seen) FROM sessions WHERE player_id = p.id), 0), COALESCE((SELECT "
          "MAX(ended_at) FROM games WHERE player_id = p.id), 0)) FROM players p WHERE p.name_key = "
          "?1 OR p.look_key = ?2 FOR UPDATE OF p"};
    case Sql::release_name:
      return "UPDATE players SET name = ?2, name_key = ?3, look_key = ?4, released_name = ?5 WHERE "
             "id = ?1";
    case Sql::clear_released_name: return "UPDATE players SET released_name = '' WHERE id = ?1";
    case Sql::top_signals:
      return "SELECT s.game_id, s.player_id, p.name, g.mode, g.size, g.score, s.moves_per_second, "
             "s.spread, s.match, s.sampled, s.suspicion FROM game_signals s JOIN players p ON p.id "
             "= s.player_id JOIN games g ON g.id = s.game_id ORDER BY s.suspicion DESC, s.game_id "
             "LIMIT ?1";
    case Sql::recent_games:
      return "SELECT " TILERACE_GAME_COLUMNS
             ", CASE WHEN id IN (SELECT game_id FROM hidden_games) THEN 1 ELSE 0 END FROM games "
             "WHERE player_id = ?1 ORDER BY ended_at DESC, id LIMIT ?2";
  }
  return {nullptr, nullptr};
}
#undef TILERACE_RACE_OUTCOME
#undef TILERACE_NOTIFY_BEST
#undef TILERACE_BEST_ROWS
#undef TILERACE_TOP
#undef TILERACE_ON_BOARD
#undef TILERACE_PLAYER_COLUMNS
#undef TILERACE_RATING_COLUMNS
#undef TILERACE_DEFAULT_RATING
#undef TILERACE_RACE_COLUMNS
#undef TILERACE_GAME_COLUMNS

}  // namespace

std::string statement_text(Sql statement, SqlLanguage language) {
  const Texts t = texts(statement);
  const char* text = language == SqlLanguage::sqlite ? t.sqlite : t.postgres;
  std::string out = text == nullptr ? "" : text;
  if (language == SqlLanguage::postgres) {
    for (std::size_t i = 0; i + 1 < out.size(); ++i) {
      if (out[i] == '?' && std::isdigit(static_cast<unsigned char>(out[i + 1]))) out[i] = '$';
    }
  }
  return out;
}

}  // namespace tilerace::server
