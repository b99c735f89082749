#include "server/game/matchmaker.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tilerace::server {
namespace {

using Outcome = Matchmaker::Outcome;
const Matchmaker::Key kClassic4{engine::Mode::classic, 4};

std::shared_ptr<Player> player(const std::string& id) {
  return std::make_shared<Player>(id, id, 1500);
}

TEST(Matchmaker, PairsWithTheLongestWaitingPlayerOfTheSameKey) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b"), c = player("c"), other = player("o");
  std::vector<std::string> offered;
  const auto pair = [&](const std::shared_ptr<Player>& waiting) {
    offered.push_back(waiting->id);
    return Claim::paired;
  };
  EXPECT_EQ(mm.match(kClassic4, a, pair), Outcome::queued);
  EXPECT_EQ(mm.match({engine::Mode::classic, 5}, other, pair), Outcome::queued);
  EXPECT_EQ(mm.match(kClassic4, b, pair), Outcome::paired);
  EXPECT_EQ(offered, (std::vector<std::string>{"a"}));
  // a left the queue with the pairing: c waits.
  EXPECT_EQ(mm.match(kClassic4, c, pair), Outcome::queued);
  EXPECT_TRUE(mm.cancel(*c));
  EXPECT_FALSE(mm.cancel(*c));
}

TEST(Matchmaker, AWaitingPlayerWhoIsNoLongerFreeIsSkipped) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b"), c = player("c");
  const auto always = [](const std::shared_ptr<Player>&) { return Claim::paired; };
  mm.match(kClassic4, a, always);
  mm.match({engine::Mode::fifteen, 4}, b, always);  // b waits elsewhere
  mm.match(kClassic4, b, always);                   // …and is then paired with a
  EXPECT_FALSE(mm.cancel(*b));                      // in no queue any more
  mm.match(kClassic4, a, always);
  // a joined a room meanwhile: skipped, and c is queued instead of stranded.
  std::vector<std::string> offered;
  EXPECT_EQ(mm.match(kClassic4, c,
                     [&](const std::shared_ptr<Player>& w) {
                       offered.push_back(w->id);
                       return Claim::waiting_busy;
                     }),
            Outcome::queued);
  EXPECT_EQ(offered, (std::vector<std::string>{"a"}));
  EXPECT_FALSE(mm.cancel(*a));
  EXPECT_TRUE(mm.cancel(*c));
}

TEST(Matchmaker, AnArrivingPlayerWhoIsNotFreeIsNeitherPairedNorQueued) {
  Matchmaker mm;
  const auto a = player("a"), b = player("b");
  mm.match(kClassic4, a, [](const std::shared_ptr<Player>&) { return Claim::paired; });
  EXPECT_EQ(
      mm.match(kClassic4, b, [](const std::shared_ptr<Player>&) { return Claim::arriving_busy; }),
      Outcome::refused);
  EXPECT_TRUE(mm.cancel(*a));  // a still waits
  EXPECT_FALSE(mm.cancel(*b));
}

TEST(Matchmaker, PlayersWhoAreGoneAreDropped) {
  Matchmaker mm;
  auto a = player("a");
  const auto b = player("b");
  mm.match(kClassic4, a, [](const std::shared_ptr<Player>&) { return Claim::paired; });
  a.reset();
  int offers = 0;
  EXPECT_EQ(mm.match(kClassic4, b,
                     [&](const std::shared_ptr<Player>&) {
                       ++offers;
                       return Claim::paired;
                     }),
            Outcome::queued);
  EXPECT_EQ(offers, 0);
}

}  // namespace
}  // namespace tilerace::server
