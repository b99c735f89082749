#include "server/rules/standings.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

TEST(RankRacers, ScoreThenMaxTileThenFewerMoves) {
  const std::vector<RacerResult> r = {{100, 16, 40}, {120, 16, 50}, {100, 32, 60}, {100, 16, 30}};
  const Ranking k = rank_racers(r, false, std::nullopt);
  EXPECT_EQ(k.order, (std::vector<std::size_t>{1, 2, 3, 0}));
  EXPECT_EQ(k.winner, 1u);
  EXPECT_EQ(k.place, (std::vector<int>{3, 0, 1, 2}));
}

TEST(RankRacers, AFullTieAtTheTopIsADraw) {
  const std::vector<RacerResult> r = {{64, 16, 20}, {64, 16, 20}, {8, 4, 3}};
  const Ranking k = rank_racers(r, false, std::nullopt);
  EXPECT_FALSE(k.winner.has_value());
  EXPECT_EQ(k.place[0], 0);
  EXPECT_EQ(k.place[1], 0);
  EXPECT_EQ(k.place[2], 2);
}

TEST(RankRacers, TargetWinnerFirstAndRacersOutLast) {
  RacerResult out{999, 512, 1};
  out.out = true;
  const std::vector<RacerResult> r = {{500, 64, 90}, out, {40, 32, 10}};
  const Ranking k = rank_racers(r, false, std::size_t{2});
  EXPECT_EQ(k.order, (std::vector<std::size_t>{2, 0, 1}));
  EXPECT_EQ(k.winner, 2u);
}

TEST(RankRacers, FifteenRanksByTilesHomeThenFewerMoves) {
  RacerResult a, b, c;
  a.tiles_home = 10, a.moves = 50;
  b.tiles_home = 12, b.moves = 80;
  c.tiles_home = 12, c.moves = 60;
  const Ranking k = rank_racers({a, b, c}, true, std::nullopt);
  EXPECT_EQ(k.order, (std::vector<std::size_t>{2, 1, 0}));
}

}  // namespace
}  // namespace tilerace::server
