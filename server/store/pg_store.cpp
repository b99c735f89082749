#include "server/store/pg_store.hpp"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <regex>

#include "server/base/unix_time.hpp"
#include "server/store/achievements.hpp"

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
};

// The rank change a best result or a rating makes, announced to every node in the same
// transaction (delivered at commit). b|period|mode|size|score|max_tile|moves|player,
// r|rating|races|player.
#define TILERACE_NOTIFY_BEST                                                               \
  "SELECT up.period, pg_notify('tilerace_ranks', concat_ws('|', 'b', up.period, up.mode, " \
  "up.size, up.score, up.max_tile, up.move_count, up.player_id)) FROM up"
// A game's result on its three boards ($1–$3: all time, its day, its week).
#define TILERACE_BEST_ROWS                                                                    \
  "WITH up AS (INSERT INTO period_results AS b VALUES ($1, $4, $5, $6::integer, $7::bigint, " \
  "$8::bigint, $9::integer, $10, $11::bigint), ($2, $4, $5, $6, $7, $8, $9, $10, $11), "      \
  "($3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (period, player_id, mode, size) DO "    \
  "UPDATE SET score = excluded.score, max_tile = excluded.max_tile, move_count = "            \
  "excluded.move_count, game_id = excluded.game_id, ended_at = excluded.ended_at WHERE "

