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

}  // namespace
}  // namespace tilerace::server
