#pragma once
// Quick match: one queue per (mode, size). Pairing is one atomic step: under the queue's lock
// the longest-waiting player is offered to `pair`, which seats both in a room or says who is
// no longer free; nobody hears of a pairing before both are in the room.
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "engine/types.hpp"
#include "server/game/player.hpp"

namespace tilerace::server {

// What pairing a waiting player with an arriving one came to.
enum class Claim {
  paired,        // both are in one room now
  waiting_busy,  // the waiting player is no longer free (in a room, or gone): skip them
  arriving_busy  // the arriving player is no longer free: pair nobody, queue nobody
};

class Matchmaker {
 public:
  using Key = std::pair<engine::Mode, int>;  // mode, size
  using Pair = std::function<Claim(const std::shared_ptr<Player>& waiting)>;
  enum class Outcome { paired, queued, refused };

  // Offers player to the players waiting for key, longest-waiting first, through pair (called
  // under the matchmaker's lock); queues player when nobody could be paired. A player is in
  // at most one queue.
  Outcome match(const Key& key, const std::shared_ptr<Player>& player, const Pair& pair);
  // Takes player out of any queue; returns whether it was queued.
  bool cancel(const Player& player);

 private:
  std::mutex mutex_;
  std::map<Key, std::deque<std::weak_ptr<Player>>> queues_;
};

}  // namespace tilerace::server