// Prepared on every connection of the pool.
constexpr std::pair<const char*, const char*> kStatements[] = {
    {"insert_player",
     "INSERT INTO players (id, name, token_hash, rating, wins, losses, created_at) "
     "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING"},
    {"select_player",
     "SELECT id, name, token_hash, created_at, rating, wins, losses FROM players WHERE id = $1"},
    {"insert_game",
     "INSERT INTO games (id, player_id, mode, size, target, seed, moves, score, max_tile, "
     "move_count, state, ranked, started_at, ended_at, room) VALUES ($1, $2, $3, $4, $5, $6, $7, "
     "$8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (id) DO NOTHING RETURNING 1"},
    {"select_game",
     "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, move_count, state, "
     "ranked, started_at, ended_at, room FROM games WHERE id = $1"},
    // RETURNING (and the notification) names the boards where it is the player's new best.
    {"upsert_best_2048", TILERACE_BEST_ROWS
     "excluded.score > b.score OR (excluded.score = b.score AND "
     "(excluded.max_tile > b.max_tile OR (excluded.max_tile = b.max_tile AND excluded.move_count "
     "< b.move_count))) RETURNING b.*) " TILERACE_NOTIFY_BEST},
    {"upsert_best_fifteen",
     TILERACE_BEST_ROWS "excluded.move_count < b.move_count RETURNING b.*) " TILERACE_NOTIFY_BEST},
    {"delete_active", "DELETE FROM active_games WHERE game_id = $1"},
    {"insert_race",
     "INSERT INTO races (id, room, reason, winner, result, ended_at) VALUES ($1, $2, $3, $4, $5, "
     "$6) ON CONFLICT (id) DO NOTHING RETURNING 1"},
    {"delete_race", "DELETE FROM active_races WHERE id = $1"},
    {"upsert_bot_record",
     "INSERT INTO bot_records VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id, strength) DO "
     "UPDATE SET wins = bot_records.wins + excluded.wins, losses = bot_records.losses + "
     "excluded.losses, draws = bot_records.draws + excluded.draws"},
    {"insert_rating_point",
     "INSERT INTO rating_history VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING"},
    {"count_games", "SELECT COUNT(*) FROM games WHERE player_id = $1"},
    {"bests_of",
     "SELECT mode, size, score, max_tile, move_count, game_id, ended_at FROM period_results "
     "WHERE period = 'all-time' AND player_id = $1 ORDER BY mode, size"},
    {"rating_history",
     "SELECT at, rating FROM rating_history WHERE player_id = $1 ORDER BY at, race_id"},
    {"recent_races",
     "SELECT id, mode, size, target, seed, score, max_tile, move_count, state, ended_at, room "
     "FROM games WHERE player_id = $1 AND room <> '' ORDER BY ended_at DESC, id LIMIT 10"},
    {"select_bot_records",
     "SELECT strength, wins, losses, draws FROM bot_records WHERE player_id = $1"},
    {"update_rating",
     "WITH up AS (UPDATE players SET rating = $1, wins = wins + $2, losses = losses + $3, "
     "races = races + 1, streak = CASE WHEN $2 > 0 THEN streak + 1 ELSE 0 END WHERE id = $4 "
     "RETURNING id, rating, races, streak) "
     "SELECT up.races, pg_notify('tilerace_ranks', concat_ws('|', 'r', up.rating, up.races, "
     "up.id)), up.streak FROM up"},
    {"insert_achievement",
     "INSERT INTO achievements VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1"},
    {"achievements_of",
     "SELECT achievement, game_id, at FROM achievements WHERE player_id = $1 ORDER BY at, "
     "achievement"},
    {"upsert_active",
     "INSERT INTO active_games SELECT $1, $2, $3, $4::integer, $5::bigint, $6, $7::boolean, $8, "
     "$9::bigint WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = $2) "
     "ON CONFLICT (player_id) DO UPDATE SET game_id = excluded.game_id, mode = excluded.mode, "
     "size = excluded.size, target = excluded.target, seed = excluded.seed, "
     "explicit_seed = excluded.explicit_seed, moves = excluded.moves, "
     "started_at = excluded.started_at"},
    // Only when the entry itself is written (its game not recorded yet).
    {"delete_pieces",
     "DELETE FROM active_moves WHERE player_id = $1 AND NOT EXISTS (SELECT 1 FROM games WHERE "
     "id = $2)"},
    {"insert_piece",
     "INSERT INTO active_moves SELECT $1, $2::integer, $3 WHERE EXISTS (SELECT 1 FROM "
     "active_games WHERE player_id = $1 AND game_id = $4) ON CONFLICT (player_id, first) DO "
     "UPDATE SET moves = excluded.moves"},
    // A journal write may commit just after the game's record (two store threads), so an entry
    // whose game is recorded is never read back.
    {"select_active",
     "SELECT player_id, game_id, mode, size, target, seed, explicit_seed, moves, started_at FROM "
     "active_games a WHERE player_id = $1 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = "
     "a.game_id)"},
    {"select_pieces", "SELECT first, moves FROM active_moves WHERE player_id = $1 ORDER BY first"},
    {"upsert_race",
     "INSERT INTO active_races SELECT $1, $2, $3, $4, $5::integer, $6::bigint, $7, $8::integer, "
     "$9::integer, $10::boolean, $11::integer, $12, $13::bigint, $14::bigint WHERE NOT EXISTS "
     "(SELECT 1 FROM races WHERE id = $1) ON CONFLICT (id) DO UPDATE SET node = excluded.node, "
     "host = excluded.host, remaining_ms = excluded.remaining_ms"},
    {"delete_racers", "DELETE FROM active_racers WHERE race_id = $1"},
    {"insert_racer",
     "INSERT INTO active_racers SELECT $1, $2::integer, $3, $4, $5, $6, $7::boolean WHERE EXISTS "
     "(SELECT 1 FROM active_races WHERE id = $1)"},
    {"select_races",
     "SELECT id, room, mode, size, target, seed, time_limit, max_players, is_public, "
     "max_moves_per_second, host, started_at, remaining_ms FROM active_races WHERE node = $1 "
     "ORDER BY started_at, id"},
    {"adopt_races",
     "UPDATE active_races SET node = $2 WHERE node = $1 RETURNING id, room, mode, size, target, "
     "seed, time_limit, max_players, is_public, max_moves_per_second, host, started_at, "
     "remaining_ms"},
    {"race_room_of",
     "SELECT r.room FROM active_racers a JOIN active_races r ON r.id = a.race_id WHERE "
     "a.player_id = $1 AND NOT a.left_race ORDER BY r.started_at DESC LIMIT 1"},
    {"select_racers",
     "SELECT player_id, game_id, moves, state, left_race FROM active_racers WHERE race_id = $1 "
     "ORDER BY position"},
    {"top_2048",
     "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at "
     "FROM period_results b JOIN players p ON p.id = b.player_id WHERE b.period = $1 AND b.mode "
     "= $2 AND b.size = $3 "
     "ORDER BY b.score DESC, b.max_tile DESC, b.move_count, b.ended_at, b.player_id LIMIT $4"},
    {"top_fifteen",
     "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at "
     "FROM period_results b JOIN players p ON p.id = b.player_id WHERE b.period = $1 AND b.mode "
     "= $2 AND b.size = $3 ORDER BY b.move_count, b.ended_at, b.player_id LIMIT $4"},
    {"best_of",
     "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at "
     "FROM period_results b JOIN players p ON p.id = b.player_id WHERE b.period = $1 AND b.mode "
     "= $2 AND b.size = $3 AND b.player_id = $4"},
    {"top_rating",
     "SELECT id, name, rating, wins, losses FROM players WHERE races > 0 ORDER BY rating DESC, id "
     "LIMIT $1"},
    {"rating_of", "SELECT id, name, rating, wins, losses FROM players WHERE races > 0 AND id = $1"},
};
#undef TILERACE_NOTIFY_BEST
#undef TILERACE_BEST_ROWS

