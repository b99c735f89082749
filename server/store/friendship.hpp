#pragma once
// The rules of a friendship between two players, pure: how the pair stands, and what each
// change makes of it. The store runs them inside the transaction that reads and writes the
// pair, so two changes of one pair never interleave (docs/protocol.md, "Friends").
//
// A pair is two links, one each way. A friendship is both links `friend`; a request is one
// link `requested`; a block is one link `blocked` and ends everything else between the two
// (the blocked player's own block stays). A blocked player's requests are dropped without
// telling them (they look sent).
#include <cstdint>
#include <string_view>

namespace tilerace::server {

inline constexpr int kMaxFriends = 200;
inline constexpr int kMaxPendingRequests = 50;  // a player's own requests not yet answered

enum class Link : std::uint8_t { none, requested, friends, blocked };
std::string_view to_string(Link link) noexcept;
// none for an unknown name.
Link link_from_string(std::string_view name) noexcept;

// The acting player's view of a pair: mine is their link to the other, theirs the other's.
struct FriendPair {
  Link mine = Link::none;
  Link theirs = Link::none;
  friend bool operator==(const FriendPair&, const FriendPair&) = default;
};

enum class FriendAction : std::uint8_t { request, accept, decline, remove, block, unblock };

// What the limits need to know: the acting player's friends and pending requests, and the
// other player's friends.
struct FriendCounts {
  int my_friends = 0;
  int my_requests = 0;
  int their_friends = 0;
};

enum class FriendOutcome : std::uint8_t {
  changed,            // after differs from before
  unchanged,          // nothing to do (a repeated request, a block of the blocked)
  dropped,            // a request to someone who blocked the asker: looks sent, changes nothing
  no_request,         // accept or decline without their request
  not_friends,        // remove without a friendship or request of mine
  not_blocked,        // unblock without my block
  i_blocked,          // a request to someone I blocked
  already,            // a request to a friend
  too_many,           // a friendship would pass kMaxFriends (for either)
  too_many_requests,  // a request past kMaxPendingRequests
};

struct FriendStep {
  FriendPair after;
  FriendOutcome outcome = FriendOutcome::unchanged;
};

// action applied by the player whose view before is; never fails otherwise.
FriendStep friend_step(FriendPair before, FriendAction action, FriendCounts counts);

}  // namespace tilerace::server
