// The 4×4 bitboard beside nneonneo/2048-ai's, in one run on the same positions: a slide
// (their execute_move) and a whole step (move, random spawn, game-over check). Their 2048.cpp
// is compiled in from a local copy that is never committed (bench/vs-nneonneo.sh finds or
// clones it); its main is renamed away.
#include <benchmark/benchmark.h>

#include <array>
#include <bit>
#include <vector>

#include "engine/bitboard.hpp"
#include "engine/bot.hpp"
#include "engine/game.hpp"

#define main nneonneo_main
#include NNEONNEO_SOURCE
#undef main

namespace {

using namespace tilerace::engine;

// Positions from real play: the first 4,096 positions four seeded games of the medium bot
// passed through (about 8,000 in all), each with a direction that changes it (for the step
// benchmarks).
struct Positions {
  std::vector<bitboard::Board> boards;
  std::vector<int> legal;  // a changing direction of each board, 0 up 1 down 2 left 3 right

  Positions() {
    Bot bot;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      GameConfig config;
      config.seed = seed;
      Game game(config, false);
      while (game.state() == GameState::playing) {
        const auto move = bot.choose(game, BotStrength::medium, seed);
        if (!move) break;
        bitboard::Board b = 0;
        for (int i = 0; i < 16; ++i) {
          const auto v = static_cast<std::uint64_t>(game.cell(i / 4, i % 4));
          if (v != 0) b |= static_cast<bitboard::Board>(std::countr_zero(v)) << (4 * i);
        }
        boards.push_back(b);
        legal.push_back(static_cast<int>(*move));
        game.move(*move);
      }
    }
    boards.resize(kCount);  // a power of two: the loops pick a position with a mask
    legal.resize(kCount);
  }
  static constexpr std::size_t kCount = 4096;
  static constexpr std::size_t kMask = kCount - 1;
};

const Positions& positions() {
  static const Positions p;
  return p;
}

// Both programs number directions up, down, left, right.
void BM_ExecuteMove_nneonneo(benchmark::State& state) {
  init_tables();
  const auto& boards = positions().boards;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(execute_move(static_cast<int>(i & 3), boards[i & Positions::kMask]));
    ++i;
  }
}
BENCHMARK(BM_ExecuteMove_nneonneo);

void BM_ExecuteMove_tilerace(benchmark::State& state) {
  const auto& boards = positions().boards;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        bitboard::slide_board(boards[i & Positions::kMask], static_cast<Direction>(i & 3)));
    ++i;
  }
}
BENCHMARK(BM_ExecuteMove_tilerace);

// Their game loop's step: execute_move, draw_tile + insert_tile_rand (their unif_random), and
// the four-move check for the end.
void BM_FullStep_nneonneo(benchmark::State& state) {
  init_tables();
  const auto& p = positions();
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & Positions::kMask;
    const board_t moved = execute_move(p.legal[k], p.boards[k]);
    const board_t after = insert_tile_rand(moved, draw_tile());
    int move = 0;
    while (move < 4 && execute_move(move, after) == after) ++move;
    benchmark::DoNotOptimize(after);
    benchmark::DoNotOptimize(move);
  }
}
BENCHMARK(BM_FullStep_nneonneo);

// Ours: bitboard::step — slide, the SplitMix64 spawn the server's games use, the end check.
void BM_FullStep_tilerace(benchmark::State& state) {
  const auto& p = positions();
  SplitMix64 rng(1);
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & Positions::kMask;
    benchmark::DoNotOptimize(bitboard::step(p.boards[k], static_cast<Direction>(p.legal[k]), rng));
  }
}
BENCHMARK(BM_FullStep_tilerace);

}  // namespace

BENCHMARK_MAIN();
