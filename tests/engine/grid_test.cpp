#include "engine/grid.hpp"

#include <gtest/gtest.h>

#include "tests/engine/print.hpp"

#include <bit>
#include <vector>

namespace tilerace::engine {
namespace {

std::uint8_t encode(std::int64_t value) {
  if (value == -1) return kObstacle;
  return value == 0 ? kEmpty : static_cast<std::uint8_t>(std::countr_zero(std::uint64_t(value)));
}

// Cell of the k-th position (counted from the wall) of line `line` when sliding toward d.
Cell line_cell(int size, Direction d, int line, int k) {
  switch (d) {
    case Direction::left: return {line, k};
    case Direction::right: return {line, size - 1 - k};
    case Direction::up: return {k, line};
    case Direction::down: return {size - 1 - k, line};
  }
  return {};
}

struct LineCase {
  std::vector<std::int64_t> before;  // listed from the wall outward
  std::vector<std::int64_t> after;
  std::int64_t gained;
};

// Puts `values` on line 1 of a 4×4 grid in direction d's order, slides, reads the line back.
std::vector<std::int64_t> slide_line(const std::vector<std::int64_t>& values, Direction d,
                                     ObstacleRule rule, SlideResult& result,
                                     std::vector<Motion>& motions) {
  Grid g;
  g.size = static_cast<int>(values.size());
  for (int k = 0; k < g.size; ++k) {
    const Cell c = line_cell(g.size, d, 1, k);
    g.at(c.row, c.col) = encode(values[k]);
  }
  slide(g, d, rule, result, &motions);
  std::vector<std::int64_t> out;
  for (int k = 0; k < g.size; ++k) {
    const Cell c = line_cell(g.size, d, 1, k);
    out.push_back(cell_value(g.at(c.row, c.col)));
  }
  return out;
}

class SlideTable : public ::testing::TestWithParam<Direction> {};

TEST_P(SlideTable, WorkedExamplesInEveryDirection) {
  const std::vector<LineCase> cases = {
      {{0, 2, 2, 0}, {4, 0, 0, 0}, 4},   {{8, 2, 2, 0}, {8, 4, 0, 0}, 4},
      {{4, 0, 2, 2}, {4, 4, 0, 0}, 4},   {{2, 2, 2, 2}, {4, 4, 0, 0}, 8},
      {{2, 2, 2, 0}, {4, 2, 0, 0}, 4},   {{4, 4, 8, 0}, {8, 8, 0, 0}, 8},
      {{2, 4, 8, 16}, {2, 4, 8, 16}, 0}, {{0, 0, 0, 2}, {2, 0, 0, 0}, 0},
      {{4, 4, 4, 4}, {8, 8, 0, 0}, 16},
  };
  for (const auto& c : cases) {
    SlideResult result;
    std::vector<Motion> motions;
    EXPECT_EQ(slide_line(c.before, GetParam(), ObstacleRule::fixed, result, motions), c.after)
        << "row " << ::testing::PrintToString(c.before);
    EXPECT_EQ(result.gained, c.gained);
    EXPECT_EQ(result.changed, c.before != c.after);
  }
}

INSTANTIATE_TEST_SUITE_P(AllDirections, SlideTable,
                         ::testing::Values(Direction::up, Direction::down, Direction::left,
                                           Direction::right),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(Slide, MotionsNameTheAbsorbedTileFartherFromTheWall) {
  Grid g;
  g.at(0, 1) = 1;
  g.at(0, 2) = 1;
  SlideResult result;
  std::vector<Motion> motions;
  slide(g, Direction::left, ObstacleRule::fixed, result, &motions);
  const std::vector<Motion> expected = {{{0, 1}, {0, 0}, 2, false}, {{0, 2}, {0, 0}, 2, true}};
  EXPECT_EQ(motions, expected);
  EXPECT_EQ(cell_value(g.at(0, 0)), 4);
}

TEST(Slide, StationaryTilesAreNotListedAsMotions) {
  Grid g;
  g.at(2, 0) = 1;
  g.at(2, 1) = 1;
  g.at(2, 2) = 3;
  SlideResult result;
  std::vector<Motion> motions;
  slide(g, Direction::left, ObstacleRule::fixed, result, &motions);
  const std::vector<Motion> expected = {{{2, 1}, {2, 0}, 2, true}, {{2, 2}, {2, 1}, 8, false}};
  EXPECT_EQ(motions, expected);
}

TEST(Slide, FixedObstacleSplitsTheLineAndNeverMoves) {
  SlideResult result;
  std::vector<Motion> motions;
  EXPECT_EQ(slide_line({0, -1, 2, 2}, Direction::left, ObstacleRule::fixed, result, motions),
            (std::vector<std::int64_t>{0, -1, 4, 0}));
  EXPECT_EQ(slide_line({2, -1, 2, 0}, Direction::right, ObstacleRule::fixed, result, motions),
            (std::vector<std::int64_t>{2, -1, 2, 0}));
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(slide_line({2, 0, -1, 2}, Direction::up, ObstacleRule::fixed, result, motions),
            (std::vector<std::int64_t>{2, 0, -1, 2}));
}

TEST(Slide, MovingObstacleSlidesButNeverMerges) {
  SlideResult result;
  std::vector<Motion> motions;
  EXPECT_EQ(slide_line({0, -1, 2, 2}, Direction::left, ObstacleRule::moving, result, motions),
            (std::vector<std::int64_t>{-1, 4, 0, 0}));
  EXPECT_EQ(motions.front(), (Motion{{1, 1}, {1, 0}, -1, false}));
  EXPECT_EQ(slide_line({-1, 0, -1, 0}, Direction::down, ObstacleRule::moving, result, motions),
            (std::vector<std::int64_t>{-1, -1, 0, 0}));
  EXPECT_EQ(slide_line({2, -1, 2, 0}, Direction::left, ObstacleRule::moving, result, motions),
            (std::vector<std::int64_t>{2, -1, 2, 0}));
  EXPECT_EQ(result.gained, 0);
}

Grid grid_of(std::initializer_list<std::initializer_list<std::int64_t>> rows) {
  Grid g;
  g.size = static_cast<int>(rows.size());
  int r = 0;
  for (const auto& row : rows) {
    int c = 0;
    for (std::int64_t v : row) g.at(r, c++) = encode(v);
    ++r;
  }
  return g;
}

TEST(CanMove, FullBoardWithAMergeIsNotOver) {
  const Grid g = grid_of({{8, 16, 16, 2}, {8, 2, 4, 128}, {2, 2, 8, 16}, {2, 4, 4, 2}});
  EXPECT_TRUE(can_move(g, ObstacleRule::fixed));
}

TEST(CanMove, FullBoardWithoutEqualNeighboursIsOver) {
  const Grid g = grid_of({{2, 4, 2, 4}, {4, 2, 4, 2}, {2, 4, 2, 4}, {4, 2, 4, 2}});
  EXPECT_FALSE(can_move(g, ObstacleRule::fixed));
}

TEST(CanMove, EqualTilesAcrossAnObstacleDoNotMerge) {
  const Grid g = grid_of({{2, -1, 2}, {4, 8, 4}, {8, 4, 8}});
  EXPECT_FALSE(can_move(g, ObstacleRule::fixed));
  EXPECT_FALSE(can_move(g, ObstacleRule::moving));
}

TEST(CanMove, AMovingObstacleNextToAHoleCanMoveAFixedOneCannot) {
  const Grid g = grid_of({{0, -1, 2}, {4, 8, 4}, {8, 4, 8}});
  EXPECT_TRUE(can_move(g, ObstacleRule::moving));
  EXPECT_TRUE(can_move(g, ObstacleRule::fixed));  // the 4 below the hole moves up
  const Grid corner = grid_of({{0, -1, 2}, {-1, 8, 4}, {8, 4, 8}});
  EXPECT_FALSE(can_move(corner, ObstacleRule::fixed));
  EXPECT_TRUE(can_move(corner, ObstacleRule::moving));
}

}  // namespace
}  // namespace tilerace::engine
