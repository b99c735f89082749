// The friendship rules (server/store/friendship.hpp): every action from every pair state.
#include "server/store/friendship.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

constexpr Link N = Link::none;
constexpr Link R = Link::requested;
constexpr Link F = Link::friends;
constexpr Link B = Link::blocked;
using enum FriendAction;
using enum FriendOutcome;

FriendStep step(Link mine, Link theirs, FriendAction a, FriendCounts n = {}) {
  return friend_step({mine, theirs}, a, n);
}

TEST(Friendship, ARequestThenAcceptMakesFriends) {
  const FriendStep asked = step(N, N, request);
  EXPECT_EQ(asked.after, (FriendPair{R, N}));
  EXPECT_EQ(asked.outcome, changed);
  // The other's view of that pair is (N, R): they accept.
  const FriendStep accepted = step(N, R, accept);
  EXPECT_EQ(accepted.after, (FriendPair{F, F}));
  EXPECT_EQ(accepted.outcome, changed);
}

TEST(Friendship, AskingBackIsAccepting) {
  EXPECT_EQ(step(N, R, request).after, (FriendPair{F, F}));
}

TEST(Friendship, RepeatsChangeNothing) {
  EXPECT_EQ(step(R, N, request).outcome, unchanged);
  EXPECT_EQ(step(F, F, request).outcome, already);
  EXPECT_EQ(step(B, N, block).outcome, unchanged);
}

TEST(Friendship, DeclineRemoveAndCancel) {
  EXPECT_EQ(step(N, R, decline).after, (FriendPair{N, N}));
  EXPECT_EQ(step(N, N, decline).outcome, no_request);
  EXPECT_EQ(step(R, N, decline).outcome, no_request);  // one's own request is not declined
  EXPECT_EQ(step(F, F, remove).after, (FriendPair{N, N}));
  EXPECT_EQ(step(R, N, remove).after, (FriendPair{N, N}));  // cancels the request
  EXPECT_EQ(step(N, R, remove).outcome, not_friends);       // theirs is declined, not removed
  EXPECT_EQ(step(N, N, remove).outcome, not_friends);
  EXPECT_EQ(step(N, N, accept).outcome, no_request);
}

TEST(Friendship, ABlockEndsEverythingButTheirBlock) {
  for (const Link mine : {N, R, F, B}) {
    for (const Link theirs : {N, R, F}) {
      if ((mine == F) != (theirs == F)) continue;  // friends are friends both ways
      EXPECT_EQ(step(mine, theirs, block).after, (FriendPair{B, N}));
    }
  }
  EXPECT_EQ(step(N, B, block).after, (FriendPair{B, B}));
  EXPECT_EQ(step(B, B, unblock).after, (FriendPair{N, B}));
  EXPECT_EQ(step(B, N, unblock).after, (FriendPair{N, N}));
  EXPECT_EQ(step(N, N, unblock).outcome, not_blocked);
}

TEST(Friendship, TheBlockedAreNotToldAndTheBlockerMustUnblock) {
  const FriendStep dropped = step(N, B, request);
  EXPECT_EQ(dropped.outcome, FriendOutcome::dropped);
  EXPECT_EQ(dropped.after, (FriendPair{N, B}));
  EXPECT_EQ(step(B, N, request).outcome, i_blocked);
  EXPECT_EQ(step(B, R, accept).outcome, no_request);  // impossible pair, refused all the same
}

TEST(Friendship, Limits) {
  EXPECT_EQ(step(N, N, request, {0, kMaxPendingRequests, 0}).outcome, too_many_requests);
  EXPECT_EQ(step(N, R, accept, {kMaxFriends, 0, 0}).outcome, too_many);
  EXPECT_EQ(step(N, R, accept, {0, 0, kMaxFriends}).outcome, too_many);
  EXPECT_EQ(step(N, R, request, {kMaxFriends, 0, 0}).outcome, too_many);
  EXPECT_EQ(step(N, R, accept, {kMaxFriends - 1, 0, kMaxFriends - 1}).outcome, changed);
}

TEST(Friendship, LinksHaveStableNames) {
  for (const Link l : {N, R, F, B}) EXPECT_EQ(link_from_string(to_string(l)), l);
  EXPECT_EQ(to_string(F), "friend");
  EXPECT_EQ(link_from_string("nonsense"), N);
}

}  // namespace
}  // namespace tilerace::server