engine::Mode mode_of(std::string_view name) {
  return engine::mode_from_string(name).value_or(engine::Mode::classic);
}

// A game's config from four columns (mode, size, target, seed) starting at col.
engine::GameConfig config_from(const PgResult& r, int row, int col) {
  return {mode_of(r.text(row, col)), r.integer(row, col + 1), r.int64(row, col + 2),
          std::stoull(r.string(row, col + 3))};
}

// Every row of a result, each read with read.
template <class Read>
auto rows_of(const PgResult& r, Read read) {
  std::vector<decltype(read(r, 0))> rows;
  for (int i = 0; i < r.rows(); ++i) rows.push_back(read(r, i));
  return rows;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto at = s.find(sep);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return parts;
    s.remove_prefix(at + 1);
  }
}

std::int64_t to_int(std::string_view s) {
  std::int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

}  // namespace

std::string redact_database_url(std::string_view url) {
  static const std::regex password(R"(^([a-z]+://[^:/@]*:)[^@]*@)");
  return std::regex_replace(std::string(url), password, "$1***@");
}

PgStore::PgStore(std::string url, std::string node) : url_(std::move(url)), node_(std::move(node)) {
  try {
    auto first = connect();  // migrates before anything is prepared against the schema
    // Listen before reading the ranks: a change committed in between is then not missed.
    auto listener = std::make_unique<PgConnection>(url_);
    listener->exec("LISTEN tilerace_ranks");
    fill_ranks(*listener);
    std::lock_guard lock(pool_mutex_);
    idle_.push_back(std::move(first));
    open_ = 1;
    listener_ =
        std::thread([this, conn = std::move(listener)]() mutable { listen(std::move(conn)); });
  } catch (const std::exception& e) {
    throw std::runtime_error(redact_database_url(url_) + ": " + e.what());
  }
}

PgStore::~PgStore() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_changed_.notify_all();
  if (listener_.joinable()) listener_.join();
}

std::unique_ptr<PgConnection> PgStore::connect() {
  auto conn = std::make_unique<PgConnection>(url_);
  conn->exec("SET synchronous_commit = on");
  migrate(*conn);
  for (const auto& [name, sql] : kStatements) conn->prepare(name, sql);
  return conn;
}

