#include "server/play/friend_lists.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

TEST(FriendLists, AListIsWhatWasLoadedAndFollowsEachChange) {
  FriendLists lists;
  EXPECT_TRUE(lists.of("p1").empty());
  EXPECT_FALSE(lists.are_friends("p1", "p2"));
  lists.set("p1", {"p2", "p3"});
  EXPECT_TRUE(lists.are_friends("p1", "p2"));
  EXPECT_FALSE(lists.are_friends("p2", "p1")) << "each player's list is their own";
  lists.set_friend("p1", "p4", true);
  lists.set_friend("p1", "p4", true);  // once only
  lists.set_friend("p1", "p2", false);
  EXPECT_EQ(lists.of("p1"), (std::vector<std::string>{"p3", "p4"}));
  lists.set("p1", {"p5"});  // loaded again: replaced
  EXPECT_EQ(lists.of("p1"), std::vector<std::string>{"p5"});
}

}  // namespace
}  // namespace tilerace::server
