#include "server/rules/arena_pairing.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <set>

#include "tests/server/game/one_on_one.hpp"

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;

// n players, rated 1200, 1207, …: the last is the best.
std::vector<Entrant> field(std::size_t n) {
  std::vector<Entrant> e;
  for (std::size_t i = 0; i < n; ++i) e.push_back({fmt::format("p{}", i), 1200 + int(i) * 7});
  return e;
}

const ArenaPairing::Time kStart{std::chrono::hours(1)};

ArenaPairing::Standing standing_of(const ArenaPairing& arena, std::size_t player) {
  for (const ArenaPairing::Standing& s : arena.standings()) {
    if (s.player == player) return s;
  }
  ADD_FAILURE() << "no standing for " << player;
  return {};
}

TEST(ArenaPairing, EveryoneIsPairedAtTheStartAndNobodyBefore) {
  ArenaPairing arena(field(6), kStart, 60s);
  EXPECT_TRUE(arena.pair(kStart - 1s).empty());
  const Pairs first = pairs_of(arena.pair(kStart));
  ASSERT_EQ(first.size(), 3u);
  std::set<std::size_t> seen;
  for (const auto& [a, b] : first) EXPECT_TRUE(seen.insert(a).second && seen.insert(b).second);
  EXPECT_TRUE(arena.pair(kStart + 1s).empty()) << "everyone is racing";
}

// Players whose race ended meet the free player nearest in points, never their last opponent
// while someone else may come free; they wait meanwhile.
TEST(ArenaPairing, RepairsWithTheNearestInPointsButNotTheLastOpponent) {
  ArenaPairing arena(field(4), kStart, 60s);
  EXPECT_EQ(pairs_of(arena.pair(kStart)), (Pairs{{3, 2}, {1, 0}}))
      << "equal points: nearest rating";
  EXPECT_TRUE(report(arena, 3, 2, Result::win));
  EXPECT_TRUE(arena.pair(kStart + 10s).empty()) << "3 and 2 wait for 1 and 0";
  EXPECT_TRUE(report(arena, 1, 0, Result::loss));
  // 3 and 0 have 2 points, 2 and 1 none.
  EXPECT_EQ(pairs_of(arena.pair(kStart + 12s)), (Pairs{{3, 0}, {2, 1}}));
}

// A tournament rebuilt from the store resumes the matches its arena had paired: their players
// are busy until reported, then paired on as the original would.
TEST(ArenaPairing, ResumedMatchesKeepTheirPlayersBusyUntilReported) {
  ArenaPairing original(field(4), kStart, 60s);
  ArenaPairing copy(field(4), kStart, 60s);
  const Pairs first = pairs_of(original.pair(kStart));
  for (const auto& [a, b] : first) EXPECT_TRUE(copy.resume({a, b}));
  EXPECT_FALSE(copy.resume({first[0].first, first[1].first})) << "both are busy";
  EXPECT_TRUE(copy.pair(kStart + 1s).empty()) << "everyone is racing";
  for (ArenaPairing* arena : {&original, &copy}) {
    EXPECT_TRUE(report(*arena, first[0].first, first[0].second, Result::win));
    EXPECT_TRUE(report(*arena, first[1].first, first[1].second, Result::loss));
  }
  EXPECT_EQ(copy.pair(kStart + 2s), original.pair(kStart + 2s));
  EXPECT_FALSE(copy.over(kStart + 61s)) << "its resumed-then-paired races still run";
}

// Two wins in a row start a streak: every result counts double until one that is not a win.
TEST(ArenaPairing, TwoWinsInARowDoubleThePointsUntilAResultThatIsNotAWin) {
  ArenaPairing arena(field(2), kStart, 600s);  // two players: they meet again and again
  // Results for (1, 0).
  const std::vector<Result> results = {Result::win, Result::win,  Result::win,
                                       Result::win, Result::draw, Result::win};
  const std::vector<int> after = {2, 4, 8, 12, 14, 16};
  const std::vector<bool> streak = {false, true, true, true, false, false};
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Pairs p = pairs_of(arena.pair(kStart + std::chrono::seconds(i)));
    ASSERT_EQ(p.size(), 1u);
    ASSERT_TRUE(report(arena, 1, 0, results[i]));  // player 1 wins, or draws
    EXPECT_EQ(standing_of(arena, 1).points, after[i]) << "after game " << i + 1;
    EXPECT_EQ(standing_of(arena, 1).streak, streak[i]) << "after game " << i + 1;
  }
  EXPECT_EQ(standing_of(arena, 0).points, 1) << "the draw, off a streak: one point";
  EXPECT_EQ(standing_of(arena, 1).wins, 5);
  EXPECT_EQ(standing_of(arena, 1).played, 6);
  EXPECT_EQ(arena.standings().front().player, 1u);
}

