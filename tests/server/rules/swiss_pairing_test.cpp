#include "server/rules/swiss_pairing.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "engine/splitmix64.hpp"
#include "tests/server/game/one_on_one.hpp"

namespace tilerace::server {
namespace {

std::vector<Entrant> field(std::size_t n) {
  std::vector<Entrant> e;
  for (std::size_t i = 0; i < n; ++i) e.push_back({fmt::format("p{}", i), 1200 + int(i) * 7});
  return e;
}

// A result as a seeded, plausible race would give it: mostly the higher rating, some upsets
// and some draws.
// a's result.
Result result(engine::SplitMix64& rng, const SwissPairing& swiss, std::size_t a, std::size_t b) {
  const std::uint64_t roll = rng.next() % 10;
  if (roll == 0) return Result::draw;
  const bool a_better = swiss.entrants()[a].rating > swiss.entrants()[b].rating;
  const bool upset = roll <= 2;
  return a_better != upset ? Result::win : Result::loss;
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
    for (const auto& [a, b] : pairs_of(r.matches)) {
      EXPECT_TRUE(seen.insert(a).second && seen.insert(b).second) << "a player twice in a round";
      EXPECT_TRUE(met.insert({std::min(a, b), std::max(a, b)}).second)
          << a << " and " << b << " meet again in round " << round + 1;
      const Result o = result(rng, swiss, a, b);
      EXPECT_TRUE(report(swiss, a, b, o));
      points[a] += o == Result::win ? 2 : o == Result::draw ? 1 : 0;
      points[b] += o == Result::loss ? 2 : o == Result::draw ? 1 : 0;
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
    for (const auto& [a, b] : pairs_of(r.matches)) {
      ASSERT_FALSE(swiss.have_met(a, b)) << "round " << round + 1;
      report(swiss, a, b, Result::draw);
    }
  }
}

// The first round pairs neighbours in rating; later rounds pair by points first.
TEST(SwissPairing, PairsByPointsThenRating) {
  SwissPairing swiss(field(4));  // ratings: 3 best, then 2, 1, 0
  SwissPairing::Round first = swiss.pair_round();
  EXPECT_EQ(pairs_of(first.matches), (Pairs{{3, 2}, {1, 0}}));
  EXPECT_TRUE(report(swiss, 3, 2, Result::loss));
  EXPECT_TRUE(report(swiss, 1, 0, Result::loss));
  // 2 and 0 have won: they meet; 3 and 1 have lost.
  SwissPairing::Round second = swiss.pair_round();
  EXPECT_EQ(pairs_of(second.matches), (Pairs{{2, 0}, {3, 1}}));
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
    for (const auto& [a, b] : pairs_of(r.matches)) {
      EXPECT_TRUE(report(swiss, a, b, Result::win));
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
    for (const auto& [a, b] : pairs_of(r.matches)) {
      const Result outcome = result(rng, original, a, b);
      ASSERT_TRUE(report(original, a, b, outcome));
      ASSERT_TRUE(report(copy, a, b, outcome));
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
  EXPECT_FALSE(report(swiss, 3, 1, Result::win)) << "not paired";
  EXPECT_THROW(swiss.pair_round(), std::logic_error) << "the round is not over";
  EXPECT_TRUE(report(swiss, r.matches[0][1], r.matches[0][0], Result::draw));
  EXPECT_FALSE(report(swiss, r.matches[0][0], r.matches[0][1], Result::draw)) << "reported already";
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
      EXPECT_TRUE(swiss.have_met(r.matches[0][0], r.matches[0][1]));
    }
    for (const auto& [a, b] : pairs_of(r.matches)) EXPECT_TRUE(report(swiss, a, b, Result::win));
  }
  EXPECT_EQ(swiss.rounds_paired(), 4);
}

// Rooms of four: nine players race in three rooms of three (as even as the field allows, no
// bye), filled in standings order; first wins, last loses, the middle draws; every opponent of
// a room counts in Buchholz, and the next round's rooms mix the field without a rematch.
TEST(SwissPairing, RoomsFillInStandingsOrderEvenlyAndScoreByPlace) {
  SwissPairing swiss(field(9), 4);  // ratings: 8 best … 0
  const SwissPairing::Round first = swiss.pair_round();
  EXPECT_FALSE(first.bye.has_value());
  EXPECT_EQ(first.matches, (std::vector<Group>{{8, 7, 6}, {5, 4, 3}, {2, 1, 0}}));
  for (const Group& room : first.matches) {
    EXPECT_TRUE(swiss.report(room, {Result::win, Result::draw, Result::loss}));
  }
  EXPECT_FALSE(swiss.report({8, 7, 6}, {Result::win, Result::draw, Result::loss}))
      << "reported already";
  // 8, 5 and 2 won; 7, 4 and 1 drew: each room takes one of each, nobody met before.
  const SwissPairing::Round second = swiss.pair_round();
  EXPECT_EQ(second.matches, (std::vector<Group>{{8, 5, 2}, {7, 4, 1}, {6, 3, 0}}));
  // In any order of its players.
  EXPECT_TRUE(swiss.report({2, 8, 5}, {Result::win, Result::draw, Result::loss}));
  EXPECT_TRUE(swiss.report({7, 4, 1}, {Result::draw, Result::draw, Result::draw}));
  EXPECT_TRUE(swiss.report({6, 3, 0}, {Result::loss, Result::loss, Result::win}));
  std::map<std::size_t, SwissPairing::Standing> by_player;
  for (const SwissPairing::Standing& s : swiss.standings()) by_player[s.player] = s;
  EXPECT_EQ(by_player[2].points, 4);  // two wins
  EXPECT_EQ(by_player[8].points, 3);  // a win, a draw
  EXPECT_EQ(by_player[5].points, 2);  // a win, a loss
  EXPECT_EQ(by_player[0].points, 2);  // a loss, a win
  // 8 met 7 (2), 6 (0), then 5 (2) and 2 (4).
  EXPECT_EQ(by_player[8].buchholz, 2 + 0 + 2 + 4);
}

// Ten players in rooms of four: four, three and three. Six in rooms of three over more rounds
// than the field has new opponents for: each round's rooms repeat as few earlier meetings as
// any split of the six could (checked against all ten), and rounds still pair.
TEST(SwissPairing, RoomsSplitEvenlyAndKeepRematchesFew) {
  SwissPairing ten(field(10), 4);
  const SwissPairing::Round r = ten.pair_round();
  ASSERT_EQ(r.matches.size(), 3u);
  EXPECT_EQ(r.matches[0].size(), 4u);
  EXPECT_EQ(r.matches[1].size(), 3u);
  EXPECT_EQ(r.matches[2].size(), 3u);

  SwissPairing six(field(6), 3);
  std::map<std::pair<std::size_t, std::size_t>, int> met;
  const auto repeats = [&met](const Group& room) {
    int n = 0;
    for (std::size_t a : room) {
      for (std::size_t b : room) {
        if (a < b) n += met[{a, b}];
      }
    }
    return n;
  };
  for (int round = 0; round < 5; ++round) {
    int fewest = 1 << 20;  // over every split into two rooms of three (0 in the first)
    for (std::size_t x = 1; x < 6; ++x) {
      for (std::size_t y = x + 1; y < 6; ++y) {
        Group first{0, x, y}, second;
        for (std::size_t p = 1; p < 6; ++p) {
          if (p != x && p != y) second.push_back(p);
        }
        fewest = std::min(fewest, repeats(first) + repeats(second));
      }
    }
    const SwissPairing::Round rooms = six.pair_round();
    ASSERT_EQ(rooms.matches.size(), 2u);
    std::set<std::size_t> seen;
    int repeated = 0;
    for (const Group& room : rooms.matches) {
      ASSERT_EQ(room.size(), 3u);
      for (std::size_t p : room) EXPECT_TRUE(seen.insert(p).second) << "a player twice";
      repeated += repeats(room);
    }
    EXPECT_EQ(repeated, fewest) << "round " << round + 1;
    // After the first round, two rooms of three cannot avoid two from the same earlier room.
    EXPECT_EQ(repeated == 0, round == 0) << "round " << round + 1;
    for (const Group& room : rooms.matches) {
      for (std::size_t a : room) {
        for (std::size_t b : room) {
          if (a < b) ++met[{a, b}];
        }
      }
      EXPECT_TRUE(six.report(room, {Result::win, Result::draw, Result::loss}));
    }
  }
  EXPECT_THROW(SwissPairing(field(4), 5), std::invalid_argument);

  // The largest field in rooms of four, every result a draw (one score group): it pairs.
  SwissPairing big(field(256), 4);
  for (int round = 0; round < 20; ++round) {
    const SwissPairing::Round rooms = big.pair_round();
    ASSERT_EQ(rooms.matches.size(), 64u);
    for (const Group& room : rooms.matches) {
      ASSERT_TRUE(big.report(room, std::vector<Result>(room.size(), Result::draw)));
    }
  }
}

}  // namespace
}  // namespace tilerace::server
