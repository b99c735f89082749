#include "engine/tile_game.hpp"

#include <gtest/gtest.h>

#include "tests/engine/print.hpp"

#include <algorithm>
#include <set>

namespace tilerace::engine {
namespace {

GameConfig config(Mode mode, int size, std::uint64_t seed, std::int64_t target = 2048) {
  return {mode, size, target, seed};
}

int count_value(const Grid& g, std::uint8_t v) {
  return static_cast<int>(std::count(g.cells.begin(), g.cells.begin() + g.count(), v));
}

TEST(TileGame, StartSpawnsTwiceFollowingTheSpecifiedDraws) {
  for (std::uint64_t seed : {0ULL, 42ULL, 18446744073709551615ULL}) {
    const TileGame game(config(Mode::classic, 4, seed));
    // The rule of PROTOCOL.md §7, computed independently: cell = next() % empty, then value.
    SplitMix64 rng(seed);
    Grid expected;
    for (int spawn = 0; spawn < 2; ++spawn) {
      const int k = static_cast<int>(rng.next() % (16 - spawn));
      const std::uint8_t exponent = rng.next() % 10 == 0 ? 2 : 1;
      int seen = 0;
      for (int i = 0; i < 16; ++i) {
        if (expected.cells[i] == kEmpty && seen++ == k) {
          expected.cells[i] = exponent;
          break;
        }
      }
    }
    EXPECT_EQ(game.grid(), expected) << "seed " << seed;
    EXPECT_EQ(game.score(), 0);
    EXPECT_EQ(game.moves(), 0);
  }
}

TEST(TileGame, SameSeedSameGameDifferentSeedDifferentStart) {
  std::set<std::vector<std::uint8_t>> starts;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const TileGame a(config(Mode::classic, 4, seed));
    const TileGame b(config(Mode::classic, 4, seed));
    EXPECT_EQ(a.grid(), b.grid());
    starts.insert({a.grid().cells.begin(), a.grid().cells.begin() + 16});
  }
  EXPECT_GT(starts.size(), 40u);
}

TEST(TileGame, AMoveThatChangesNothingSpawnsNothing) {
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    for (Direction d : {Direction::up, Direction::down, Direction::left, Direction::right}) {
      TileGame game(config(Mode::classic, 4, seed));
      const Grid before = game.grid();
      Grid probe = before;
      SlideResult slid;
      slide(probe, d, ObstacleRule::fixed, slid, nullptr);
      if (slid.changed) continue;
      MoveOutcome out;
      game.move(d, out);
      EXPECT_FALSE(out.changed);
      EXPECT_TRUE(out.spawned.empty());
      EXPECT_TRUE(out.motions.empty());
      EXPECT_EQ(game.grid(), before);
      EXPECT_EQ(game.moves(), 0);
      EXPECT_TRUE(game.history().empty());
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(TileGame, UndoReturnsToTheStartAndRefusesBeyondIt) {
  TileGame game(config(Mode::classic, 4, 9));
  const Grid start = game.grid();
  EXPECT_FALSE(game.undo());
  MoveOutcome out;
  int changes = 0;
  for (int i = 0; i < 40; ++i) {
    game.move(static_cast<Direction>(i % 4), out);
    changes += out.changed;
  }
  ASSERT_GT(changes, 5);
  for (int i = 0; i < changes; ++i) ASSERT_TRUE(game.undo());
  EXPECT_FALSE(game.undo());
  EXPECT_EQ(game.grid(), start);
  EXPECT_EQ(game.score(), 0);
  EXPECT_EQ(game.moves(), 0);
  EXPECT_EQ(game.undos(), changes);
}

TEST(TileGame, ResignEndsTheGameAndFurtherMovesChangeNothing) {
  TileGame game(config(Mode::classic, 4, 5));
  EXPECT_TRUE(game.end(GameState::resigned));
  EXPECT_FALSE(game.end(GameState::forfeited));
  EXPECT_EQ(game.state(), GameState::resigned);
  MoveOutcome out;
  for (Direction d : {Direction::up, Direction::down, Direction::left, Direction::right}) {
    game.move(d, out);
    EXPECT_FALSE(out.changed);
    EXPECT_EQ(out.state, GameState::resigned);
  }
  EXPECT_FALSE(game.undo());
}

TEST(TileGame, FixedObstacleIsPlacedFirstOnTheDrawnCell) {
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    const TileGame game(config(Mode::fixed_obstacle, 5, seed));
    SplitMix64 rng(seed);
    EXPECT_EQ(game.grid().cells[rng.next() % 25], kObstacle);
    EXPECT_EQ(count_value(game.grid(), kObstacle), 1);
    EXPECT_EQ(25 - count_empty(game.grid()), 3);
  }
}

TEST(TileGame, WinningKeepsThePlayerPlaying) {
  TileGame game(config(Mode::classic, 4, 1, 8));
  MoveOutcome out;
  for (int i = 0; i < 400 && !game.won() && game.state() == GameState::playing; ++i) {
    game.move(static_cast<Direction>(i % 4), out);
  }
  ASSERT_TRUE(game.won());
  EXPECT_GE(game.max_tile(), 8);
  if (game.state() == GameState::playing) {
    const int moves = game.moves();
    for (int i = 0; i < 4 && game.moves() == moves; ++i) game.move(static_cast<Direction>(i), out);
    EXPECT_GT(game.moves(), moves);
    EXPECT_TRUE(game.won());
  }
}

TEST(ValidConfig, AcceptsTheProtocolRangesOnly) {
  EXPECT_TRUE(valid_config({Mode::classic, 3, 8, 0}));
  EXPECT_TRUE(valid_config({Mode::classic, 8, 1 << 17, 0}));
  EXPECT_FALSE(valid_config({Mode::classic, 2, 2048, 0}));
  EXPECT_FALSE(valid_config({Mode::classic, 9, 2048, 0}));
  EXPECT_FALSE(valid_config({Mode::classic, 4, 4, 0}));
  EXPECT_FALSE(valid_config({Mode::classic, 4, 1 << 18, 0}));
  EXPECT_FALSE(valid_config({Mode::classic, 4, 2000, 0}));
  EXPECT_TRUE(valid_config({Mode::fifteen, 6, 0, 0}));
  EXPECT_FALSE(valid_config({Mode::fifteen, 7, 2048, 0}));
}

}  // namespace
}  // namespace tilerace::engine
