#include "server/store/sqlite_store.hpp"

#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>

#include "server/store/achievements.hpp"

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
};

// utc_day(ms) and iso_week(ms): the names of the day and the ISO week holding a Unix
// millisecond instant, for SQL (the migration that fills in past periods).
template <protocol::PeriodKind kind>
void period_function(sqlite3_context* context, int, sqlite3_value** args) {
  const std::string name = protocol::to_string(
      protocol::period_containing(kind, std::max<sqlite3_int64>(0, sqlite3_value_int64(args[0]))));
  sqlite3_result_text(context, name.c_str(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
}

std::unique_ptr<SQLite::Statement> prepare(SQLite::Database& db, const char* sql) {
  return std::make_unique<SQLite::Statement>(db, sql);
}

// Resets a prepared statement when the scope ends, whatever happened.
struct Reset {
  SQLite::Statement& statement;
  ~Reset() {
    statement.tryReset();
    statement.clearBindings();
  }
};

engine::Mode mode_of(const std::string& name) {
  return engine::mode_from_string(name).value_or(engine::Mode::classic);
}

// A game's config lives in four columns, mode, size, target and seed (a decimal string: SQLite
// integers are signed), bound from parameter or read from column `first` on.
void bind_config(SQLite::Statement& s, int first, const engine::GameConfig& c) {
  s.bind(first, std::string(engine::to_string(c.mode)));
  s.bind(first + 1, c.size);
  s.bind(first + 2, static_cast<std::int64_t>(c.target));
  s.bind(first + 3, std::to_string(c.seed));
}

engine::GameConfig config_from(SQLite::Statement& s, int first) {
  engine::GameConfig c;
  c.mode = mode_of(s.getColumn(first).getString());
  c.size = s.getColumn(first + 1).getInt();
  c.target = s.getColumn(first + 2).getInt64();
  c.seed = std::stoull(s.getColumn(first + 3).getString());
  return c;
}

// Steps a query, reading each row with read.
template <class Read>
std::vector<LeaderboardEntry> rows_of(SQLite::Statement& s, Read read) {
  std::vector<LeaderboardEntry> rows;
  while (s.executeStep()) rows.push_back(read(s));
  return rows;
}

}  // namespace

SqliteStore::SqliteStore(const std::filesystem::path& path)
    : db_(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE) {
  db_.exec("PRAGMA journal_mode = WAL");
  db_.exec("PRAGMA synchronous = FULL");
  db_.exec("PRAGMA busy_timeout = 5000");
  db_.exec("PRAGMA foreign_keys = ON");
  db_.createFunction("utc_day", 1, true, nullptr, period_function<protocol::PeriodKind::day>);
  db_.createFunction("iso_week", 1, true, nullptr, period_function<protocol::PeriodKind::week>);
  migrate();
  insert_player_ = prepare(
      db_,
      "INSERT OR IGNORE INTO players (id, name, token_hash, rating, wins, losses, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?)");
  select_player_ = prepare(
      db_,
      "SELECT id, name, token_hash, created_at, rating, wins, losses FROM players WHERE id = ?");
  insert_game_ =
      prepare(db_,
              "INSERT OR IGNORE INTO games (id, player_id, mode, size, target, seed, moves, score, "
              "max_tile, move_count, state, ranked, started_at, ended_at, room) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  select_game_ = prepare(
      db_,
      "SELECT id, player_id, mode, size, target, seed, moves, score, max_tile, move_count, state, "
      "ranked, started_at, ended_at, room FROM games WHERE id = ?");
  // A game's result on its three boards (?1–?3: all time, its day, its week); RETURNING names
  // the boards where it is the player's new best.
  upsert_best_2048_ = prepare(
      db_,
      "INSERT INTO period_results VALUES (?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), "
      "(?2, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
      "ON CONFLICT (period, player_id, mode, size) DO UPDATE SET score = excluded.score, "
      "max_tile = excluded.max_tile, move_count = excluded.move_count, "
      "game_id = excluded.game_id, ended_at = excluded.ended_at "
      "WHERE excluded.score > score OR (excluded.score = score AND (excluded.max_tile > max_tile "
      "OR (excluded.max_tile = max_tile AND excluded.move_count < move_count))) "
      "RETURNING period");
  upsert_best_fifteen_ =
      prepare(db_,
              "INSERT INTO period_results VALUES (?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), "
              "(?2, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11), (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
              "ON CONFLICT (period, player_id, mode, size) DO UPDATE SET score = excluded.score, "
              "max_tile = excluded.max_tile, move_count = excluded.move_count, "
              "game_id = excluded.game_id, ended_at = excluded.ended_at "
              "WHERE excluded.move_count < move_count RETURNING period");
  delete_active_ = prepare(db_, "DELETE FROM active_games WHERE game_id = ?");
  insert_race_ = prepare(db_,
                         "INSERT OR IGNORE INTO races (id, room, reason, winner, result, ended_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)");
  upsert_bot_record_ = prepare(
      db_,
      "INSERT INTO bot_records VALUES (?, ?, ?, ?, ?) ON CONFLICT (player_id, strength) DO UPDATE "
      "SET wins = bot_records.wins + excluded.wins, losses = bot_records.losses + "
      "excluded.losses, draws = bot_records.draws + excluded.draws");
  insert_rating_point_ = prepare(db_, "INSERT OR IGNORE INTO rating_history VALUES (?, ?, ?, ?)");
  select_bot_records_ =
      prepare(db_, "SELECT strength, wins, losses, draws FROM bot_records WHERE player_id = ?");
  update_rating_ = prepare(
      db_,
      "UPDATE players SET rating = ?1, wins = wins + ?2, losses = losses + ?3, races = races + 1, "
      "streak = CASE WHEN ?2 > 0 THEN streak + 1 ELSE 0 END WHERE id = ?4 RETURNING races, "
      "streak");
  insert_achievement_ = prepare(db_, "INSERT OR IGNORE INTO achievements VALUES (?, ?, ?, ?)");
  upsert_active_ = prepare(
      db_,
      "INSERT INTO active_games SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? "
      "WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = ?2) "
      "ON CONFLICT (player_id) DO UPDATE SET game_id = excluded.game_id, mode = excluded.mode, "
      "size = excluded.size, target = excluded.target, seed = excluded.seed, "
      "explicit_seed = excluded.explicit_seed, moves = excluded.moves, "
      "started_at = excluded.started_at");
  // Only when the entry itself is written (its game not recorded yet).
  delete_pieces_ = prepare(db_,
                           "DELETE FROM active_moves WHERE player_id = ? "
                           "AND NOT EXISTS (SELECT 1 FROM games WHERE id = ?)");
  insert_piece_ = prepare(db_,
                          "INSERT OR REPLACE INTO active_moves SELECT ?1, ?2, ?3 "
                          "WHERE EXISTS (SELECT 1 FROM active_games WHERE player_id = ?1 "
                          "AND game_id = ?4)");
  select_pieces_ =
      prepare(db_, "SELECT first, moves FROM active_moves WHERE player_id = ? ORDER BY first");
  select_active_ = prepare(
      db_,
      "SELECT player_id, game_id, mode, size, target, seed, explicit_seed, moves, started_at "
      "FROM active_games WHERE player_id = ?");
  upsert_race_ = prepare(
      db_,
      "INSERT INTO active_races SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
      "WHERE NOT EXISTS (SELECT 1 FROM races WHERE id = ?1) "
      "ON CONFLICT (id) DO UPDATE SET host = excluded.host, remaining_ms = excluded.remaining_ms");
  delete_racers_ = prepare(db_, "DELETE FROM active_racers WHERE race_id = ?");
  insert_racer_ = prepare(db_,
                          "INSERT INTO active_racers SELECT ?, ?, ?, ?, ?, ?, ? "
                          "WHERE EXISTS (SELECT 1 FROM active_races WHERE id = ?1)");
  delete_race_ = prepare(db_, "DELETE FROM active_races WHERE id = ?");
  top_2048_ = prepare(
      db_,
      "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at "
      "FROM period_results b JOIN players p ON p.id = b.player_id WHERE b.period = ? AND "
      "b.mode = ? AND b.size = ? "
      "ORDER BY b.score DESC, b.max_tile DESC, b.move_count, b.ended_at, b.player_id LIMIT ?");
  top_fifteen_ = prepare(
      db_,
      "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at "
      "FROM period_results b JOIN players p ON p.id = b.player_id WHERE b.period = ? AND "
      "b.mode = ? AND b.size = ? ORDER BY b.move_count, b.ended_at, b.player_id LIMIT ?");
  best_of_ = prepare(
      db_,
      "SELECT b.player_id, p.name, b.score, b.max_tile, b.move_count, b.game_id, b.ended_at "
      "FROM period_results b JOIN players p ON p.id = b.player_id "
      "WHERE b.period = ? AND b.mode = ? AND b.size = ? AND b.player_id = ?");
  top_rating_ = prepare(db_,
                        "SELECT id, name, rating, wins, losses FROM players WHERE races > 0 "
                        "ORDER BY rating DESC, id LIMIT ?");
  rating_of_ =
      prepare(db_, "SELECT id, name, rating, wins, losses FROM players WHERE races > 0 AND id = ?");
  fill_ranks();
}

void SqliteStore::fill_ranks() {
  SQLite::Statement best(db_,
                         "SELECT mode, size, player_id, score, max_tile, move_count, period "
                         "FROM period_results");
  while (best.executeStep()) {
    const auto period = protocol::period_from_string(best.getColumn(6).getString());
    if (!period) continue;
    const engine::Mode mode = mode_of(best.getColumn(0).getString());
    ranks_.put_best({mode, best.getColumn(1).getInt(), false, *period},
                    best.getColumn(2).getString(),
                    best_key(mode, best.getColumn(3).getInt64(), best.getColumn(4).getInt64(),
                             best.getColumn(5).getInt64()));
  }
  SQLite::Statement rated(db_, "SELECT id, rating, races FROM players WHERE races > 0");
  while (rated.executeStep()) {
    ranks_.put(kRatingBoard, rated.getColumn(0).getString(),
               rating_key(rated.getColumn(1).getInt64()), rated.getColumn(2).getInt64());
  }
}

void SqliteStore::migrate() {
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

void SqliteStore::add_player(const PlayerRecord& p) {
  SQLite::Statement& s = *insert_player_;
  Reset reset{s};
  SQLite::Transaction tx(db_);
  s.bind(1, p.id);
  s.bind(2, p.name);
  s.bind(3, p.token_hash);
  s.bind(4, p.rating);
  s.bind(5, p.wins);
  s.bind(6, p.losses);
  s.bind(7, static_cast<std::int64_t>(p.created_at));
  s.exec();
  tx.commit();
}

std::optional<PlayerRecord> SqliteStore::find_player(std::string_view id) {
  SQLite::Statement& s = *select_player_;
  Reset reset{s};
  s.bind(1, std::string(id));
  if (!s.executeStep()) return std::nullopt;
  return PlayerRecord{s.getColumn(0).getString(), s.getColumn(1).getString(),
                      s.getColumn(2).getString(), s.getColumn(3).getInt64(),
                      s.getColumn(4).getInt(),    s.getColumn(5).getInt(),
                      s.getColumn(6).getInt()};
}

bool SqliteStore::insert_game(const GameRecord& g) {
  SQLite::Statement& s = *insert_game_;
  Reset reset{s};
  s.bind(1, g.id);
  s.bind(2, g.player_id);
  bind_config(s, 3, g.config);
  s.bind(7, g.moves);
  s.bind(8, static_cast<std::int64_t>(g.score));
  s.bind(9, static_cast<std::int64_t>(g.max_tile));
  s.bind(10, g.move_count);
  s.bind(11, std::string(engine::to_string(g.state)));
  s.bind(12, g.ranked ? 1 : 0);
  s.bind(13, static_cast<std::int64_t>(g.started_at));
  s.bind(14, static_cast<std::int64_t>(g.ended_at));
  s.bind(15, g.room);
  return s.exec() == 1;
}

void SqliteStore::grant(const GameRecord& g, std::string_view achievement,
                        std::vector<Grant>& granted) {
  SQLite::Statement& s = *insert_achievement_;
  Reset reset{s};
  s.bind(1, g.player_id);
  s.bind(2, std::string(achievement));
  s.bind(3, g.id);
  s.bind(4, static_cast<std::int64_t>(g.ended_at));
  if (s.exec() == 1) granted.push_back({g.player_id, std::string(achievement), g.id, g.ended_at});
}

std::vector<Grant> SqliteStore::record_game(const GameRecord& g) {
  SQLite::Transaction tx(db_);
  std::vector<protocol::Period> new_bests;  // the boards where g is the player's new best
  std::vector<Grant> granted;
  const bool inserted = insert_game(g);
  if (inserted) {
    for (const std::string_view id : earned_by(Feat{g})) grant(g, id, granted);
  }
  if (inserted && eligible_for_board(g)) {
    SQLite::Statement& s =
        g.config.mode == engine::Mode::fifteen ? *upsert_best_fifteen_ : *upsert_best_2048_;
    Reset reset{s};
    const auto [day, week] = periods_of(g.ended_at);
    s.bind(1, protocol::to_string(protocol::Period{}));
    s.bind(2, protocol::to_string(day));
    s.bind(3, protocol::to_string(week));
    s.bind(4, g.player_id);
    s.bind(5, std::string(engine::to_string(g.config.mode)));
    s.bind(6, g.config.size);
    s.bind(7, static_cast<std::int64_t>(g.score));
    s.bind(8, static_cast<std::int64_t>(g.max_tile));
    s.bind(9, g.move_count);
    s.bind(10, g.id);
    s.bind(11, static_cast<std::int64_t>(g.ended_at));
    while (s.executeStep()) {
      if (auto period = protocol::period_from_string(s.getColumn(0).getString())) {
        new_bests.push_back(*period);
      }
    }
  }
  {
    Reset reset{*delete_active_};
    delete_active_->bind(1, g.id);
    delete_active_->exec();
  }
  tx.commit();
  for (const protocol::Period& period : new_bests) {
    ranks_.put_best({g.config.mode, g.config.size, false, period}, g.player_id,
                    best_key(g.config.mode, g.score, g.max_tile, g.move_count));
  }
  return granted;
}

std::optional<GameRecord> SqliteStore::find_game(std::string_view id) {
  SQLite::Statement& s = *select_game_;
  Reset reset{s};
  s.bind(1, std::string(id));
  if (!s.executeStep()) return std::nullopt;
  GameRecord g;
  g.id = s.getColumn(0).getString();
  g.player_id = s.getColumn(1).getString();
  g.config = config_from(s, 2);
  g.moves = s.getColumn(6).getString();
  g.score = s.getColumn(7).getInt64();
  g.max_tile = s.getColumn(8).getInt64();
  g.move_count = s.getColumn(9).getInt();
  g.state = state_from_column(s.getColumn(10).getString());
  g.ranked = s.getColumn(11).getInt() != 0;
  g.started_at = s.getColumn(12).getInt64();
  g.ended_at = s.getColumn(13).getInt64();
  g.room = s.getColumn(14).getString();
  return g;
}

std::vector<Grant> SqliteStore::record_race(const RaceRecord& race) {
  SQLite::Transaction tx(db_);
  {
    SQLite::Statement& s = *insert_race_;
    Reset reset{s};
    s.bind(1, race.id);
    s.bind(2, race.room);
    s.bind(3, race.reason);
    s.bind(4, race.winner);
    s.bind(5, race.result);
    s.bind(6, static_cast<std::int64_t>(race.ended_at));
    if (s.exec() == 0) return {};  // already recorded: the transaction rolls back
  }
  {
    Reset reset{*delete_race_};
    delete_race_->bind(1, race.id);
    delete_race_->exec();  // its racers go with it (ON DELETE CASCADE)
  }
  for (const GameRecord& g : race.games) insert_game(g);
  std::vector<std::int64_t> versions;  // each racer's race count after this one
  std::vector<int> streaks;            // and their race win streak
  for (const RatingUpdate& u : race.ratings) {
    SQLite::Statement& s = *update_rating_;
    Reset reset{s};
    s.bind(1, u.after);
    s.bind(2, u.won ? 1 : 0);
    s.bind(3, u.lost ? 1 : 0);
    s.bind(4, u.player_id);
    const bool found = s.executeStep();
    versions.push_back(found ? s.getColumn(0).getInt64() : 0);
    streaks.push_back(found ? s.getColumn(1).getInt() : 0);
  }
  std::vector<Grant> granted;
  for (const Earned& e : earned_in(race, streaks)) grant(*e.game, e.achievement, granted);
  for (const RatingUpdate& u : race.ratings) {
    SQLite::Statement& s = *insert_rating_point_;
    Reset reset{s};
    s.bind(1, u.player_id);
    s.bind(2, race.id);
    s.bind(3, static_cast<std::int64_t>(race.ended_at));
    s.bind(4, u.after);
    s.exec();
  }
  for (const BotOutcome& o : race.against_bots) {
    SQLite::Statement& s = *upsert_bot_record_;
    Reset reset{s};
    s.bind(1, o.player_id);
    s.bind(2, std::string(engine::to_string(o.strength)));
    s.bind(3, o.won ? 1 : 0);
    s.bind(4, o.lost ? 1 : 0);
    s.bind(5, o.drawn ? 1 : 0);
    s.exec();
  }
  tx.commit();
  for (std::size_t i = 0; i < race.ratings.size(); ++i) {
    if (versions[i] > 0) {
      ranks_.put(kRatingBoard, race.ratings[i].player_id, rating_key(race.ratings[i].after),
                 versions[i]);
    }
  }
  return granted;
}

void SqliteStore::journal(const std::vector<ActiveGameRecord>& games) {
  if (games.empty()) return;
  SQLite::Transaction tx(db_);
  for (const ActiveGameRecord& a : games) {
    if (a.from > 0) {
      SQLite::Statement& s = *insert_piece_;
      Reset reset{s};
      s.bind(1, a.player_id);
      s.bind(2, static_cast<std::int64_t>(a.from));
      s.bind(3, a.moves);
      s.bind(4, a.game_id);
      s.exec();
      continue;
    }
    {
      Reset reset{*delete_pieces_};
      delete_pieces_->bind(1, a.player_id);
      delete_pieces_->bind(2, a.game_id);
      delete_pieces_->exec();
    }
    SQLite::Statement& s = *upsert_active_;
    Reset reset{s};
    s.bind(1, a.player_id);
    s.bind(2, a.game_id);
    bind_config(s, 3, a.config);
    s.bind(7, a.explicit_seed ? 1 : 0);
    s.bind(8, a.moves);
    s.bind(9, static_cast<std::int64_t>(a.started_at));
    s.exec();
  }
  tx.commit();
}

std::optional<ActiveGameRecord> SqliteStore::find_active(std::string_view player_id) {
  SQLite::Statement& s = *select_active_;
  Reset reset{s};
  s.bind(1, std::string(player_id));
  if (!s.executeStep()) return std::nullopt;
  ActiveGameRecord a;
  a.player_id = s.getColumn(0).getString();
  a.game_id = s.getColumn(1).getString();
  a.config = config_from(s, 2);
  a.explicit_seed = s.getColumn(6).getInt() != 0;
  a.moves = s.getColumn(7).getString();
  a.started_at = s.getColumn(8).getInt64();
  Reset pieces_reset{*select_pieces_};
  select_pieces_->bind(1, a.player_id);
  while (select_pieces_->executeStep()) {
    // Pieces are written in order; one that does not continue the moves ends them.
    if (select_pieces_->getColumn(0).getInt64() != static_cast<std::int64_t>(a.moves.size())) break;
    a.moves += select_pieces_->getColumn(1).getString();
  }
  return a;
}

void SqliteStore::journal_races(const std::vector<ActiveRaceRecord>& races) {
  if (races.empty()) return;
  SQLite::Transaction tx(db_);
  for (const ActiveRaceRecord& r : races) {
    {
      SQLite::Statement& s = *upsert_race_;
      Reset reset{s};
      s.bind(1, r.id);
      s.bind(2, r.room);
      bind_config(s, 3, {r.options.mode, r.options.size, r.options.target, r.seed});
      s.bind(7, r.options.time_limit);
      s.bind(8, r.options.max_players);
      s.bind(9, r.options.is_public ? 1 : 0);
      s.bind(10, r.options.max_moves_per_second);
      s.bind(11, r.host);
      s.bind(12, static_cast<std::int64_t>(r.started_at));
      s.bind(13, static_cast<std::int64_t>(r.remaining_ms));
      s.exec();
    }
    {
      Reset reset{*delete_racers_};
      delete_racers_->bind(1, r.id);
      delete_racers_->exec();
    }
    for (std::size_t i = 0; i < r.racers.size(); ++i) {
      const ActiveRacerRecord& a = r.racers[i];
      SQLite::Statement& s = *insert_racer_;
      Reset reset{s};
      s.bind(1, r.id);
      s.bind(2, static_cast<int>(i));
      s.bind(3, a.player_id);
      s.bind(4, a.game_id);
      s.bind(5, a.moves);
      s.bind(6, std::string(engine::to_string(a.state)));
      s.bind(7, a.left ? 1 : 0);
      s.exec();
    }
  }
  tx.commit();
}

std::vector<ActiveRaceRecord> SqliteStore::active_races() {
  std::vector<ActiveRaceRecord> races;
  SQLite::Statement s(db_,
                      "SELECT id, room, mode, size, target, seed, time_limit, max_players, public, "
                      "max_moves_per_second, host, started_at, remaining_ms FROM active_races "
                      "ORDER BY started_at, id");
  while (s.executeStep()) {
    ActiveRaceRecord r;
    r.id = s.getColumn(0).getString();
    r.room = s.getColumn(1).getString();
    const engine::GameConfig config = config_from(s, 2);
    r.options.mode = config.mode;
    r.options.size = config.size;
    r.options.target = config.target;
    r.seed = config.seed;
    r.options.time_limit = s.getColumn(6).getInt();
    r.options.max_players = s.getColumn(7).getInt();
    r.options.is_public = s.getColumn(8).getInt() != 0;
    r.options.max_moves_per_second = s.getColumn(9).getInt();
    r.host = s.getColumn(10).getString();
    r.started_at = s.getColumn(11).getInt64();
    r.remaining_ms = s.getColumn(12).getInt64();
    races.push_back(std::move(r));
  }
  SQLite::Statement racers(db_,
                           "SELECT player_id, game_id, moves, state, left_race FROM active_racers "
                           "WHERE race_id = ? ORDER BY position");
  for (ActiveRaceRecord& r : races) {
    Reset reset{racers};
    racers.bind(1, r.id);
    while (racers.executeStep()) {
      r.racers.push_back({racers.getColumn(0).getString(), racers.getColumn(1).getString(),
                          racers.getColumn(2).getString(),
                          state_from_column(racers.getColumn(3).getString()),
                          racers.getColumn(4).getInt() != 0});
    }
  }
  return races;
}

Leaderboard SqliteStore::leaderboard(const LeaderboardQuery& query) {
  return query.kind == LeaderboardKind::rating ? rating_board(query) : score_board(query);
}

Leaderboard SqliteStore::score_board(const LeaderboardQuery& q) {
  const bool fifteen = q.mode == engine::Mode::fifteen;
  const std::string mode(engine::to_string(q.mode));
  const std::string period = protocol::to_string(q.period);
  auto read = [](SQLite::Statement& s) {
    LeaderboardEntry e;
    e.player_id = s.getColumn(0).getString();
    e.name = s.getColumn(1).getString();
    e.score = s.getColumn(2).getInt64();
    e.max_tile = s.getColumn(3).getInt64();
    e.moves = s.getColumn(4).getInt();
    e.game_id = s.getColumn(5).getString();
    e.at = s.getColumn(6).getInt64();
    return e;
  };
  const BoardId id = board_of(q);
  Leaderboard board;
  {
    SQLite::Statement& s = fifteen ? *top_fifteen_ : *top_2048_;
    Reset reset{s};
    s.bind(1, period);
    s.bind(2, mode);
    s.bind(3, q.size);
    s.bind(4, q.limit);
    board.entries = rows_of(s, read);
    rank_in_order(id, board.entries);
  }
  if (q.player_id.empty()) return board;
  SQLite::Statement& s = *best_of_;
  Reset reset{s};
  s.bind(1, period);
  s.bind(2, mode);
  s.bind(3, q.size);
  s.bind(4, q.player_id);
  if (!s.executeStep()) return board;
  LeaderboardEntry me = read(s);
  me.rank = ranks_.rank(id, me.player_id, entry_key(id, me));
  board.me = std::move(me);
  return board;
}

Leaderboard SqliteStore::rating_board(const LeaderboardQuery& q) {
  auto read = [](SQLite::Statement& s) {
    LeaderboardEntry e;
    e.player_id = s.getColumn(0).getString();
    e.name = s.getColumn(1).getString();
    e.rating = s.getColumn(2).getInt();
    e.wins = s.getColumn(3).getInt();
    e.losses = s.getColumn(4).getInt();
    return e;
  };
  Leaderboard board;
  {
    SQLite::Statement& s = *top_rating_;
    Reset reset{s};
    s.bind(1, q.limit);
    board.entries = rows_of(s, read);
    rank_in_order(kRatingBoard, board.entries);
  }
  if (q.player_id.empty()) return board;
  SQLite::Statement& s = *rating_of_;
  Reset reset{s};
  s.bind(1, q.player_id);
  if (!s.executeStep()) return board;
  LeaderboardEntry me = read(s);
  me.rank = ranks_.rank(kRatingBoard, me.player_id, entry_key(kRatingBoard, me));
  board.me = std::move(me);
  return board;
}

std::vector<BotRecord> SqliteStore::bot_records(std::string_view player_id) {
  SQLite::Statement& s = *select_bot_records_;
  Reset reset{s};
  s.bind(1, std::string(player_id));
  std::vector<BotRecord> records;
  while (s.executeStep()) {
    const auto strength = engine::bot_strength_from_string(s.getColumn(0).getString());
    if (!strength) continue;
    records.push_back(
        {*strength, s.getColumn(1).getInt(), s.getColumn(2).getInt(), s.getColumn(3).getInt()});
  }
  std::sort(records.begin(), records.end(),
            [](const BotRecord& a, const BotRecord& b) { return a.strength < b.strength; });
  return records;
}

std::optional<Profile> SqliteStore::profile(std::string_view player_id) {
  std::optional<PlayerRecord> player = find_player(player_id);
  if (!player) return std::nullopt;
  Profile p{std::move(*player), 0, {}, {}, {}, {}};
  const std::string id(player_id);
  SQLite::Statement count(db_, "SELECT COUNT(*) FROM games WHERE player_id = ?");
  count.bind(1, id);
  if (count.executeStep()) p.games = count.getColumn(0).getInt();
  SQLite::Statement bests(db_,
                          "SELECT mode, size, score, max_tile, move_count, game_id, ended_at "
                          "FROM period_results WHERE period = 'all-time' AND player_id = ? "
                          "ORDER BY mode, size");
  bests.bind(1, id);
  while (bests.executeStep()) {
    GameRecord g;
    g.player_id = id;
    g.config.mode = mode_of(bests.getColumn(0).getString());
    g.config.size = bests.getColumn(1).getInt();
    g.score = bests.getColumn(2).getInt64();
    g.max_tile = bests.getColumn(3).getInt64();
    g.move_count = bests.getColumn(4).getInt();
    g.id = bests.getColumn(5).getString();
    g.ended_at = bests.getColumn(6).getInt64();
    p.bests.push_back(std::move(g));
  }
  SQLite::Statement ratings(
      db_, "SELECT at, rating FROM rating_history WHERE player_id = ? ORDER BY at, race_id");
  ratings.bind(1, id);
  while (ratings.executeStep()) {
    p.ratings.emplace_back(ratings.getColumn(0).getInt64(), ratings.getColumn(1).getInt());
  }
  SQLite::Statement races(db_,
                          "SELECT id, mode, size, target, seed, score, max_tile, move_count, "
                          "state, ended_at, room FROM games WHERE player_id = ? AND room <> '' "
                          "ORDER BY ended_at DESC, id LIMIT 10");
  races.bind(1, id);
  while (races.executeStep()) {
    GameRecord g;
    g.id = races.getColumn(0).getString();
    g.player_id = id;
    g.config = config_from(races, 1);
    g.score = races.getColumn(5).getInt64();
    g.max_tile = races.getColumn(6).getInt64();
    g.move_count = races.getColumn(7).getInt();
    g.state = state_from_column(races.getColumn(8).getString());
    g.ended_at = races.getColumn(9).getInt64();
    g.room = races.getColumn(10).getString();
    p.races.push_back(std::move(g));
  }
  SQLite::Statement granted(db_,
                            "SELECT achievement, game_id, at FROM achievements WHERE player_id = ? "
                            "ORDER BY at, achievement");
  granted.bind(1, id);
  while (granted.executeStep()) {
    p.achievements.push_back({id, granted.getColumn(0).getString(),
                              granted.getColumn(1).getString(), granted.getColumn(2).getInt64()});
  }
  order_grants(p.achievements);
  return p;
}

}  // namespace tilerace::server
