#pragma once
// Each player's friends here, by id, as Friends loaded them at sign-in and keeps them as
// friendships change: whom presence tells, and who may challenge or follow whom. Kept while the
// process runs, as the players are (PlayerRegistry). Its own lock, held for a copy or a lookup;
// any thread.
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tilerace::server {

class FriendLists {
 public:
  // player's friends are ids from now on.
  void set(const std::string& player, std::vector<std::string> ids);
  // other is player's friend (friends) or not any more.
  void set_friend(const std::string& player, const std::string& other, bool friends);
  bool are_friends(std::string_view player, std::string_view other) const;
  // A copy of player's friends (none when never loaded).
  std::vector<std::string> of(std::string_view player) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<std::string>, std::less<>> lists_;
};

}  // namespace tilerace::server
