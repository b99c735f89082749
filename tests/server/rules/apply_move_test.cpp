#include "server/rules/apply_move.hpp"

#include <gtest/gtest.h>

#include "server/rules/game_check.hpp"

namespace tilerace::server {
namespace {

using engine::Direction;

engine::Game classic(std::uint64_t seed = 7) {
  return engine::Game({engine::Mode::classic, 4, 2048, seed});
}

TEST(CheckMove, AStaleAtMoveOrASlideOutsideFifteenIsRefused) {
  const engine::Game game = classic();
  EXPECT_FALSE(check_move(game, protocol::Move{Direction::left, std::nullopt}).has_value());
  EXPECT_FALSE(check_move(game, protocol::Move{Direction::left, 0}).has_value());
  const auto stale = check_move(game, protocol::Move{Direction::left, 3});
  ASSERT_TRUE(stale.has_value());
  EXPECT_EQ(stale->code, protocol::ErrorCode::stale);
  const auto slide = check_move(game, protocol::Slide{{0, 0}, std::nullopt});
  ASSERT_TRUE(slide.has_value());
  EXPECT_EQ(slide->code, protocol::ErrorCode::not_allowed);
  const engine::Game fifteen({engine::Mode::fifteen, 4, 0, 7});
  EXPECT_FALSE(check_move(fifteen, protocol::Slide{{0, 0}, 0}).has_value());
}

TEST(ApplyMove, AMoveGoesItsDirectionAndASlideTheDirectionItsTilesMoved) {
  engine::Game game = classic();
  engine::Game reference = classic();
  engine::MoveOutcome out, expected;
  EXPECT_EQ(apply_move(game, protocol::Move{Direction::up, std::nullopt}, out), Direction::up);
  reference.move(Direction::up, expected);
  EXPECT_EQ(out.changed, expected.changed);
  EXPECT_EQ(game.history(), reference.history());

  // Fifteen: a slide of the tile next to the blank moves it, and says which way; a slide of
  // the blank's own cell moves nothing and says no direction.
  engine::Game fifteen({engine::Mode::fifteen, 3, 0, 11});
  engine::Cell blank{0, 0};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      if (fifteen.cell(r, c) == 0) blank = {r, c};
    }
  }
  engine::MoveOutcome none;
  EXPECT_EQ(apply_move(fifteen, protocol::Slide{blank, std::nullopt}, none), std::nullopt);
  const engine::Cell next{blank.row == 0 ? 1 : blank.row - 1, blank.col};
  engine::MoveOutcome slid;
  const auto dir = apply_move(fifteen, protocol::Slide{next, std::nullopt}, slid);
  ASSERT_TRUE(dir.has_value());
  EXPECT_EQ(*dir, blank.row == 0 ? Direction::up : Direction::down);
}

TEST(GameCheck, SameGameSameCheckAndAMoveChangesIt) {
  engine::Game a = classic(3), b = classic(3);
  EXPECT_EQ(game_check(a), game_check(b));
  EXPECT_TRUE(game_check(a).starts_with("0:0:"));
  engine::MoveOutcome out;
  for (Direction d : {Direction::left, Direction::up, Direction::right, Direction::down}) {
    a.move(d, out);
    if (out.changed) break;
  }
  EXPECT_NE(game_check(a), game_check(b));
  EXPECT_NE(game_check(classic(3)), game_check(classic(4)));  // another board
}

}  // namespace
}  // namespace tilerace::server
