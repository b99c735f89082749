#include "server/game/matchmaker.hpp"

#include <algorithm>

namespace tilerace::server {

Matchmaker::Outcome Matchmaker::match(const Key& key, const std::shared_ptr<Player>& player,
                                      const Pair& pair) {
  std::lock_guard lock(mutex_);
  for (auto& [k, queue] : queues_) {
    std::erase_if(queue, [&](const auto& w) {
      const auto p = w.lock();
      return !p || p == player;
    });
  }
  auto& queue = queues_[key];
  while (!queue.empty()) {
    const std::shared_ptr<Player> waiting = queue.front().lock();
    if (!waiting) {
      queue.pop_front();
      continue;
    }
    switch (pair(waiting)) {
      case Claim::paired: queue.pop_front(); return Outcome::paired;
      case Claim::waiting_busy: queue.pop_front(); continue;
      case Claim::arriving_busy: return Outcome::refused;
    }
  }
  queue.push_back(player);
  return Outcome::queued;
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
