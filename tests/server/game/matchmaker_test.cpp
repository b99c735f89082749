// Quick match by rating: the closest within both windows, windows that widen as players wait
// (on the injected clock: every call is given its time), and the pairing's atomic step.
#include "server/game/matchmaker.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;
using Outcome = Matchmaker::Outcome;
const Matchmaker::Key kClassic4{engine::Mode::classic, 4, false};
const Matchmaker::Clock::time_point t0{1h};

std::shared_ptr<Player> player(const std::string& id) { return std::make_shared<Player>(id, id); }

// A settled rating: window ±150 at first.
Seeking rated(double rating) { return {rating, 50}; }

struct Offers {
  std::vector<std::string> ids;
  Claim answer = Claim::paired;
  Matchmaker::Pair pair() {
    return [this](const std::shared_ptr<Player>& waiting) {
      ids.push_back(waiting->id);
      return answer;
    };
  }
};

TEST(Matchmaker, PairsTheClosestRatingWithinBothWindows) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b"), c = player("c"), d = player("d");
  Offers offers;
  EXPECT_EQ(mm.match(kClassic4, a, rated(1500), t0, offers.pair()), Outcome::queued);
  EXPECT_EQ(mm.match(kClassic4, b, rated(2000), t0, offers.pair()), Outcome::queued);
  EXPECT_EQ(mm.match(kClassic4, c, rated(1540), t0, offers.pair()), Outcome::paired)
      << "a is 40 away: within both windows of 150";
  EXPECT_EQ(offers.ids, (std::vector<std::string>{"a"}));
  EXPECT_EQ(mm.match(kClassic4, d, rated(1700), t0, offers.pair()), Outcome::queued)
      << "b is 300 away: beyond both windows";
  EXPECT_TRUE(mm.cancel(*b));
  EXPECT_TRUE(mm.cancel(*d));
  EXPECT_FALSE(mm.cancel(*a)) << "paired: out of the pool";
}

TEST(Matchmaker, OfTwoAsCloseTheLongerWaitingComesFirstAndOtherKeysNever) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b"), c = player("c"), o = player("o");
  Offers offers;
  mm.match({engine::Mode::classic, 5, false}, o, rated(1600), t0, offers.pair());
  const auto bot = player("bot");  // the bot queue of the same variant is another pool
  mm.match({engine::Mode::classic, 4, true}, bot, rated(1600), t0, offers.pair());
  mm.match(kClassic4, a, rated(1500), t0, offers.pair());
  mm.match(kClassic4, b, rated(1700), t0 + 1s, offers.pair());  // 200 from a: out of reach
  EXPECT_EQ(mm.match(kClassic4, c, rated(1600), t0 + 2s, offers.pair()), Outcome::paired);
  EXPECT_EQ(offers.ids, (std::vector<std::string>{"a"}));
}

TEST(Matchmaker, AWindowWidensBy50Every5SecondsAndARematchFindsWhoCameInReach) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b");
  Offers offers;
  mm.match(kClassic4, a, rated(1500), t0, offers.pair());
  EXPECT_EQ(mm.match(kClassic4, b, rated(1800), t0, offers.pair()), Outcome::queued);
  // 300 apart: both windows reach 300 after 15 s (150 + 3 × 50).
  EXPECT_EQ(mm.rematch(kClassic4, a, t0 + 10s, offers.pair()), Outcome::queued);
  EXPECT_TRUE(offers.ids.empty());
  EXPECT_EQ(mm.rematch(kClassic4, a, t0 + 15s, offers.pair()), Outcome::paired);
  EXPECT_EQ(offers.ids, (std::vector<std::string>{"b"}));
  EXPECT_EQ(mm.rematch(kClassic4, b, t0 + 16s, offers.pair()), Outcome::gone);
  EXPECT_EQ(mm.rematch(kClassic4, a, t0 + 16s, offers.pair()), Outcome::gone);
}

TEST(Matchmaker, BothWindowsMustReachAndNoneGoesBeyond600) {
  Matchmaker mm;
  const auto fresh = player("fresh"), settled = player("settled"), far = player("far");
  Offers offers;
  mm.match(kClassic4, settled, rated(1500), t0, offers.pair());
  // A newcomer's window is ±450 (100 + 350); the settled player's ±150 still decides.
  EXPECT_EQ(mm.match(kClassic4, fresh, {1800, 350}, t0, offers.pair()), Outcome::queued);
  EXPECT_EQ(mm.rematch(kClassic4, fresh, t0 + 20s, offers.pair()), Outcome::paired)
      << "the settled one's window reached 350 by now";
  mm.match(kClassic4, settled, rated(1500), t0 + 21s, offers.pair());
  mm.match(kClassic4, far, rated(2150), t0 + 21s, offers.pair());
  EXPECT_EQ(mm.rematch(kClassic4, far, t0 + 1h, offers.pair()), Outcome::queued)
      << "650 apart: beyond the ±600 cap, however long they wait";
}

TEST(Matchmaker, AskingAgainKeepsTheWait) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b");
  Offers offers;
  mm.match(kClassic4, a, rated(1500), t0, offers.pair());
  mm.match(kClassic4, a, rated(1500), t0 + 9s, offers.pair());  // a second quick_match
  EXPECT_EQ(mm.match(kClassic4, b, rated(1700), t0 + 10s, offers.pair()), Outcome::queued);
  EXPECT_EQ(mm.rematch(kClassic4, b, t0 + 15s, offers.pair()), Outcome::paired)
      << "a has waited 15 s (window 300), b 5 s (200): 200 apart";
}

TEST(Matchmaker, AWaitingPlayerWhoIsNoLongerFreeIsSkipped) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b"), c = player("c");
  Offers offers;
  mm.match(kClassic4, a, rated(1500), t0, offers.pair());
  mm.match(kClassic4, b, rated(1510), t0, offers.pair());  // b and a race
  mm.match(kClassic4, a, rated(1500), t0, offers.pair());  // a waits again…
  offers.answer = Claim::waiting_busy;                     // …but is in a room meanwhile
  offers.ids.clear();
  EXPECT_EQ(mm.match(kClassic4, c, rated(1500), t0, offers.pair()), Outcome::queued);
  EXPECT_EQ(offers.ids, (std::vector<std::string>{"a"}));
  EXPECT_FALSE(mm.cancel(*a)) << "skipped and dropped";
  EXPECT_TRUE(mm.cancel(*c)) << "queued instead of stranded";
}

TEST(Matchmaker, AnArrivingPlayerWhoIsNotFreeIsNeitherPairedNorQueued) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b");
  Offers offers;
  mm.match(kClassic4, a, rated(1500), t0, offers.pair());
  offers.answer = Claim::arriving_busy;
  EXPECT_EQ(mm.match(kClassic4, b, rated(1500), t0, offers.pair()), Outcome::refused);
  EXPECT_TRUE(mm.cancel(*a));  // a still waits
  EXPECT_FALSE(mm.cancel(*b));
}

TEST(Matchmaker, PlayersWhoAreGoneAreDropped) {
  Matchmaker mm;
  auto a = player("a");
  const auto b = player("b");
  Offers offers;
  mm.match(kClassic4, a, rated(1500), t0, offers.pair());
  a.reset();
  EXPECT_EQ(mm.match(kClassic4, b, rated(1500), t0, offers.pair()), Outcome::queued);
  EXPECT_TRUE(offers.ids.empty());
}

}  // namespace
}  // namespace tilerace::server
