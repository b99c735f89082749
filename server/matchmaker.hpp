#pragma once
// Quick match: one queue per (mode, size) that pairs players as they arrive.
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "engine/types.hpp"
#include "server/player.hpp"

namespace tilerace::server {

class Matchmaker {
 public:
  using Key = std::pair<engine::Mode, int>;  // mode, size

  // Pairs player with the longest-waiting connected player of key, or queues player and
  // returns null. A player is in at most one queue.
  std::shared_ptr<Player> enqueue(const Key& key, const std::shared_ptr<Player>& player);
  // Takes player out of any queue; returns whether it was queued.
  bool cancel(const Player& player);

 private:
  std::mutex mutex_;
  std::map<Key, std::deque<std::weak_ptr<Player>>> queues_;
};

}  // namespace tilerace::server
