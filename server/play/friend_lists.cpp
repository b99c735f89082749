#include "server/play/friend_lists.hpp"

#include <algorithm>

namespace tilerace::server {

void FriendLists::set(const std::string& player, std::vector<std::string> ids) {
  std::lock_guard lock(mutex_);
  lists_[player] = std::move(ids);
}

void FriendLists::set_friend(const std::string& player, const std::string& other, bool friends) {
  std::lock_guard lock(mutex_);
  std::vector<std::string>& f = lists_[player];
  const auto it = std::find(f.begin(), f.end(), other);
  if (friends && it == f.end()) f.push_back(other);
  if (!friends && it != f.end()) f.erase(it);
}

bool FriendLists::are_friends(std::string_view player, std::string_view other) const {
  std::lock_guard lock(mutex_);
  const auto it = lists_.find(player);
  return it != lists_.end() &&
         std::find(it->second.begin(), it->second.end(), other) != it->second.end();
}

std::vector<std::string> FriendLists::of(std::string_view player) const {
  std::lock_guard lock(mutex_);
  const auto it = lists_.find(player);
  return it == lists_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace tilerace::server
