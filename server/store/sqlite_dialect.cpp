#include "server/store/sqlite_dialect.hpp"

#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>

#include "protocol/period.hpp"
#include "server/base/secrets.hpp"
#include "server/rules/variant_rating.hpp"
#include "server/store/statement_text.hpp"

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
-- Signals of computer-assisted play per ranked game (server/rules/assist_signals.hpp), in
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
    // Tournaments (server/rules/tournament_record.hpp): each as one document, and the
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
    // A solo game's journal keeps when each move was played (a daily attempt abandoned keeps
    // its times); who created which tournament when, for the per-player hourly limit.
    R"sql(
ALTER TABLE active_games ADD COLUMN times TEXT NOT NULL DEFAULT '';
ALTER TABLE active_moves ADD COLUMN times TEXT NOT NULL DEFAULT '';
CREATE TABLE tournament_creations (
  player_id TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX tournament_creations_by_player ON tournament_creations (player_id, at);
CREATE INDEX tournament_creations_by_time ON tournament_creations (at);
)sql",
    // Glicko-2 per variant (server/rules/glicko2.hpp): each player's rating in each variant
    // they raced in. The Elo rating becomes the classic 4×4 rating, its deviation from the
    // rated races (settled_rd), as of their last rated race; the history keeps each point's
    // variant and deviation (0: from before).
    R"sql(
CREATE TABLE ratings (
  player_id TEXT NOT NULL,
  variant TEXT NOT NULL,
  rating REAL NOT NULL,
  rd REAL NOT NULL,
  volatility REAL NOT NULL,
  at INTEGER NOT NULL,
  listed_until INTEGER NOT NULL,
  races INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  losses INTEGER NOT NULL,
  PRIMARY KEY (player_id, variant)
) WITHOUT ROWID;
CREATE INDEX ratings_by_variant ON ratings (variant, rating DESC);
INSERT INTO ratings
  SELECT id, 'classic-4', rating, rd, 0.06, at, listed_until(at, rd), races, wins, losses FROM (
    SELECT p.id, p.rating, settled_rd(p.races) AS rd, p.races, p.wins, p.losses,
           COALESCE((SELECT MAX(h.at) FROM rating_history h WHERE h.player_id = p.id),
                    p.created_at) AS at
    FROM players p WHERE p.races > 0);
ALTER TABLE rating_history ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic-4';
ALTER TABLE rating_history ADD COLUMN rd INTEGER NOT NULL DEFAULT 0;
DROP INDEX players_by_rating;
ALTER TABLE players DROP COLUMN rating;
)sql",
    // Bot accounts (docs/bots.md): a player who became a bot, for good (the computer's seats
    // are bots too), and the bots' API tokens, kept as their SHA-256 (code_hash).
    R"sql(
ALTER TABLE players ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
UPDATE players SET bot = 1 WHERE id LIKE 'bot-%';
CREATE TABLE bot_tokens (
  id TEXT PRIMARY KEY,
  player_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  last_used INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX bot_tokens_by_player ON bot_tokens (player_id);
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
      } else if (const auto* x = std::get_if<double>(&params[i])) {
        s->bind(i + 1, *x);
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
        } else if (column.isFloat()) {
          cells.emplace_back(column.getDouble());
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
// settled_rd(races) and listed_until(at, rd): glicko2::settled_rd and listed_until, for SQL
// (the migration to Glicko-2).
void settled_rd_function(sqlite3_context* context, int, sqlite3_value** args) {
  sqlite3_result_double(context, glicko2::settled_rd(sqlite3_value_int(args[0])));
}
void listed_until_function(sqlite3_context* context, int, sqlite3_value** args) {
  const VariantRating r{{glicko2::kStart.rating, sqlite3_value_double(args[1])},
                        sqlite3_value_int64(args[0])};
  sqlite3_result_int64(context, listed_until(r));
}

SqliteDialect::SqliteDialect(const std::filesystem::path& path)
    : db_(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE) {
  db_.exec("PRAGMA journal_mode = WAL");
  db_.exec("PRAGMA synchronous = FULL");
  db_.exec("PRAGMA busy_timeout = 5000");
  db_.exec("PRAGMA foreign_keys = ON");
  db_.createFunction("utc_day", 1, true, nullptr, period_function<protocol::PeriodKind::day>);
  db_.createFunction("iso_week", 1, true, nullptr, period_function<protocol::PeriodKind::week>);
  db_.createFunction("sha256_hex", 1, true, nullptr, sha256_function);
  db_.createFunction("settled_rd", 1, true, nullptr, settled_rd_function);
  db_.createFunction("listed_until", 2, true, nullptr, listed_until_function);
  migrate();
  for (std::size_t i = 0; i < kSqlCount; ++i) {
    const std::string sql = statement_text(static_cast<Sql>(i), SqlLanguage::sqlite);
    if (!sql.empty()) {
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
  const std::string sql = statement_text(statement, SqlLanguage::sqlite);
  if (sql.empty()) return "";
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
