// What the messages sent on every move cost to write (protocol/encode.cpp with JsonWriter):
// `moved` (the mover's reply) and `race_update` (the rival's and spectators'), for a 4×4 game
// in mid play and an 8×8 one, each after a move with motions. Figures: docs/performance.md.
#include <benchmark/benchmark.h>

#include <string>

#include "engine/game.hpp"
#include "protocol/encode.hpp"

namespace {

using tilerace::engine::Direction;
using tilerace::engine::Game;
using tilerace::engine::GameConfig;
using tilerace::engine::GameState;
using tilerace::engine::MoveOutcome;

// A game of size played for a while from a fixed seed (corner strategy), and the outcome of
// one more move that changed the board.
struct Played {
  explicit Played(int size) : game(GameConfig{.size = size, .target = 1 << 16, .seed = 7}) {
    const Direction order[] = {Direction::left, Direction::down, Direction::right, Direction::up};
    for (int i = 0; i < 40 * size; ++i) {
      for (const Direction d : order) {
        outcome = game.move(d);
        if (outcome.changed) break;
      }
      if (game.state() != GameState::playing) break;
    }
  }
  Game game;
  MoveOutcome outcome;
};

void BM_EncodeMoved(benchmark::State& state) {
  const Played p(static_cast<int>(state.range(0)));
  const tilerace::protocol::Rid rid = std::string("m42");
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string text = tilerace::protocol::encode_moved({"g-1234567890", p.game, false},
                                                        Direction::left, p.outcome, rid);
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_EncodeMoved)->Arg(4)->Arg(8);

void BM_EncodeRaceUpdate(benchmark::State& state) {
  const Played p(static_cast<int>(state.range(0)));
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string text =
        tilerace::protocol::encode_race_update("ABCDEF", "p-1234567890", false, p.game, p.outcome);
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_EncodeRaceUpdate)->Arg(4)->Arg(8);

}  // namespace
