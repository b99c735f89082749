// Engine micro-benchmarks: classic moves per second on 4×4 and 8×8, with spawns (a full
// Game::move: slide, motions, spawn, over check, undo snapshot) and without (the slide alone).
#include <benchmark/benchmark.h>

#include <bit>

#include "engine/game.hpp"
#include "engine/grid.hpp"

namespace {

using namespace tilerace::engine;

// Full moves through Game, cycling directions. A game is replaced by a new seed when it ends
// or reaches kMovesPerGame (so undo history stays game-sized); the restart is timed too.
constexpr int kMovesPerGame = 2000;

void BM_MoveWithSpawn(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  std::uint64_t seed = 1;
  Game game({Mode::classic, size, 1 << 17, seed});
  MoveOutcome out;
  unsigned i = 0;
  std::int64_t changed = 0;
  for (auto _ : state) {
    game.move(static_cast<Direction>(i++ & 3), out);
    changed += out.changed;
    if (game.state() != GameState::playing || game.moves() >= kMovesPerGame) {
      game = Game({Mode::classic, size, 1 << 17, ++seed});
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["changed_ratio"] =
      static_cast<double>(changed) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_MoveWithSpawn)->Arg(4)->Arg(8);

// The slide alone (with motions) on a busy mid-game board, restored before every slide.
void BM_SlideNoSpawn(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  Game game({Mode::classic, size, 1 << 17, 7});
  MoveOutcome out;
  for (int i = 0; i < size * size * 3 && game.state() == GameState::playing; ++i) {
    game.move(static_cast<Direction>(i & 3), out);
  }
  Grid start;
  start.size = size;
  for (int r = 0; r < size; ++r) {
    for (int c = 0; c < size; ++c) {
      const auto v = static_cast<std::uint64_t>(game.cell(r, c));
      start.at(r, c) = v == 0 ? kEmpty : static_cast<std::uint8_t>(std::countr_zero(v));
    }
  }
  SlideResult result;
  std::vector<Motion> motions;
  motions.reserve(64);
  unsigned i = 0;
  for (auto _ : state) {
    Grid g = start;
    motions.clear();
    slide(g, static_cast<Direction>(i++ & 3), ObstacleRule::fixed, result, &motions);
    benchmark::DoNotOptimize(g);
    benchmark::DoNotOptimize(motions.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SlideNoSpawn)->Arg(4)->Arg(8);

}  // namespace
