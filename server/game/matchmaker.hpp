#pragma once
// Quick match: one pool per (mode, size, bot queue or not), paired by rating
// (server/rules/match_window.hpp): a player is offered the waiting player closest to their rating
// within both windows (then whoever waited longest). Pairing is one atomic step: under the pool's
// lock the partner is offered to `pair`, which seats both in a room or says who is no longer free;
// nobody hears of a pairing before both are in the room. Windows widen while players wait, so a
// waiting player asks again (rematch) each time theirs has grown.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/types.hpp"
#include "protocol/messages.hpp"
#include "server/game/player.hpp"
#include "server/rules/match_window.hpp"

namespace tilerace::server {

// What pairing a waiting player with an arriving one came to.
enum class Claim {
  paired,        // both are in one room now
  waiting_busy,  // the waiting player is no longer free (in a room, or gone): skip them
  arriving_busy  // the arriving player is no longer free: pair nobody, queue nobody
};

// Who is looking for a race: their rating in the variant asked (as it stands now) and RD.
struct Seeking {
  double rating = 1500;
  double rd = 350;
};

class Matchmaker {
 public:
  using Key = std::tuple<engine::Mode, int, bool>;  // mode, size, the bot queue
  static Key key_of(const protocol::RoomOptions& o) { return {o.mode, o.size, o.bot_queue}; }
  using Clock = std::chrono::steady_clock;
  using Pair = std::function<Claim(const std::shared_ptr<Player>& waiting)>;
  enum class Outcome { paired, queued, refused, gone };

  explicit Matchmaker(MatchWindow window = kMatchWindow) : window_(window) {}

  // Offers player the players waiting for key within reach at now, closest first, through
  // pair (called under the matchmaker's lock); queues player when nobody could be paired. A
  // player is in at most one pool; one already waiting for key keeps their wait.
  Outcome match(const Key& key, const std::shared_ptr<Player>& player, Seeking seeking,
                Clock::time_point now, const Pair& pair);
  // The same for a player already waiting for key, whose window has grown by now: paired,
  // queued (still waiting), refused (no longer free: out of the pool), or gone (not waiting).
  Outcome rematch(const Key& key, const std::shared_ptr<Player>& player, Clock::time_point now,
                  const Pair& pair);
  // Takes player out of any pool; returns whether it was queued.
  bool cancel(const Player& player);

 private:
  struct Waiting {
    std::weak_ptr<Player> player;
    Seeking seeking;
    Clock::time_point since;
  };
  using Pool = std::vector<Waiting>;  // in the order they came

  // Pairs pool[self] with the best partner within reach, as match says; erases whoever the
  // attempt settles (both when paired).
  Outcome pair_in(Pool& pool, std::size_t self, Clock::time_point now, const Pair& pair);
  double window_of(const Waiting& w, Clock::time_point now) const;

  MatchWindow window_;
  std::mutex mutex_;
  std::map<Key, Pool> pools_;
};

}  // namespace tilerace::server
