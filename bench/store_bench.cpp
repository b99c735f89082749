// Storage benchmarks on a real SQLite file (WAL, synchronous=FULL): finished games recorded
// per second, and leaderboard queries against 1,000,000 best results.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "server/sqlite_store.hpp"

namespace {

using namespace tilerace;
namespace fs = std::filesystem;

fs::path make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "tilerace-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

// prefix followed by n. (Appended rather than "p" + …: GCC 12 bug 105651 warns on that.)
std::string id_of(const char* prefix, std::int64_t n) {
  std::string id = prefix;
  id += std::to_string(n);
  return id;
}

server::GameRecord finished(std::int64_t i) {
  server::GameRecord g;
  g.id = id_of("g", i);
  g.player_id = id_of("p", i % 1000);
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

// One game per iteration, each its own durable transaction (an fsync per commit).
void BM_RecordGame(benchmark::State& state) {
  const fs::path dir = make_temp_dir();
  {
    server::SqliteStore store(dir / "bench.db");
    for (int p = 0; p < 1000; ++p) store.add_player({id_of("p", p), "name", "h", 0});
    std::int64_t i = 0;
    for (auto _ : state) store.record_game(finished(i++));
    state.SetItemsProcessed(state.iterations());
  }
  fs::remove_all(dir);
}
BENCHMARK(BM_RecordGame)->Unit(benchmark::kMicrosecond)->UseRealTime();

// A store whose classic 4×4 board holds kRows players' best results, built once.
constexpr int kRows = 1000000;
struct BigBoard {
  BigBoard() : dir(make_temp_dir()) {
    { server::SqliteStore schema(dir / "big.db"); }
    SQLite::Database db((dir / "big.db").string(), SQLite::OPEN_READWRITE);
    SQLite::Transaction tx(db);
    SQLite::Statement player(
        db, "INSERT INTO players (id, name, token_hash, created_at) VALUES (?, 'n', 'h', 0)");
    SQLite::Statement best(db, "INSERT INTO best_results VALUES (?, 'classic', 4, ?, ?, ?, ?, ?)");
    for (int i = 0; i < kRows; ++i) {
      const std::string id = id_of("p", i);
      player.bind(1, id);
      player.exec();
      player.reset();
      best.bind(1, id);
      best.bind(2, static_cast<std::int64_t>((static_cast<std::int64_t>(i) * 7919) % 200000));
      best.bind(3, 1024);
      best.bind(4, 300 + i % 500);
      best.bind(5, id_of("g", i));
      best.bind(6, static_cast<std::int64_t>(i));
      best.exec();
      best.reset();
    }
    tx.commit();
    db.exec("ANALYZE");
    store = std::make_unique<server::SqliteStore>(dir / "big.db");
  }
  ~BigBoard() {
    store.reset();
    fs::remove_all(dir);
  }
  fs::path dir;
  std::unique_ptr<server::SqliteStore> store;
};

BigBoard& big_board() {
  static BigBoard board;
  return board;
}

void BM_LeaderboardTop10(benchmark::State& state) {
  auto& store = *big_board().store;
  for (auto _ : state) {
    auto board =
        store.leaderboard({engine::Mode::classic, 4, server::LeaderboardKind::score, 10, ""});
    benchmark::DoNotOptimize(board);
  }
  state.counters["rows"] = kRows;
}
BENCHMARK(BM_LeaderboardTop10)->Unit(benchmark::kMicrosecond);

// Top 10 plus `me` for a player ranked near the bottom: the rank is a count over the index.
void BM_LeaderboardTop10WithMeNearTheBottom(benchmark::State& state) {
  auto& store = *big_board().store;
  for (auto _ : state) {
    auto board =
        store.leaderboard({engine::Mode::classic, 4, server::LeaderboardKind::score, 10, "p0"});
    benchmark::DoNotOptimize(board);
  }
  state.counters["rows"] = kRows;
}
BENCHMARK(BM_LeaderboardTop10WithMeNearTheBottom)->Unit(benchmark::kMicrosecond);

}  // namespace