TEST(ArenaPairing, NobodyIsPairedOnceTheTimeIsUpAndRunningRacesStillCount) {
  ArenaPairing arena(field(4), kStart, 60s);
  ASSERT_EQ(arena.pair(kStart).size(), 2u);
  EXPECT_TRUE(report(arena, 3, 2, Result::draw));
  EXPECT_FALSE(arena.over(kStart + 60s)) << "1 and 0 still race";
  EXPECT_TRUE(arena.pair(kStart + 60s).empty());
  EXPECT_TRUE(report(arena, 1, 0, Result::win));
  EXPECT_EQ(standing_of(arena, 1).points, 2);
  EXPECT_TRUE(arena.pair(kStart + 61s).empty());
  EXPECT_TRUE(arena.over(kStart + 61s));
  EXPECT_FALSE(report(arena, 1, 0, Result::win)) << "not running";
}

// A player who left is not waited for: the two left in the arena may meet again.
TEST(ArenaPairing, APlayerWhoLeftIsNeitherPairedNorWaitedFor) {
  ArenaPairing arena(field(3), kStart, 60s);
  ASSERT_EQ(pairs_of(arena.pair(kStart)), (Pairs{{2, 1}})) << "0 waits";
  arena.withdraw(0);
  EXPECT_TRUE(report(arena, 2, 1, Result::loss));
  EXPECT_EQ(pairs_of(arena.pair(kStart + 5s)), (Pairs{{1, 2}}));
}

// Rooms of up to four: the free players fill rooms as even as their number allows, best first;
// first wins, last loses, a place between draws.
TEST(ArenaPairing, RoomsFillEvenlyAndScoreByPlace) {
  ArenaPairing arena(field(5), kStart, 600s, 4);
  EXPECT_EQ(arena.pair(kStart), (std::vector<Group>{{4, 3, 2}, {1, 0}}));
  EXPECT_TRUE(arena.report({3, 4, 2}, {Result::draw, Result::win, Result::loss}));
  EXPECT_EQ(standing_of(arena, 4).points, 2);
  EXPECT_EQ(standing_of(arena, 3).points, 1);
  EXPECT_EQ(standing_of(arena, 2).points, 0);
  EXPECT_EQ(standing_of(arena, 2).played, 1);
  EXPECT_FALSE(arena.report({4, 3, 2}, {Result::win, Result::draw, Result::loss})) << "not running";
}

// With fewer free than a room holds, the arena waits for more — at most kRoomWait, then the
// free race as they are.
TEST(ArenaPairing, ARoomWaitsToFillAtMostTheRoomWait) {
  ArenaPairing arena(field(6), kStart, 600s, 4);
  EXPECT_EQ(arena.pair(kStart), (std::vector<Group>{{5, 4, 3}, {2, 1, 0}}));
  EXPECT_TRUE(arena.report({2, 1, 0}, {Result::win, Result::draw, Result::loss}));
  EXPECT_TRUE(arena.pair(kStart + 60s).empty()) << "three free: a room of four waits";
  EXPECT_TRUE(arena.pair(kStart + 60s + ArenaPairing::kRoomWait - 1s).empty());
  EXPECT_EQ(arena.pair(kStart + 60s + ArenaPairing::kRoomWait), (std::vector<Group>{{2, 1, 0}}))
      << "nobody else to wait for: they race again";
}

// Re-filled rooms prefer players who were not in the first seat's last race; a room of two
// who just raced each other waits, as in 1-on-1.
TEST(ArenaPairing, RefilledRoomsMixTheField) {
  ArenaPairing arena(field(6), kStart, 600s, 3);
  ASSERT_EQ(arena.pair(kStart), (std::vector<Group>{{5, 4, 3}, {2, 1, 0}}));
  EXPECT_TRUE(arena.report({5, 4, 3}, {Result::win, Result::draw, Result::loss}));
  EXPECT_TRUE(arena.report({2, 1, 0}, {Result::win, Result::draw, Result::loss}));
  // 5 and 2 have 2 points, 4 and 1 one, 3 and 0 none.
  EXPECT_EQ(arena.pair(kStart + 1s), (std::vector<Group>{{5, 2, 1}, {4, 0, 3}}));

  ArenaPairing two(field(4), kStart, 600s, 3);
  ASSERT_EQ(two.pair(kStart), (std::vector<Group>{{3, 2}, {1, 0}}));
  EXPECT_TRUE(two.report({1, 0}, {Result::win, Result::loss}));
  EXPECT_TRUE(two.pair(kStart + 60s).empty());
  EXPECT_TRUE(two.pair(kStart + 60s + ArenaPairing::kRoomWait).empty())
      << "1 and 0 wait for 3 and 2";
  EXPECT_TRUE(two.report({3, 2}, {Result::win, Result::loss}));
  EXPECT_EQ(two.pair(kStart + 61s + ArenaPairing::kRoomWait), (std::vector<Group>{{3, 1}, {2, 0}}))
      << "four free: two rooms of two, neither a rematch";
}

}  // namespace
}  // namespace tilerace::server
