#include "engine/fifteen.hpp"

#include <gtest/gtest.h>

#include "tests/engine/print.hpp"

#include <deque>
#include <unordered_map>

#include "engine/game.hpp"

namespace tilerace::engine {
namespace {

GameConfig fifteen(int size, std::uint64_t seed) { return {Mode::fifteen, size, 0, seed}; }

int blank_index(const Grid& g) {
  for (int i = 0; i < g.count(); ++i) {
    if (g.cells[i] == 0) return i;
  }
  return -1;
}

TEST(Fifteen, EveryShuffleHasEvenParityBlankLastAndIsNotSolved) {
  for (int size = kMinSize; size <= kMaxFifteenSize; ++size) {
    for (std::uint64_t seed = 0; seed < 2000; ++seed) {
      const Fifteen game(fifteen(size, seed));
      ASSERT_EQ(inversions(game.grid()) % 2, 0) << size << " " << seed;
      ASSERT_EQ(blank_index(game.grid()), size * size - 1);
      ASSERT_LT(game.tiles_home(), size * size - 1);
      ASSERT_EQ(game.state(), GameState::playing);
    }
  }
}

// Every 3×3 position reachable from the solved one, with the move that leads back toward it.
std::unordered_map<std::uint64_t, Direction> solve_table_3x3() {
  auto key = [](const Grid& g) {
    std::uint64_t k = 0;
    for (int i = 0; i < 9; ++i) k = k * 10 + g.cells[i];
    return k;
  };
  Grid solved;
  solved.size = 3;
  for (int i = 0; i < 8; ++i) solved.cells[i] = static_cast<std::uint8_t>(i + 1);
  std::unordered_map<std::uint64_t, Direction> toward;
  std::deque<Grid> queue{solved};
  toward.emplace(key(solved), Direction::up);
  while (!queue.empty()) {
    const Grid g = queue.front();
    queue.pop_front();
    const int b = blank_index(g);
    for (Direction d : {Direction::up, Direction::down, Direction::left, Direction::right}) {
      const Cell step = delta(d);
      const int r = b / 3 - step.row, c = b % 3 - step.col;  // tile that moves in direction d
      if (r < 0 || r > 2 || c < 0 || c > 2) continue;
      Grid next = g;
      std::swap(next.cells[b], next.cells[r * 3 + c]);
      // From next, the tile now at b moves back into the blank by the opposite direction.
      const Direction back = d == Direction::up     ? Direction::down
                             : d == Direction::down ? Direction::up
                             : d == Direction::left ? Direction::right
                                                    : Direction::left;
      if (toward.emplace(key(next), back).second) queue.push_back(next);
    }
  }
  return toward;
}

TEST(Fifteen, EveryThreeByThreeShuffleIsSolvableByBreadthFirstSearch) {
  const auto toward = solve_table_3x3();
  EXPECT_EQ(toward.size(), 181440u);  // 9!/2: exactly the solvable half
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    Game game(fifteen(3, seed));
    MoveOutcome out;
    for (int guard = 0; guard < 40 && game.state() == GameState::playing; ++guard) {
      std::uint64_t k = 0;
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) k = k * 10 + static_cast<std::uint64_t>(game.cell(r, c));
      }
      const auto it = toward.find(k);
      ASSERT_NE(it, toward.end()) << "unsolvable shuffle for seed " << seed;
      game.move(it->second, out);
      ASSERT_TRUE(out.changed);
    }
    EXPECT_EQ(game.state(), GameState::solved) << "seed " << seed;
    EXPECT_TRUE(game.won());
    EXPECT_EQ(game.score(), game.moves());
    // Solved is final: moves change nothing, undo is refused.
    game.move(Direction::left, out);
    game.move(Direction::up, out);
    EXPECT_FALSE(out.changed);
    EXPECT_FALSE(game.undo());
    EXPECT_TRUE(replay(fifteen(3, seed), game.history()).has_value());
  }
}

TEST(Fifteen, LeftMovesTheTileRightOfTheBlank) {
  Fifteen game(fifteen(4, 11));
  MoveOutcome out;
  game.move(Direction::left, out);
  EXPECT_FALSE(out.changed);  // the blank starts in the last column
  game.move(Direction::right, out);
  ASSERT_TRUE(out.changed);
  ASSERT_EQ(out.motions.size(), 1u);
  EXPECT_EQ(out.motions[0].from, (Cell{3, 2}));
  EXPECT_EQ(out.motions[0].to, (Cell{3, 3}));
  EXPECT_EQ(game.grid().at(3, 2), 0);
  const auto tile = game.grid().at(3, 3);
  game.move(Direction::left, out);
  ASSERT_TRUE(out.changed);
  EXPECT_EQ(game.grid().at(3, 2), tile);
  EXPECT_EQ(game.moves(), 2);
}

TEST(Fifteen, SlideMovesEveryTileBetweenCellAndBlank) {
  Fifteen game(fifteen(5, 3));
  const Grid before = game.grid();
  MoveOutcome out;
  game.slide({4, 1}, out);  // blank at (4,4): tiles at columns 1..3 shift right
  ASSERT_TRUE(out.changed);
  EXPECT_EQ(out.motions.size(), 3u);
  EXPECT_EQ(out.gained, 3);
  EXPECT_EQ(game.moves(), 3);
  EXPECT_EQ(game.score(), 3);
  EXPECT_EQ(game.history(), "RRR");
  for (int c = 1; c < 4; ++c) EXPECT_EQ(game.grid().at(4, c + 1), before.at(4, c));
  EXPECT_EQ(game.grid().at(4, 1), 0);
  game.slide({0, 1}, out);  // blank (4,1): column slide of four tiles down
  EXPECT_EQ(out.motions.size(), 4u);
  EXPECT_EQ(game.history(), "RRRDDDD");
  game.slide({2, 2}, out);  // neither row nor column of the blank (0,1)
  EXPECT_FALSE(out.changed);
  game.slide({0, 1}, out);  // the blank itself
  EXPECT_FALSE(out.changed);
  game.slide({9, 9}, out);  // off the board
  EXPECT_FALSE(out.changed);
  EXPECT_EQ(game.moves(), 7);
}

TEST(Fifteen, DirectionOfAMotionIsWhereTheTileWent) {
  EXPECT_EQ(direction_of({{2, 2}, {1, 2}, 5, false}), Direction::up);
  EXPECT_EQ(direction_of({{1, 2}, {2, 2}, 5, false}), Direction::down);
  EXPECT_EQ(direction_of({{0, 3}, {0, 2}, 5, false}), Direction::left);
  EXPECT_EQ(direction_of({{0, 2}, {0, 3}, 5, false}), Direction::right);
}

TEST(Fifteen, UndoRevertsOneSingleTileMove) {
  Fifteen game(fifteen(4, 8));
  const Grid start = game.grid();
  MoveOutcome out;
  game.slide({3, 0}, out);
  ASSERT_EQ(game.moves(), 3);
  EXPECT_TRUE(game.undo());
  EXPECT_EQ(game.moves(), 2);
  EXPECT_TRUE(game.undo());
  EXPECT_TRUE(game.undo());
  EXPECT_FALSE(game.undo());
  EXPECT_EQ(game.grid(), start);
  EXPECT_EQ(game.score(), 0);
  EXPECT_EQ(game.undos(), 3);
  EXPECT_EQ(game.history(), "RRRZZZ");
}

}  // namespace
}  // namespace tilerace::engine
