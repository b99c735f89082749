#include "server/matchmaker.hpp"

#include <algorithm>

namespace tilerace::server {

namespace {
bool online(Player& p) {
  std::lock_guard lock(p.mutex);
  return !p.connection.expired() && p.room.expired();
}
}  // namespace

std::shared_ptr<Player> Matchmaker::enqueue(const Key& key, const std::shared_ptr<Player>& player) {
  std::lock_guard lock(mutex_);
  for (auto& [k, queue] : queues_) {
    std::erase_if(queue, [&](const auto& w) { return w.lock() == player; });
  }
  auto& queue = queues_[key];
  while (!queue.empty()) {
    std::shared_ptr<Player> other = queue.front().lock();
    queue.pop_front();
    if (other && online(*other)) return other;
  }
  queue.push_back(player);
  return nullptr;
}

bool Matchmaker::cancel(const Player& player) {
  std::lock_guard lock(mutex_);
  bool found = false;
  for (auto& [k, queue] : queues_) {
    found |= std::erase_if(queue, [&](const auto& w) {
               const auto p = w.lock();
               return !p || p.get() == &player;
             }) > 0;
  }
  return found;
}

}  // namespace tilerace::server
