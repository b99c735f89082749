#include "server/play/presence_board.hpp"

#include <gtest/gtest.h>

#include "tests/server/fake_participant.hpp"

namespace tilerace::server {
namespace {

using testing::FakeParticipant;

// The statuses of the presences of `of` that to was sent, in order (and forgotten).
std::vector<std::string> statuses(FakeParticipant& to, const std::string& of) {
  std::vector<std::string> out;
  for (const auto& m : to.take()) {
    if (m["type"] == "presence" && m["player"] == of) out.push_back(m["status"]);
  }
  return out;
}

struct Friends {
  PlayerRegistry registry;
  FriendLists lists;
  SoloGames solo;
  PresenceBoard board{registry, lists, solo, nullptr};
  std::shared_ptr<Player> ann = registry.adopt({"p1", "ann", "k1", 0});
  std::shared_ptr<Player> bob = registry.adopt({"p2", "bob", "k2", 0});
  std::shared_ptr<FakeParticipant> ann_here = std::make_shared<FakeParticipant>();
  std::shared_ptr<FakeParticipant> bob_here = std::make_shared<FakeParticipant>();

  Friends() {
    lists.set("p1", {"p2"});
    lists.set("p2", {"p1"});
    registry.attach(*bob, bob_here, 1, "s-bob");
    registry.attach(*ann, ann_here, 3, "s-ann");  // cluster mode: an epoch
    board.refresh(*ann);
  }
};

TEST(PresenceBoard, AConnectionThatMovedToAnotherNodeIsNeverPushedOffline) {
  Friends f;
  EXPECT_EQ(statuses(*f.bob_here, "p1"), std::vector<std::string>{"online"});
  // ann's connection closes here: until the store says where she went, nothing is pushed
  // (the presence sweep refreshes every second meanwhile).
  ASSERT_TRUE(f.registry.detach(*f.ann, f.ann_here.get()));
  f.board.refresh(*f.ann);
  EXPECT_TRUE(statuses(*f.bob_here, "p1").empty());
  // A newer connection of hers exists elsewhere: still nothing, and nothing later either.
  {
    std::lock_guard lock(f.ann->mutex);
    f.ann->newest_epoch = 4;
    f.ann->settling = false;
  }
  f.board.refresh(*f.ann);
  f.board.refresh(*f.ann);
  EXPECT_TRUE(statuses(*f.bob_here, "p1").empty());
  // Back here under a later epoch: online again.
  auto again = std::make_shared<FakeParticipant>();
  ASSERT_TRUE(f.registry.attach(*f.ann, again, 5, "s-ann"));
  f.board.refresh(*f.ann);
  EXPECT_EQ(statuses(*f.bob_here, "p1"), std::vector<std::string>{"online"});
}

TEST(PresenceBoard, AConnectionThatWentNowhereIsPushedOfflineOnceSettled) {
  Friends f;
  statuses(*f.bob_here, "p1");
  ASSERT_TRUE(f.registry.detach(*f.ann, f.ann_here.get()));
  {
    std::lock_guard lock(f.ann->mutex);
    f.ann->settling = false;  // the store's epoch is still hers: no newer connection
  }
  f.board.refresh(*f.ann);
  EXPECT_EQ(statuses(*f.bob_here, "p1"), std::vector<std::string>{"offline"});
}

}  // namespace
}  // namespace tilerace::server
