#include "server/game/solo_games.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tilerace::server {
namespace {

TEST(SoloGames, ASlotIsMadeOnceAndKeptForItsPlayer) {
  SoloGames games;
  EXPECT_EQ(games.find("ann"), nullptr) << "nothing made before it is asked for";
  const auto first = games.slot("ann");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->player_id, "ann");
  EXPECT_FALSE(first->game.has_value());
  first->dirty = true;
  EXPECT_EQ(games.slot("ann"), first) << "the same slot again: a connection may keep it";
  EXPECT_EQ(games.find("ann"), first);
  EXPECT_NE(games.slot("bob"), first);
}

TEST(SoloGames, ForEachVisitsEverySlotWithoutHoldingTheRegistry) {
  SoloGames games;
  games.slot("ann");
  games.slot("bob");
  std::set<std::string> seen;
  games.for_each([&](SoloSlot& slot) {
    seen.insert(slot.player_id);
    games.slot("cy");  // the registry's lock is not held: this does not deadlock
  });
  EXPECT_EQ(seen, (std::set<std::string>{"ann", "bob"}));
  EXPECT_NE(games.find("cy"), nullptr);
}

}  // namespace
}  // namespace tilerace::server
