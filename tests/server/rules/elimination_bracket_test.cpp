#include "server/rules/elimination_bracket.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace tilerace::server {
namespace {

// n players given worst first (ratings 1000, 1010, …), so seeding has to sort them.
std::vector<Entrant> field(std::size_t n) {
  std::vector<Entrant> e;
  for (std::size_t i = 0; i < n; ++i) e.push_back({fmt::format("p{}", i), 1000 + int(i) * 10});
  return e;
}

// Plays the bracket out with the better seed (the lower index) always winning; returns the
// matches played, in order.
std::vector<std::pair<std::size_t, std::size_t>> play_out(EliminationBracket& bracket) {
  std::vector<std::pair<std::size_t, std::size_t>> played;
  for (std::vector<EliminationBracket::Ref> ready = bracket.playable(); !ready.empty();
       ready = bracket.playable()) {
    const EliminationBracket::Match& m = bracket.match(ready.front());
    played.emplace_back(*m.a, *m.b);
    EXPECT_TRUE(bracket.decide(ready.front(), std::min(*m.a, *m.b)));
  }
  return played;
}

TEST(EliminationBracket, SeedsByRatingBestFirst) {
  EliminationBracket bracket(field(4), false);
  EXPECT_EQ(bracket.seeds().front().player_id, "p3");
  EXPECT_EQ(bracket.seeds().back().player_id, "p0");
}

struct Byes {
  std::size_t players;
  std::size_t byes;
};

class EliminationByes : public ::testing::TestWithParam<Byes> {};

// Five, six and seven players in a bracket of eight: the best seeds get the byes, each plays a
// first-round match only if they have none, and seeds 1 and 2 meet only in the final.
TEST_P(EliminationByes, GoToTheBestSeedsAndTheTopTwoMeetOnlyInTheFinal) {
  const auto [n, byes] = GetParam();
  EliminationBracket bracket(field(n), false);
  ASSERT_EQ(bracket.rounds().size(), 3u);
  std::set<std::size_t> with_bye, in_first_round;
  for (const EliminationBracket::Match& m : bracket.rounds()[0]) {
    if (m.bye) {
      with_bye.insert(*m.a);
      EXPECT_FALSE(m.b.has_value());
      EXPECT_EQ(m.winner, m.a);
    } else {
      in_first_round.insert({*m.a, *m.b});
    }
  }
  std::set<std::size_t> best;
  for (std::size_t s = 0; s < byes; ++s) best.insert(s);
  EXPECT_EQ(with_bye, best);
  EXPECT_EQ(in_first_round.size(), n - byes);
  std::size_t first_round_ready = 0;
  for (const EliminationBracket::Ref ref : bracket.playable()) first_round_ready += ref.round == 0;
  EXPECT_EQ(first_round_ready, (n - byes) / 2) << "byes are not played";
  const auto played = play_out(bracket);
  EXPECT_EQ(played.size(), n - 1) << "every match but a bye eliminates one player";
  EXPECT_EQ(played.back(), (std::pair<std::size_t, std::size_t>{0, 1}));
  for (std::size_t i = 0; i + 1 < played.size(); ++i) {
    EXPECT_NE(played[i], (std::pair<std::size_t, std::size_t>{0, 1})) << "met before the final";
  }
  ASSERT_TRUE(bracket.finished());
  EXPECT_EQ(bracket.podium(), (std::vector<std::size_t>{0, 1, 3, 2}));
}

INSTANTIATE_TEST_SUITE_P(FiveSixSeven, EliminationByes,
                         ::testing::Values(Byes{5, 3}, Byes{6, 2}, Byes{7, 1}));

TEST(EliminationBracket, TheThirdPlaceMatchIsPlayedByTheSemifinalsLosers) {
  EliminationBracket bracket(field(8), true);
  ASSERT_EQ(bracket.rounds().back().size(), 2u);
  const auto played = play_out(bracket);
  EXPECT_EQ(played.size(), 8u) << "seven to find the winner, one for third place";
  EXPECT_NE(std::find(played.begin(), played.end(), std::pair<std::size_t, std::size_t>{3, 2}),
            played.end());
  EXPECT_EQ(bracket.podium(), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(EliminationBracket, AnUpsetMovesTheWinnerOn) {
  EliminationBracket bracket(field(4), false);
  // Seeds 0–3 and 1–2; 3 beats 0 and meets the winner of 1–2 in the final.
  const std::vector<EliminationBracket::Ref> first = bracket.playable();
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(*bracket.match(first[0]).b, 3u);
  EXPECT_TRUE(bracket.decide(first[0], 3));
  EXPECT_TRUE(bracket.decide(first[1], 2));
  const EliminationBracket::Match& final = bracket.match({1, 0});
  EXPECT_EQ(final.a, 3u);
  EXPECT_EQ(final.b, 2u);
  EXPECT_TRUE(bracket.decide({1, 0}, 2));
  EXPECT_EQ(bracket.podium(), (std::vector<std::size_t>{2, 3, 0, 1}));
}

TEST(EliminationBracket, ADecisionThatIsNotPlayableChangesNothing) {
  EliminationBracket bracket(field(5), true);
  EXPECT_FALSE(bracket.decide({0, 0}, 0)) << "a bye is not played";
  EXPECT_FALSE(bracket.decide({1, 0}, 0)) << "its second player is not known yet";
  EXPECT_FALSE(bracket.decide({0, 1}, 0)) << "not one of its players";
  EXPECT_FALSE(bracket.decide({7, 0}, 0));
  EXPECT_FALSE(bracket.decide({0, -1}, 0));
  const EliminationBracket::Ref ready = bracket.playable().at(0);
  EXPECT_TRUE(bracket.decide(ready, *bracket.match(ready).a));
  EXPECT_FALSE(bracket.decide(ready, *bracket.match(ready).a)) << "decided already";
  EXPECT_FALSE(bracket.finished());
  EXPECT_TRUE(bracket.podium().empty());
}

TEST(EliminationBracket, TwoAndThreePlayers) {
  EliminationBracket two(field(2), true);
  EXPECT_EQ(play_out(two).size(), 1u);
  EXPECT_EQ(two.podium(), (std::vector<std::size_t>{0, 1}));
  EliminationBracket three(field(3), true);  // a semifinal is a bye: no third-place match
  EXPECT_EQ(three.rounds().back().size(), 1u);
  EXPECT_EQ(play_out(three).size(), 2u);
  EXPECT_EQ(three.podium(), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_THROW(EliminationBracket(field(1), false), std::invalid_argument);
}

}  // namespace
}  // namespace tilerace::server
