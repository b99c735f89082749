// Glicko-2 against Glickman's worked example, and what a race makes of it: idle deviation,
// races of three, ties.
#include "server/rules/glicko2.hpp"
#include "server/rules/variant_rating.hpp"

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

TEST(Glicko2, AnUpsetMovesMoreThanAnExpectedWin) {
  const Rating low{1300, 80, 0.06};
  const Rating high{1700, 80, 0.06};
  const double upset = race(std::vector<Rating>{low, high}, std::vector<int>{0, 1})[0].rating;
  const double expected = race(std::vector<Rating>{high, low}, std::vector<int>{0, 1})[0].rating;
  EXPECT_GT(upset - 1300, expected - 1700);
}

// The migration: an Elo rating's deviation from its number of rated races.
TEST(Glicko2, AMigratedDeviationShrinksWithTheRacesPlayed) {
  EXPECT_DOUBLE_EQ(settled_rd(0), kMaxRd);
  EXPECT_NEAR(settled_rd(1), 246.6, 0.1);
  EXPECT_NEAR(settled_rd(10), 104.8, 0.1);
  EXPECT_NEAR(settled_rd(30), 62.4, 0.1);
  EXPECT_GT(settled_rd(47), kSettledRd);
  EXPECT_DOUBLE_EQ(settled_rd(48), kSettledRd) << "the floor";
  EXPECT_DOUBLE_EQ(settled_rd(5000), kSettledRd);
  for (int n = 0; n < 60; ++n) EXPECT_LE(settled_rd(n + 1), settled_rd(n));
}

}  // namespace
}  // namespace tilerace::server::glicko2

namespace tilerace::server {
namespace {

constexpr std::int64_t kT0 = 1'800'000'000'000;  // a Unix ms instant: the injected clock

TEST(VariantRating, TheDeviationShownGrowsWithTheTimeSinceTheLastRace) {
  const VariantRating kept{{1700, 60, 0.06}, kT0};
  EXPECT_EQ(kept.at_time(kT0), kept.rating);
  EXPECT_EQ(kept.at_time(kT0 + 30 * kDayMs), glicko2::idle(kept.rating, 30));
  EXPECT_NEAR(kept.at_time(kT0 + 365 * kDayMs).rd, 350, 2);
  EXPECT_EQ(VariantRating{}.at_time(kT0), glicko2::kStart) << "never rated: as it starts";
}

TEST(VariantRating, ARatingIsListedUntilItsDeviationGrowsPast75) {
  const VariantRating kept{{1700, 60, 0.06}, kT0};
  const std::int64_t until = listed_until(kept);
  EXPECT_GT(until, kT0);
  EXPECT_LE(kept.at_time(until).rd, glicko2::kListedRd);
  EXPECT_GT(kept.at_time(until + kDayMs / 24).rd, glicko2::kListedRd);
  EXPECT_EQ(listed_until({{1700, 75.5, 0.06}, kT0}), -1) << "not listed even at once";
  EXPECT_TRUE(provisional(glicko2::kStart));
  EXPECT_FALSE(provisional({1500, 109.9, 0.06}));
  EXPECT_TRUE(provisional({1500, 110, 0.06}));
}

}  // namespace
}  // namespace tilerace::server
