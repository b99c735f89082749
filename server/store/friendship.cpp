#include "server/store/friendship.hpp"

#include <array>

namespace tilerace::server {

namespace {

constexpr std::array<std::string_view, 4> kLinkNames{"none", "requested", "friend", "blocked"};

FriendStep to(FriendPair before, FriendPair after) {
  return {after, after == before ? FriendOutcome::unchanged : FriendOutcome::changed};
}

FriendStep refuse(FriendPair before, FriendOutcome why) { return {before, why}; }

FriendStep request(FriendPair p, FriendCounts n) {
  if (p.theirs == Link::blocked) return refuse(p, FriendOutcome::dropped);
  if (p.mine == Link::blocked) return refuse(p, FriendOutcome::i_blocked);
  if (p.mine == Link::friends) return refuse(p, FriendOutcome::already);
  if (p.theirs == Link::requested) {  // they asked first: asking back is accepting
    if (n.my_friends >= kMaxFriends || n.their_friends >= kMaxFriends) {
      return refuse(p, FriendOutcome::too_many);
    }
    return to(p, {Link::friends, Link::friends});
  }
  if (p.mine == Link::requested) return to(p, p);
  if (n.my_requests >= kMaxPendingRequests) return refuse(p, FriendOutcome::too_many_requests);
  return to(p, {Link::requested, p.theirs});
}

}  // namespace

std::string_view to_string(Link link) noexcept { return kLinkNames[static_cast<int>(link)]; }

Link link_from_string(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kLinkNames.size(); ++i) {
    if (kLinkNames[i] == name) return static_cast<Link>(i);
  }
  return Link::none;
}

FriendStep friend_step(FriendPair p, FriendAction action, FriendCounts n) {
  switch (action) {
    case FriendAction::request: return request(p, n);
    case FriendAction::accept:
      if (p.theirs != Link::requested || p.mine == Link::blocked) {
        return refuse(p, FriendOutcome::no_request);
      }
      if (n.my_friends >= kMaxFriends || n.their_friends >= kMaxFriends) {
        return refuse(p, FriendOutcome::too_many);
      }
      return to(p, {Link::friends, Link::friends});
    case FriendAction::decline:
      if (p.theirs != Link::requested) return refuse(p, FriendOutcome::no_request);
      return to(p, {p.mine, Link::none});
    case FriendAction::remove:
      if (p.mine == Link::friends) return to(p, {Link::none, Link::none});
      if (p.mine == Link::requested) return to(p, {Link::none, p.theirs});
      return refuse(p, FriendOutcome::not_friends);
    case FriendAction::block:
      return to(p, {Link::blocked, p.theirs == Link::blocked ? Link::blocked : Link::none});
    case FriendAction::unblock:
      if (p.mine != Link::blocked) return refuse(p, FriendOutcome::not_blocked);
      return to(p, {Link::none, p.theirs});
  }
  return refuse(p, FriendOutcome::unchanged);
}

}  // namespace tilerace::server
