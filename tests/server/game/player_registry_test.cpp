#include "server/game/player_registry.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/server/fake_participant.hpp"

namespace tilerace::server {
namespace {

using testing::FakeParticipant;

TEST(PlayerRegistry, AdoptReturnsOnePlayerPerId) {
  PlayerRegistry registry;
  const auto a = registry.adopt({"p1", "ann", "h", 0});
  const auto b = registry.adopt({"p1", "other", "h2", 0});
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->name(), "ann");
  EXPECT_EQ(registry.find("p1"), a);
  EXPECT_EQ(registry.find("p2"), nullptr);
}

// Another node sharing the store rated them meanwhile: the store's ratings replace this node's.
TEST(PlayerRegistry, AdoptingAKnownPlayerTakesTheStoresRatings) {
  PlayerRegistry registry;
  const auto a = registry.adopt({"p1", "ann", "h", 0});
  PlayerRecord rated{"p1", "ann", "h", 0};
  rated.ratings[protocol::index_of(protocol::Variant::classic_5)] = {{1700, 90, 0.06}, 5000};
  EXPECT_EQ(registry.adopt(rated), a);
  EXPECT_EQ(a->ratings, rated.ratings);
}

TEST(PlayerRegistry, AttachingASecondConnectionClosesTheFirstWith4000) {
  PlayerRegistry registry;
  const auto player = registry.adopt({"p1", "ann", "h", 0});
  auto first = std::make_shared<FakeParticipant>();
  auto second = std::make_shared<FakeParticipant>();
  registry.attach(*player, first);
  EXPECT_TRUE(first->closes.empty());
  registry.attach(*player, second);
  EXPECT_EQ(first->closes, (std::vector<std::uint16_t>{4000}));
  EXPECT_TRUE(second->closes.empty());
  // The replaced connection's late detach leaves the new one in place.
  EXPECT_FALSE(registry.detach(*player, first.get()));
  EXPECT_EQ(player->connection.lock(), second);
  EXPECT_TRUE(registry.detach(*player, second.get()));
  EXPECT_EQ(player->connection.lock(), nullptr);
}

TEST(PlayerRegistry, AConnectionUnderAnEarlierEpochThanOneElsewhereIsSuperseded) {
  PlayerRegistry registry;
  const auto player = registry.adopt({"p1", "ann", "h", 0});
  auto here = std::make_shared<FakeParticipant>();
  ASSERT_TRUE(registry.attach(*player, here, 3, "s3"));
  // A takeover message under an earlier or the same epoch changes nothing.
  EXPECT_EQ(PlayerRegistry::superseded(*player, 2), nullptr);
  EXPECT_EQ(PlayerRegistry::superseded(*player, 3), nullptr);
  EXPECT_EQ(player->newest_epoch, 3);
  // Another node's connection took epoch 5: this one is returned for closing.
  EXPECT_EQ(PlayerRegistry::superseded(*player, 5), here);
  EXPECT_EQ(player->newest_epoch, 5);
  // A connection here that took epoch 4 before that message arrived never begins.
  auto late = std::make_shared<FakeParticipant>();
  EXPECT_FALSE(registry.attach(*player, late, 4, "s4"));
  EXPECT_EQ(late->closes, (std::vector<std::uint16_t>{4000}));
  EXPECT_EQ(player->connection.lock(), here);
  // The closed one detaches: its player settles (a newer connection exists elsewhere).
  EXPECT_TRUE(registry.detach(*player, here.get()));
  EXPECT_TRUE(player->settling);
  EXPECT_GT(player->newest_epoch, player->epoch);
  // One under a later epoch attaches, and is no longer settling.
  auto next = std::make_shared<FakeParticipant>();
  EXPECT_TRUE(registry.attach(*player, next, 6, "s6"));
  EXPECT_FALSE(player->settling);
  EXPECT_EQ(player->session, "s6");
}

TEST(PlayerRegistry, OnOneNodeADetachedPlayerNeverSettles) {
  PlayerRegistry registry;
  const auto player = registry.adopt({"p1", "ann", "h", 0});
  auto c = std::make_shared<FakeParticipant>();
  registry.attach(*player, c);
  EXPECT_TRUE(registry.detach(*player, c.get()));
  EXPECT_FALSE(player->settling);  // epoch 0: no cluster, offline at once
}

}  // namespace
}  // namespace tilerace::server
