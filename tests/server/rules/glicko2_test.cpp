// Glicko-2 against Glickman's worked example, and what a race makes of it: idle deviation,
// races of three, ties.
#include "server/rules/glicko2.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tilerace::server::glicko2 {
namespace {

// Glickman's example (2012): 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300,
// with τ 0.5.
TEST(Glicko2, GlickmansWorkedExample) {
  const std::vector<Result> results{
      {{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
  const Rating after = update({1500, 200, 0.06}, results, 0.5);
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.rd, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, TheDeviationGrowsWhileIdleBackTo350InAYear) {
  const Rating settled{1800, 50, 0.06};
  EXPECT_EQ(idle(settled, 0), settled);
  EXPECT_NEAR(idle(settled, 365).rd, 350, 1);
  EXPECT_EQ(idle(settled, 1000).rd, kMaxRd) << "capped";
  EXPECT_EQ(idle(settled, 30).rating, 1800) << "only the deviation moves";
  EXPECT_GT(idle(settled, 30).rd, 50);
}

TEST(Glicko2, ARaceOfThreeIsAPeriodOfTwoResultsForEach) {
  const std::vector<Rating> racers(3, kStart);
  const std::vector<Rating> after = race(racers, std::vector<int>{0, 1, 2});
  EXPECT_GT(after[0].rating, 1500);
  EXPECT_NEAR(after[1].rating, 1500, 1e-9) << "a win and a loss against equals";
  EXPECT_LT(after[2].rating, 1500);
  EXPECT_NEAR(after[0].rating - 1500, 1500 - after[2].rating, 1e-9);
  for (const Rating& r : after) EXPECT_LT(r.rd, 350) << "a race teaches something";
  // Each is rated against the others as they were before: the same as one update.
  const std::vector<Result> first{{kStart, 1}, {kStart, 1}};
  EXPECT_EQ(after[0], update(kStart, first));
}

TEST(Glicko2, ATieCountsHalf) {
  const std::vector<Rating> racers{{1600, 80, 0.06}, {1500, 80, 0.06}};
  const std::vector<Rating> after = race(racers, std::vector<int>{0, 0});
  EXPECT_LT(after[0].rating, 1600) << "the favourite drew: a little down";
  EXPECT_GT(after[1].rating, 1500);
  EXPECT_EQ(after[0], update(racers[0], std::vector<Result>{{racers[1], 0.5}}));
}

}  // namespace
}  // namespace tilerace::server::glicko2
