#include "server/game/swiss_pairing.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "engine/splitmix64.hpp"

namespace tilerace::server {
namespace {

std::vector<Entrant> field(std::size_t n) {
  std::vector<Entrant> e;
  for (std::size_t i = 0; i < n; ++i) e.push_back({fmt::format("p{}", i), 1200 + int(i) * 7});
  return e;
}

// A result as a seeded, plausible race would give it: mostly the higher rating, some upsets
// and some draws.
MatchOutcome result(engine::SplitMix64& rng, const SwissPairing& swiss, std::size_t a,
                    std::size_t b) {
  const std::uint64_t roll = rng.next() % 10;
  if (roll == 0) return MatchOutcome::draw;
  const bool a_better = swiss.entrants()[a].rating > swiss.entrants()[b].rating;
  const bool upset = roll <= 2;
  return a_better != upset ? MatchOutcome::a_wins : MatchOutcome::b_wins;
}

// 32 players over 5 rounds: everyone plays every round, nobody twice against the same
// opponent, and the standings' points and Buchholz are what the results add up to.
TEST(SwissPairing, ThirtyTwoPlayersFiveRoundsNoRematchPointsAndBuchholz) {
  SwissPairing swiss(field(32));
  engine::SplitMix64 rng(2048);
  std::set<std::pair<std::size_t, std::size_t>> met;
  std::map<std::size_t, int> points;
  std::map<std::size_t, std::vector<std::size_t>> opponents;
  for (int round = 0; round < 5; ++round) {
    const SwissPairing::Round r = swiss.pair_round();
    EXPECT_FALSE(r.bye.has_value());
    ASSERT_EQ(r.matches.size(), 16u);
    std::set<std::size_t> seen;
    for (const auto& [a, b] : r.matches) {
      EXPECT_TRUE(seen.insert(a).second && seen.insert(b).second) << "a player twice in a round";
      EXPECT_TRUE(met.insert({std::min(a, b), std::max(a, b)}).second)
          << a << " and " << b << " meet again in round " << round + 1;
      const MatchOutcome o = result(rng, swiss, a, b);
      EXPECT_TRUE(swiss.report(a, b, o));
      points[a] += o == MatchOutcome::a_wins ? 2 : o == MatchOutcome::draw ? 1 : 0;
      points[b] += o == MatchOutcome::b_wins ? 2 : o == MatchOutcome::draw ? 1 : 0;
      opponents[a].push_back(b);
      opponents[b].push_back(a);
    }
    EXPECT_TRUE(swiss.round_complete());
  }
  const std::vector<SwissPairing::Standing> table = swiss.standings();
  ASSERT_EQ(table.size(), 32u);
  int total = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const SwissPairing::Standing& s = table[i];
    EXPECT_EQ(s.points, points[s.player]);
    int buchholz = 0;
    for (std::size_t o : opponents[s.player]) buchholz += points[o];
    EXPECT_EQ(s.buchholz, buchholz);
    total += s.points;
    if (i > 0) {  // points, then Buchholz, then rating
      const SwissPairing::Standing& above = table[i - 1];
      EXPECT_TRUE(above.points > s.points ||
                  (above.points == s.points &&
                   (above.buchholz > s.buchholz ||
                    (above.buchholz == s.buchholz && above.rating >= s.rating))));
    }
  }
  EXPECT_EQ(total, 5 * 16 * 2) << "each match hands out two halves: a win, or two draws";
}

// The largest field (256) over nine rounds, every result a draw (the hardest case for
// pairing by points: one score group of everyone): still no rematch.
TEST(SwissPairing, TheLargestFieldPairsWithoutRematches) {
  SwissPairing swiss(field(256));
  for (int round = 0; round < 9; ++round) {
    const SwissPairing::Round r = swiss.pair_round();
    ASSERT_EQ(r.matches.size(), 128u);
    for (const auto& [a, b] : r.matches) {
      ASSERT_FALSE(swiss.have_met(a, b)) << "round " << round + 1;
      swiss.report(a, b, MatchOutcome::draw);
    }
  }
}

// The first round pairs neighbours in rating; later rounds pair by points first.
TEST(SwissPairing, PairsByPointsThenRating) {
  SwissPairing swiss(field(4));  // ratings: 3 best, then 2, 1, 0
  SwissPairing::Round first = swiss.pair_round();
  EXPECT_EQ(first.matches, (std::vector<std::pair<std::size_t, std::size_t>>{{3, 2}, {1, 0}}));
  EXPECT_TRUE(swiss.report(3, 2, MatchOutcome::b_wins));
  EXPECT_TRUE(swiss.report(1, 0, MatchOutcome::b_wins));
  // 2 and 0 have won: they meet; 3 and 1 have lost.
  SwissPairing::Round second = swiss.pair_round();
  EXPECT_EQ(second.matches, (std::vector<std::pair<std::size_t, std::size_t>>{{2, 0}, {3, 1}}));
}

// Nine players: one bye a round, to the lowest in the standings who has not had one, never
// twice the same player; it is worth a win and adds nothing to anyone's Buchholz.
TEST(SwissPairing, AnOddFieldGivesOneByeARoundToTheLowestWithoutOne) {
  SwissPairing swiss(field(9));
  std::set<std::size_t> byes;
  std::map<std::size_t, int> points;
  std::map<std::size_t, std::vector<std::size_t>> opponents;
  for (int round = 0; round < 3; ++round) {
    const SwissPairing::Round r = swiss.pair_round();
    ASSERT_TRUE(r.bye.has_value());
    if (round == 0) {
      EXPECT_EQ(*r.bye, 0u) << "the lowest rated";
    }
    EXPECT_EQ(r.matches.size(), 4u);
    EXPECT_TRUE(byes.insert(*r.bye).second) << "a second bye for " << *r.bye;
    points[*r.bye] += 2;
    for (const auto& [a, b] : r.matches) {
      EXPECT_TRUE(swiss.report(a, b, MatchOutcome::a_wins));
      points[a] += 2;
      opponents[a].push_back(b);
      opponents[b].push_back(a);
    }
  }
  for (const SwissPairing::Standing& s : swiss.standings()) {
    EXPECT_EQ(s.points, points[s.player]);
    int buchholz = 0;
    for (std::size_t o : opponents[s.player]) buchholz += points[o];
    EXPECT_EQ(s.buchholz, buchholz);
  }
}

// A tournament rebuilt from the store takes its rounds as they were paired: a copy that
// resumes every round and report of the original stands and pairs exactly as it does.
TEST(SwissPairing, AResumedRoundStandsAndPairsOnAsTheOriginal) {
  engine::SplitMix64 rng(7);
  SwissPairing original(field(9));
  SwissPairing copy(field(9));
  for (int round = 0; round < 3; ++round) {
    const SwissPairing::Round r = original.pair_round();
    copy.resume_round(r);
    for (const auto& [a, b] : r.matches) {
      const MatchOutcome outcome = result(rng, original, a, b);
      ASSERT_TRUE(original.report(a, b, outcome));
      ASSERT_TRUE(copy.report(a, b, outcome));
    }
  }
  ASSERT_EQ(copy.rounds_paired(), 3);
  const auto key = [](const std::vector<SwissPairing::Standing>& table) {
    std::vector<std::tuple<std::size_t, int, int>> k;
    for (const auto& s : table) k.emplace_back(s.player, s.points, s.buchholz);
    return k;
  };
  EXPECT_EQ(key(copy.standings()), key(original.standings()));
  const SwissPairing::Round next = original.pair_round();
  const SwissPairing::Round resumed = copy.pair_round();
  EXPECT_EQ(resumed.matches, next.matches);
  EXPECT_EQ(resumed.bye, next.bye);
  EXPECT_THROW(copy.resume_round(next), std::logic_error) << "its round is not over";
}

TEST(SwissPairing, AReportThatIsNotAnOpenMatchChangesNothing) {
  SwissPairing swiss(field(4));
  const SwissPairing::Round r = swiss.pair_round();
  EXPECT_FALSE(swiss.report(3, 1, MatchOutcome::a_wins)) << "not paired";
  EXPECT_THROW(swiss.pair_round(), std::logic_error) << "the round is not over";
  EXPECT_TRUE(swiss.report(r.matches[0].second, r.matches[0].first, MatchOutcome::draw));
  EXPECT_FALSE(swiss.report(r.matches[0].first, r.matches[0].second, MatchOutcome::draw))
      << "reported already";
  EXPECT_FALSE(swiss.round_complete());
}

// Four players, four rounds: the fourth has no rematch-free pairing, so it allows rematches
// rather than stall.
TEST(SwissPairing, MoreRoundsThanTheFieldAllowsPairNeighboursAgain) {
  SwissPairing swiss(field(4));
  for (int round = 0; round < 4; ++round) {
    const SwissPairing::Round r = swiss.pair_round();
    ASSERT_EQ(r.matches.size(), 2u);
    if (round == 3) {
      EXPECT_TRUE(swiss.have_met(r.matches[0].first, r.matches[0].second));
    }
    for (const auto& [a, b] : r.matches) EXPECT_TRUE(swiss.report(a, b, MatchOutcome::a_wins));
  }
  EXPECT_EQ(swiss.rounds_paired(), 4);
}

}  // namespace
}  // namespace tilerace::server
