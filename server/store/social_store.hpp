#pragma once
// The store's friendships (server/store/friendship.hpp has their rules).
#include <string>
#include <string_view>
#include <vector>

#include "server/store/account_store.hpp"
#include "server/store/friendship.hpp"

namespace tilerace::server {

// Someone a player has a link with (server/store/friendship.hpp), as their friends list shows
// them: link is the player's own link to them, or requested with incoming set when they asked.
struct FriendRecord {
  std::string id;
  std::string name;
  int rating = kStartRating;
  Link link = Link::none;
  bool incoming = false;  // their request to the player
};

// A friendship change as the store made it (friend_step's answer, with the pair read inside
// the same transaction).
struct FriendChangeRecord {
  FriendPair before;
  FriendStep step;
};

class SocialStore {
 public:
  // Friends. Applies action by player to their pair with other (both exist) in one transaction,
  // the limits counted inside it.
  virtual FriendChangeRecord change_friendship(std::string_view player, std::string_view other,
                                               FriendAction action, std::int64_t at) = 0;
  // Everyone player has a link with (theirs or, for a request to player, the other's), by name.
  virtual std::vector<FriendRecord> friends_of(std::string_view player) = 0;

 protected:
  ~SocialStore() = default;
};

}  // namespace tilerace::server
