// Engine micro-benchmarks: classic moves per second on 4×4 and 8×8, with spawns (a full
// Game::move: slide, motions, spawn, over check, undo history) and without (the slide alone);
// the heap a long game holds per move, and what an undo costs, for checkpoint spacings side
// by side (1 is a snapshot before every move, as undo once kept).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <bit>
#include <vector>

#include "engine/splitmix64.hpp"
#include "engine/tile_game.hpp"

#include "engine/bitboard.hpp"
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

// The same position and directions as BM_SlideNoSpawn/4, on the 4×4 bitboard (for search).
void BM_BitboardSlide(benchmark::State& state) {
  Game game({Mode::classic, 4, 1 << 15, 7});
  MoveOutcome out;
  for (int i = 0; i < 4 * 4 * 3 && game.state() == GameState::playing; ++i) {
    game.move(static_cast<Direction>(i & 3), out);
  }
  Grid start;
  start.size = 4;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      const auto v = static_cast<std::uint64_t>(game.cell(r, c));
      start.at(r, c) = v == 0 ? kEmpty : static_cast<std::uint8_t>(std::countr_zero(v));
    }
  }
  const bitboard::Board board = bitboard::from_grid(start);
  unsigned i = 0;
  for (auto _ : state) {
    bitboard::Board b = board;
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(bitboard::slide(b, static_cast<Direction>(i++ & 3)));
  }
}
BENCHMARK(BM_BitboardSlide);

// Heap held by long 8×8 games (undo allowed), per move played: ten games of 5,000 random
// changing moves each, measured with glibc's mallinfo2 while they are alive. Arg: the
// checkpoint spacing (1: a full snapshot before every move, as undo history once was).
void BM_HeldPerMove(benchmark::State& state) {
  const int every = static_cast<int>(state.range(0));
  constexpr int kGames = 10, kMoves = 5000;
  double bytes_per_move = 0;
  for (auto _ : state) {
    const auto before = mallinfo2().uordblks;
    std::vector<TileGame> games;
    games.reserve(kGames);
    long moves = 0;
    MoveOutcome out;
    for (int g = 0; g < kGames; ++g) {
      games.emplace_back(GameConfig{Mode::classic, 8, 1 << 17, static_cast<std::uint64_t>(g)}, true,
                         every);
      SplitMix64 dirs(static_cast<std::uint64_t>(g));
      while (games.back().moves() < kMoves && games.back().state() == GameState::playing) {
        games.back().move(static_cast<Direction>(dirs.below(4)), out);
      }
      moves += games.back().moves();
    }
    const auto after = mallinfo2().uordblks;
    bytes_per_move = static_cast<double>(after - before) / static_cast<double>(moves);
    benchmark::DoNotOptimize(games.data());
  }
  state.counters["bytes_per_move"] = bytes_per_move;
}
BENCHMARK(BM_HeldPerMove)->Arg(1)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);

// The worst undo for a spacing: a move, then its undo, at a depth one short of the next
// checkpoint (the undo replays every-1 moves from the last one).
void BM_UndoWorstCase(benchmark::State& state) {
  const int every = static_cast<int>(state.range(0));
  TileGame game(GameConfig{Mode::classic, 8, 1 << 17, 3}, true, every);
  SplitMix64 dirs(3);
  MoveOutcome out;
  const int depth = 3 * every - 1;  // the move below lands at 3·every - 1: every-1 replays
  while (game.moves() < depth - 1 && game.state() == GameState::playing) {
    game.move(static_cast<Direction>(dirs.below(4)), out);
  }
  Direction d = Direction::up;
  for (auto _ : state) {
    do {
      d = static_cast<Direction>((static_cast<int>(d) + 1) % 4);
      game.move(d, out);
    } while (!out.changed);
    benchmark::DoNotOptimize(game.undo());
  }
}
BENCHMARK(BM_UndoWorstCase)->Arg(1)->Arg(64)->Arg(256)->Arg(1024);

}  // namespace
