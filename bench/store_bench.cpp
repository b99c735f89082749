// Storage benchmarks, side by side for both backends: a real SQLite file (WAL,
// synchronous=FULL) and a real PostgreSQL server (a throwaway one on loopback, fsync on,
// synchronous_commit on). Finished games recorded per second, each its own durable commit,
// and leaderboard queries against 1,000,000 best results (the rank from the RankCache), on
// the all-time board and on a week's board of the same size.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <benchmark/benchmark.h>
#include <fmt/core.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "server/store/pg_dialect.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/pg_cluster.hpp"
#include "tests/temp_dir.hpp"

namespace {

using namespace tilerace;
using tilerace::testing::PgCluster;
using tilerace::testing::TempDir;

enum Backend : int { kSqlite = 0, kPostgresql = 1 };

const char* name_of(std::int64_t backend) { return backend == kSqlite ? "sqlite" : "postgresql"; }

server::GameRecord finished(std::int64_t i) {
  server::GameRecord g;
  g.id = fmt::format("g{}", i);
  g.player_id = fmt::format("p{}", i % 1000);
  g.config = {engine::Mode::classic, 4, 2048, static_cast<std::uint64_t>(i)};
  g.moves = std::string(400, 'L');
  g.score = (i * 7919) % 50000;
  g.max_tile = 1024;
  g.move_count = 400;
  g.state = engine::GameState::over;
  g.ranked = true;
  g.started_at = i;
  g.ended_at = i + 1;
  return g;
}

// A fresh, empty store of the backend; dir holds SQLite's file.
std::unique_ptr<server::Store> empty_store(std::int64_t backend, const TempDir& dir) {
  if (backend == kSqlite) return std::make_unique<server::SqliteStore>(dir.path() / "bench.db");
  return std::make_unique<server::PgStore>(PgCluster::shared().create_database(), "bench");
}

// One game per iteration, each its own durable transaction.
void BM_RecordGame(benchmark::State& state) {
  TempDir dir;
  auto store = empty_store(state.range(0), dir);
  for (int p = 0; p < 1000; ++p) {
    const std::string id = fmt::format("p{}", p);
    store->add_player({id, id, id, 0}, std::nullopt);
  }
  std::int64_t i = 0;
  for (auto _ : state) store->record_game(finished(i++));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(name_of(state.range(0)));
}
BENCHMARK(BM_RecordGame)
    ->Arg(kSqlite)
    ->Arg(kPostgresql)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// Group commit: range(1) games per transaction (as the StoreWorker gathers games that end close
// together), SQLite; time and items are per game.
void BM_RecordGamesTogether(benchmark::State& state) {
  TempDir dir;
  auto store = empty_store(kSqlite, dir);
  for (int p = 0; p < 1000; ++p) {
    const std::string id = fmt::format("p{}", p);
    store->add_player({id, id, id, 0}, std::nullopt);
  }
  const auto per_group = static_cast<std::size_t>(state.range(0));
  std::vector<server::GameRecord> group(per_group);
  std::vector<server::Finished> items;
  for (const server::GameRecord& g : group) items.emplace_back(&g);
  std::int64_t i = 0;
  for (auto _ : state) {
    for (server::GameRecord& g : group) g = finished(i++);
    store->record_finished(items);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetLabel(fmt::format("sqlite, {} a transaction", per_group));
}
BENCHMARK(BM_RecordGamesTogether)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

constexpr int kRows = 1000000;
constexpr const char* kWeek = "2026-W47";  // every result is also on this week's board

std::int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * ::sysconf(_SC_PAGESIZE);
}

// A store whose classic 4×4 board holds kRows players' best results, all time and in the week
// kWeek (2 × kRows cache entries), built once per backend
// with the database's own bulk insert; opening it fills the rank cache (timed, and its memory
// measured).
struct BigBoard {
  explicit BigBoard(std::int64_t backend) {
    if (backend == kSqlite) {
      { server::SqliteStore schema(dir.path() / "big.db"); }
      SQLite::Database db((dir.path() / "big.db").string(), SQLite::OPEN_READWRITE);
      db.exec(fmt::format(
          "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < {0}) "
          "INSERT INTO players (id, name, name_key, created_at) SELECT printf('%016x', i), "
          "printf('n%016x', i), printf('n%016x', i), 0 FROM n;"
          "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < {0}) "
          "INSERT INTO period_results SELECT p.period, printf('%016x', i), 'classic', 4, "
          "(i * 7919) % 200000, 1024, 300 + i % 500, 'g' || i, i FROM n, (SELECT 'all-time' AS "
          "period UNION ALL SELECT '{1}') p; ANALYZE",
          kRows, kWeek));
    } else {
      url = PgCluster::shared().create_database();
      { server::PgStore schema(url, "bench"); }
      server::PgConnection db(url);
      db.exec(
          fmt::format("INSERT INTO players (id, name, name_key, created_at) SELECT "
                      "lpad(to_hex(i), 16, '0'), 'n' || lpad(to_hex(i), 16, '0'), "
                      "'n' || lpad(to_hex(i), 16, '0'), 0 FROM generate_series(0, {0} - 1) i;"
                      "INSERT INTO period_results SELECT p, lpad(to_hex(i), 16, '0'), 'classic', "
                      "4, (i::bigint * 7919) % 200000, 1024, 300 + i % 500, 'g' || i, i "
                      "FROM generate_series(0, {0} - 1) i, (VALUES ('all-time'), ('{1}')) AS "
                      "v (p); ANALYZE",
                      kRows, kWeek)
              .c_str());
    }
    const std::int64_t before = resident_bytes();
    const auto start = std::chrono::steady_clock::now();
    if (backend == kSqlite) {
      store = std::make_unique<server::SqliteStore>(dir.path() / "big.db");
    } else {
      store = std::make_unique<server::PgStore>(url, "bench");
    }
    open_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cache_bytes_per_row = static_cast<double>(resident_bytes() - before) / (2.0 * kRows);
  }
  TempDir dir;
  std::string url;
  std::unique_ptr<server::Store> store;
  double open_seconds = 0;
  double cache_bytes_per_row = 0;
};

// Built on first use; each finishes constructing after the PostgreSQL server it may start,
// so it is destroyed before that server stops.
BigBoard& big_board(std::int64_t backend) {
  if (backend == kSqlite) {
    static BigBoard sqlite(kSqlite);
    return sqlite;
  }
  static BigBoard postgres(kPostgresql);
  return postgres;
}

// range(0): the backend; range(1): 0 for the all-time board, 1 for the week's.
void leaderboard(benchmark::State& state, const std::string& me) {
  BigBoard& big = big_board(state.range(0));
  const protocol::Period period =
      state.range(1) == 0 ? protocol::Period{} : *protocol::period_from_string(kWeek);
  for (auto _ : state) {
    auto board = big.store->leaderboard(
        {engine::Mode::classic, 4, server::BoardKind::score, 10, me, period});
    benchmark::DoNotOptimize(board);
  }
  state.counters["rows"] = kRows;
  state.counters["open_s"] = big.open_seconds;
  state.counters["cache_B_per_row"] = big.cache_bytes_per_row;
  state.SetLabel(
      fmt::format("{} {}", name_of(state.range(0)), state.range(1) == 0 ? "all-time" : "week"));
}

void BM_LeaderboardTop10(benchmark::State& state) { leaderboard(state, ""); }
BENCHMARK(BM_LeaderboardTop10)
    ->ArgsProduct({{kSqlite, kPostgresql}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

// Top 10 plus `me` for a player ranked near the bottom (player 0 scores 0). Ids are 16 hex
// digits, as the server makes them.
void BM_LeaderboardTop10WithMeNearTheBottom(benchmark::State& state) {
  leaderboard(state, "0000000000000000");
}
BENCHMARK(BM_LeaderboardTop10WithMeNearTheBottom)
    ->ArgsProduct({{kSqlite, kPostgresql}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
