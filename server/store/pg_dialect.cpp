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
#include "server/store/statement_text.hpp"

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
-- Signals of computer-assisted play per ranked game (server/rules/assist_signals.hpp), in
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
    // Tournaments (server/rules/tournament_record.hpp): each as one document, with its node
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
    // A solo game's journal keeps when each move was played (a daily attempt abandoned keeps
    // its times); who created which tournament when, for the per-player hourly limit.
    R"sql(
ALTER TABLE active_games ADD COLUMN times text NOT NULL DEFAULT '';
ALTER TABLE active_moves ADD COLUMN times text NOT NULL DEFAULT '';
CREATE TABLE tournament_creations (
  player_id text COLLATE "C" NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX tournament_creations_by_player ON tournament_creations (player_id, at);
CREATE INDEX tournament_creations_by_time ON tournament_creations (at);
)sql",
    // Glicko-2 per variant (server/rules/glicko2.hpp): each player's rating in each variant
    // they raced in. The Elo rating becomes the classic 4×4 rating, its deviation from the
    // rated races (glicko2::settled_rd, written out), as of their last rated race, listed
    // until its deviation grows past 75 (listed_until); the history keeps each point's
    // variant and deviation (0: from before).
    R"sql(
CREATE TABLE ratings (
  player_id text COLLATE "C" NOT NULL,
  variant text COLLATE "C" NOT NULL,
  rating double precision NOT NULL,
  rd double precision NOT NULL,
  volatility double precision NOT NULL,
  at bigint NOT NULL,
  listed_until bigint NOT NULL,
  races integer NOT NULL,
  wins integer NOT NULL,
  losses integer NOT NULL,
  PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating DESC);
INSERT INTO ratings
  SELECT id, 'classic-4', rating, rd, 0.06, at,
         CASE WHEN rd > 75 THEN -1
              ELSE at + floor((75 * 75 - rd * rd) / (18.1 * 18.1) * 86400000)::bigint END,
         races, wins, losses FROM (
    SELECT p.id, p.rating, GREATEST(50, 1 / sqrt(1 / (350.0 * 350.0) +
                                             p.races * power(ln(10) / 400, 2) / 4)) AS rd,
           p.races, p.wins, p.losses,
           COALESCE((SELECT MAX(h.at) FROM rating_history h WHERE h.player_id = p.id),
                    p.created_at) AS at
    FROM players p WHERE p.races > 0) m;
ALTER TABLE rating_history ADD COLUMN variant text COLLATE "C" NOT NULL DEFAULT 'classic-4';
ALTER TABLE rating_history ADD COLUMN rd integer NOT NULL DEFAULT 0;
ALTER TABLE players DROP COLUMN rating;
)sql",
    // Bot accounts (docs/bots.md): a player who became a bot, for good (the computer's seats
    // are bots too), and the bots' API tokens, kept as their SHA-256 (code_hash).
    R"sql(
ALTER TABLE players ADD COLUMN bot integer NOT NULL DEFAULT 0;
UPDATE players SET bot = 1 WHERE id LIKE 'bot-%';
CREATE TABLE bot_tokens (
  id text COLLATE "C" PRIMARY KEY,
  player_id text COLLATE "C" NOT NULL,
  token_hash text COLLATE "C" NOT NULL UNIQUE,
  created_at bigint NOT NULL,
  last_used bigint NOT NULL DEFAULT 0
);
CREATE INDEX bot_tokens_by_player ON bot_tokens (player_id);
)sql",
};

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
      } else if (const auto* x = std::get_if<double>(&p)) {
        char digits[32];  // the shortest text that reads back as the same double
        const auto end = std::to_chars(digits, digits + sizeof digits, *x).ptr;
        texts.emplace_back(std::string(digits, end));
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
    conn->prepare(name_of(static_cast<Sql>(i)),
                  statement_text(static_cast<Sql>(i), SqlLanguage::postgres).c_str());
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