void PgStore::migrate(PgConnection& conn) {
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

void PgStore::fill_ranks(PgConnection& conn) {
  const PgResult best = conn.exec(
      "SELECT mode, size, player_id, score, max_tile, move_count, period FROM period_results");
  for (int i = 0; i < best.rows(); ++i) {
    const auto period = protocol::period_from_string(best.text(i, 6));
    if (!period) continue;
    const engine::Mode mode = mode_of(best.text(i, 0));
    ranks_.put_best({mode, best.integer(i, 1), false, *period}, best.text(i, 2),
                    best_key(mode, best.int64(i, 3), best.int64(i, 4), best.int64(i, 5)));
  }
  const PgResult rated = conn.exec("SELECT id, rating, races FROM players WHERE races > 0");
  for (int i = 0; i < rated.rows(); ++i) {
    ranks_.put(kRatingBoard, rated.text(i, 0), rating_key(rated.int64(i, 1)), rated.int64(i, 2));
  }
}

void PgStore::apply_notification(std::string_view payload) {
  const auto f = split(payload, '|');
  if (f.size() == 8 && f[0] == "b") {
    const auto period = protocol::period_from_string(f[1]);
    if (!period) return;
    const engine::Mode mode = mode_of(f[2]);
    ranks_.put_best({mode, static_cast<int>(to_int(f[3])), false, *period}, f[7],
                    best_key(mode, to_int(f[4]), to_int(f[5]), to_int(f[6])));
  } else if (f.size() == 4 && f[0] == "r") {
    ranks_.put(kRatingBoard, f[3], rating_key(to_int(f[1])), to_int(f[2]));
  }
}

void PgStore::listen(std::unique_ptr<PgConnection> conn) {
  auto backoff = std::chrono::milliseconds(100);
  for (;;) {
    try {
      if (!conn) {
        conn = std::make_unique<PgConnection>(url_);
        conn->exec("LISTEN tilerace_ranks");
        fill_ranks(*conn);  // what was announced while we were away
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
          if (n->channel == kChannel) apply_notification(n->payload);
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

PgStore::Lease::Lease(PgStore& store) : store_(store) {
  {
    std::unique_lock lock(store_.pool_mutex_);
    store_.pool_changed_.wait(lock,
                              [this] { return !store_.idle_.empty() || store_.open_ < kPoolSize; });
    if (!store_.idle_.empty()) {
      conn_ = std::move(store_.idle_.back());
      store_.idle_.pop_back();
      return;
    }
    ++store_.open_;
  }
  try {
    conn_ = store_.connect();
  } catch (...) {
    std::lock_guard lock(store_.pool_mutex_);
    --store_.open_;
    store_.pool_changed_.notify_one();
    throw;
  }
}

PgStore::Lease::~Lease() {
  std::lock_guard lock(store_.pool_mutex_);
  if (conn_->healthy()) {
    store_.idle_.push_back(std::move(conn_));
  } else {
    --store_.open_;  // dropped: the next call connects afresh
  }
  store_.pool_changed_.notify_one();
}

void PgStore::ping() {
  Lease conn(*this);
  conn->exec("SELECT 1");
}

void PgStore::add_player(const PlayerRecord& p) {
  Lease conn(*this);
  conn->call("insert_player", p.id, p.name, p.token_hash, p.rating, p.wins, p.losses, p.created_at);
}

std::optional<PlayerRecord> PgStore::find_player(std::string_view id) {
  Lease conn(*this);
  const PgResult r = conn->call("select_player", id);
  if (r.rows() == 0) return std::nullopt;
  return PlayerRecord{r.string(0, 0),  r.string(0, 1),  r.string(0, 2), r.int64(0, 3),
                      r.integer(0, 4), r.integer(0, 5), r.integer(0, 6)};
}

bool PgStore::insert_game(PgConnection& conn, const GameRecord& g) {
  const engine::GameConfig& c = g.config;
  return conn.call("insert_game", g.id, g.player_id, engine::to_string(c.mode), c.size, c.target,
                   c.seed, g.moves, g.score, g.max_tile, g.move_count, engine::to_string(g.state),
                   g.ranked, g.started_at, g.ended_at, g.room)
             .rows() == 1;
}

void PgStore::grant(PgConnection& conn, const GameRecord& g, std::string_view achievement,
                    std::vector<Grant>& granted) {
  if (conn.call("insert_achievement", g.player_id, achievement, g.id, g.ended_at).rows() == 1) {
    granted.push_back({g.player_id, std::string(achievement), g.id, g.ended_at});
  }
}

std::vector<Grant> PgStore::record_game(const GameRecord& g) {
  Lease conn(*this);
  PgTransaction tx(*conn);
  std::vector<protocol::Period> new_bests;  // the boards where g is the player's new best
  std::vector<Grant> granted;
  const bool inserted = insert_game(*conn, g);
  if (inserted) {
    for (const std::string_view id : earned_by(Feat{g})) grant(*conn, g, id, granted);
  }
  if (inserted && eligible_for_board(g)) {
    const auto [day, week] = periods_of(g.ended_at);
    const PgResult up = conn->call(
        g.config.mode == engine::Mode::fifteen ? "upsert_best_fifteen" : "upsert_best_2048",
        protocol::to_string(protocol::Period{}), protocol::to_string(day),
        protocol::to_string(week), g.player_id, engine::to_string(g.config.mode), g.config.size,
        g.score, g.max_tile, g.move_count, g.id, g.ended_at);
    for (int i = 0; i < up.rows(); ++i) {
      if (auto period = protocol::period_from_string(up.text(i, 0))) new_bests.push_back(*period);
    }
  }
  conn->call("delete_active", g.id);
  tx.commit();
  for (const protocol::Period& period : new_bests) {
    ranks_.put_best({g.config.mode, g.config.size, false, period}, g.player_id,
                    best_key(g.config.mode, g.score, g.max_tile, g.move_count));
  }
  return granted;
}

std::optional<GameRecord> PgStore::find_game(std::string_view id) {
  Lease conn(*this);
  const PgResult r = conn->call("select_game", id);
  if (r.rows() == 0) return std::nullopt;
  GameRecord g;
  g.id = r.string(0, 0);
  g.player_id = r.string(0, 1);
  g.config = config_from(r, 0, 2);
  g.moves = r.string(0, 6);
  g.score = r.int64(0, 7);
  g.max_tile = r.int64(0, 8);
  g.move_count = r.integer(0, 9);
  g.state = state_from_column(r.text(0, 10));
  g.ranked = r.boolean(0, 11);
  g.started_at = r.int64(0, 12);
  g.ended_at = r.int64(0, 13);
  g.room = r.string(0, 14);
  return g;
}

std::vector<Grant> PgStore::record_race(const RaceRecord& race) {
  // Players' rows are locked in id order, so two races finishing at once cannot deadlock.
  std::vector<const RatingUpdate*> ratings;
  for (const RatingUpdate& u : race.ratings) ratings.push_back(&u);
  std::sort(ratings.begin(), ratings.end(), [](const RatingUpdate* a, const RatingUpdate* b) {
    return a->player_id < b->player_id;
  });
  Lease conn(*this);
  PgTransaction tx(*conn);
  if (conn->call("insert_race", race.id, race.room, race.reason, race.winner, race.result,
                 race.ended_at)
          .rows() == 0) {
    return {};  // already recorded: the transaction rolls back, nothing changes
  }
  conn->call("delete_race", race.id);  // its racers go with it (ON DELETE CASCADE)
  for (const GameRecord& g : race.games) insert_game(*conn, g);
  std::vector<std::int64_t> versions;             // each racer's race count after this one
  std::vector<int> streaks(race.ratings.size());  // in race.ratings' order
  for (const RatingUpdate* u : ratings) {
    const PgResult r =
        conn->call("update_rating", u->after, u->won ? 1 : 0, u->lost ? 1 : 0, u->player_id);
    versions.push_back(r.rows() == 1 ? r.int64(0, 0) : 0);
    if (r.rows() == 1) streaks[u - race.ratings.data()] = r.integer(0, 2);
  }
  std::vector<Grant> granted;
  for (const Earned& e : earned_in(race, streaks)) grant(*conn, *e.game, e.achievement, granted);
  for (const RatingUpdate* u : ratings) {
    conn->call("insert_rating_point", u->player_id, race.id, race.ended_at, u->after);
  }
  for (const BotOutcome& o : race.against_bots) {
    conn->call("upsert_bot_record", o.player_id, engine::to_string(o.strength), o.won ? 1 : 0,
               o.lost ? 1 : 0, o.drawn ? 1 : 0);
  }
  tx.commit();
  for (std::size_t i = 0; i < ratings.size(); ++i) {
    if (versions[i] > 0) {
      ranks_.put(kRatingBoard, ratings[i]->player_id, rating_key(ratings[i]->after), versions[i]);
    }
  }
  return granted;
}

void PgStore::journal(const std::vector<ActiveGameRecord>& games) {
  if (games.empty()) return;
  Lease conn(*this);
  PgTransaction tx(*conn);
  for (const ActiveGameRecord& a : games) {
    if (a.from > 0) {
      conn->call("insert_piece", a.player_id, a.from, a.moves, a.game_id);
      continue;
    }
    conn->call("delete_pieces", a.player_id, a.game_id);
    const engine::GameConfig& c = a.config;
    conn->call("upsert_active", a.player_id, a.game_id, engine::to_string(c.mode), c.size, c.target,
               c.seed, a.explicit_seed, a.moves, a.started_at);
  }
  tx.commit();
}

std::optional<ActiveGameRecord> PgStore::find_active(std::string_view player_id) {
  Lease conn(*this);
  PgTransaction tx(*conn);  // the entry and its pieces as of one moment
  conn->exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
  const PgResult r = conn->call("select_active", player_id);
  if (r.rows() == 0) return std::nullopt;
  ActiveGameRecord a;
  a.player_id = r.string(0, 0);
  a.game_id = r.string(0, 1);
  a.config = config_from(r, 0, 2);
  a.explicit_seed = r.boolean(0, 6);
  a.moves = r.string(0, 7);
  a.started_at = r.int64(0, 8);
  const PgResult pieces = conn->call("select_pieces", player_id);
  for (int i = 0; i < pieces.rows(); ++i) {
    // Pieces are written in order; one that does not continue the moves ends them.
    if (pieces.int64(i, 0) != static_cast<std::int64_t>(a.moves.size())) break;
    a.moves += pieces.text(i, 1);
  }
  tx.commit();
  return a;
}

void PgStore::journal_races(const std::vector<ActiveRaceRecord>& races) {
  if (races.empty()) return;
  Lease conn(*this);
  PgTransaction tx(*conn);
  for (const ActiveRaceRecord& r : races) {
    const protocol::RoomOptions& o = r.options;
    conn->call("upsert_race", r.id, node_, r.room, engine::to_string(o.mode), o.size, o.target,
               r.seed, o.time_limit, o.max_players, o.is_public, o.max_moves_per_second, r.host,
               r.started_at, r.remaining_ms);
    conn->call("delete_racers", r.id);
    for (std::size_t i = 0; i < r.racers.size(); ++i) {
      const ActiveRacerRecord& a = r.racers[i];
      conn->call("insert_racer", r.id, i, a.player_id, a.game_id, a.moves,
                 engine::to_string(a.state), a.left);
    }
  }
  tx.commit();
}

std::vector<ActiveRaceRecord> PgStore::races_of(PgConnection& conn, const PgResult& r) {
  std::vector<ActiveRaceRecord> races;
  for (int i = 0; i < r.rows(); ++i) {
    ActiveRaceRecord race;
    race.id = r.string(i, 0);
    race.room = r.string(i, 1);
    const engine::GameConfig config = config_from(r, i, 2);
    race.options.mode = config.mode;
    race.options.size = config.size;
    race.options.target = config.target;
    race.seed = config.seed;
    race.options.time_limit = r.integer(i, 6);
    race.options.max_players = r.integer(i, 7);
    race.options.is_public = r.boolean(i, 8);
    race.options.max_moves_per_second = r.integer(i, 9);
    race.host = r.string(i, 10);
    race.started_at = r.int64(i, 11);
    race.remaining_ms = r.int64(i, 12);
    const PgResult racers = conn.call("select_racers", race.id);
    for (int j = 0; j < racers.rows(); ++j) {
      race.racers.push_back({racers.string(j, 0), racers.string(j, 1), racers.string(j, 2),
                             state_from_column(racers.text(j, 3)), racers.boolean(j, 4)});
    }
    races.push_back(std::move(race));
  }
  std::sort(races.begin(), races.end(), [](const ActiveRaceRecord& a, const ActiveRaceRecord& b) {
    return std::pair(a.started_at, a.id) < std::pair(b.started_at, b.id);
  });
  return races;
}

std::vector<ActiveRaceRecord> PgStore::active_races() {
  Lease conn(*this);
  PgTransaction tx(*conn);  // the races and their racers as of one moment
  conn->exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
  std::vector<ActiveRaceRecord> races = races_of(*conn, conn->call("select_races", node_));
  tx.commit();
  return races;
}

std::vector<ActiveRaceRecord> PgStore::adopt_races(std::string_view node) {
  Lease conn(*this);
  PgTransaction tx(*conn);
  std::vector<ActiveRaceRecord> races = races_of(*conn, conn->call("adopt_races", node, node_));
  tx.commit();
  return races;
}

std::optional<std::string> PgStore::race_room_of(std::string_view player_id) {
  Lease conn(*this);
  const PgResult r = conn->call("race_room_of", player_id);
  if (r.rows() == 0) return std::nullopt;
  return r.string(0, 0);
}

Leaderboard PgStore::leaderboard(const LeaderboardQuery& query) {
  Lease conn(*this);
  return query.kind == LeaderboardKind::rating ? rating_board(*conn, query)
                                               : score_board(*conn, query);
}

Leaderboard PgStore::score_board(PgConnection& conn, const LeaderboardQuery& q) {
  const bool fifteen = q.mode == engine::Mode::fifteen;
  const std::string_view mode = engine::to_string(q.mode);
  auto read = [](const PgResult& r, int i) {
    LeaderboardEntry e;
    e.player_id = r.string(i, 0);
    e.name = r.string(i, 1);
    e.score = r.int64(i, 2);
    e.max_tile = r.int64(i, 3);
    e.moves = r.integer(i, 4);
    e.game_id = r.string(i, 5);
    e.at = r.int64(i, 6);
    return e;
  };
  const BoardId id = board_of(q);
  Leaderboard board;
  const std::string period = protocol::to_string(q.period);
  board.entries =
      rows_of(conn.call(fifteen ? "top_fifteen" : "top_2048", period, mode, q.size, q.limit), read);
  rank_in_order(id, board.entries);
  if (q.player_id.empty()) return board;
  const PgResult mine = conn.call("best_of", period, mode, q.size, q.player_id);
  if (mine.rows() == 0) return board;
  LeaderboardEntry me = read(mine, 0);
  me.rank = ranks_.rank(id, me.player_id, entry_key(id, me));
  board.me = std::move(me);
  return board;
}

Leaderboard PgStore::rating_board(PgConnection& conn, const LeaderboardQuery& q) {
  auto read = [](const PgResult& r, int i) {
    LeaderboardEntry e;
    e.player_id = r.string(i, 0);
    e.name = r.string(i, 1);
    e.rating = r.integer(i, 2);
    e.wins = r.integer(i, 3);
    e.losses = r.integer(i, 4);
    return e;
  };
  Leaderboard board;
  board.entries = rows_of(conn.call("top_rating", q.limit), read);
  rank_in_order(kRatingBoard, board.entries);
  if (q.player_id.empty()) return board;
  const PgResult mine = conn.call("rating_of", q.player_id);
  if (mine.rows() == 0) return board;
  LeaderboardEntry me = read(mine, 0);
  me.rank = ranks_.rank(kRatingBoard, me.player_id, entry_key(kRatingBoard, me));
  board.me = std::move(me);
  return board;
}

std::vector<BotRecord> PgStore::bot_records(std::string_view player_id) {
  Lease conn(*this);
  auto read = [](const PgResult& r, int i) {
    // Only the three names are ever written.
    return BotRecord{
        engine::bot_strength_from_string(r.text(i, 0)).value_or(engine::BotStrength::medium),
        r.integer(i, 1), r.integer(i, 2), r.integer(i, 3)};
  };
  std::vector<BotRecord> records = rows_of(conn->call("select_bot_records", player_id), read);
  std::sort(records.begin(), records.end(),
            [](const BotRecord& a, const BotRecord& b) { return a.strength < b.strength; });
  return records;
}

std::optional<Profile> PgStore::profile(std::string_view player_id) {
  std::optional<PlayerRecord> player = find_player(player_id);
  if (!player) return std::nullopt;
  Profile p{std::move(*player), 0, {}, {}, {}, {}};
  Lease conn(*this);
  p.games = static_cast<int>(conn->call("count_games", player_id).int64(0, 0));
  p.bests = rows_of(conn->call("bests_of", player_id), [&](const PgResult& r, int i) {
    GameRecord g;
    g.player_id = std::string(player_id);
    g.config.mode = mode_of(r.text(i, 0));
    g.config.size = r.integer(i, 1);
    g.score = r.int64(i, 2);
    g.max_tile = r.int64(i, 3);
    g.move_count = r.integer(i, 4);
    g.id = r.string(i, 5);
    g.ended_at = r.int64(i, 6);
    return g;
  });
  p.ratings = rows_of(conn->call("rating_history", player_id), [](const PgResult& r, int i) {
    return std::pair<std::int64_t, int>(r.int64(i, 0), r.integer(i, 1));
  });
  p.races = rows_of(conn->call("recent_races", player_id), [&](const PgResult& r, int i) {
    GameRecord g;
    g.id = r.string(i, 0);
    g.player_id = std::string(player_id);
    g.config = config_from(r, i, 1);
    g.score = r.int64(i, 5);
    g.max_tile = r.int64(i, 6);
    g.move_count = r.integer(i, 7);
    g.state = state_from_column(r.text(i, 8));
    g.ended_at = r.int64(i, 9);
    g.room = r.string(i, 10);
    return g;
  });
  p.achievements = rows_of(conn->call("achievements_of", player_id), [&](const PgResult& r, int i) {
    return Grant{std::string(player_id), r.string(i, 0), r.string(i, 1), r.int64(i, 2)};
  });
  order_grants(p.achievements);
  return p;
}

}  // namespace tilerace::server
