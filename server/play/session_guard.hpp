#pragma once
// One player, one world (cluster mode; docs/operations.md, "Connections across nodes"): every
// open connection of this node stays the player's one live connection cluster-wide, of a
// session that has not ended, under the player's current name.
// - Takeover: a welcome takes the player's next connection epoch from the store (the
//   authority) and, through the PlayerReach, the connection record in Redis; the node that
//   held the older connection is told and closes it with 4000 at once (taken_over).
// - Revocation: logout_all, change_password and a rename ask every other node to check the
//   player now (PlayerReach::recheck → check). A lost message costs at most one lease: every
//   lease the guard checks all of this node's open connections in one store read —
//   superseded (a newer epoch) closes with 4000, an ended session with `bad_token` and 4001,
//   and a new name is taken (`renamed` to the player, their room announced again).
// - Presence: a connection that closes here may have moved to another node (a redirect opens
//   the new connection before closing the old). Its player is settling (no presence pushed)
//   until the connection record in Redis (a newer connection writes it before its welcome) —
//   or, where Redis cannot say, the store's epoch — says whether a newer connection exists;
//   only then does it go offline, so moving never shows offline between, and leaving shows
//   offline within a Redis round trip even while the store is slow or cut off.
// On a single node (no reach) there is nothing to guard: take returns 0, settle refreshes at
// once, and no sweep runs.
//
// Threading: callable from any thread; the sweep runs on the executor start is given.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/play/player_reach.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class SessionGuard {
 public:
  static constexpr std::uint16_t kSignedOutClose = 4001;

  // reach: null on a single node. every: how often all open connections are checked (the
  // cluster's lease).
  SessionGuard(PlayerRegistry& players, StoreWorker& store, Metrics& metrics, PlayerReach* reach,
               std::chrono::milliseconds every)
      : players_(players), store_(store), metrics_(metrics), reach_(reach), every_(every) {}

  // Starts the sweep on executor (cluster mode); stop() ends it (shutdown).
  void start(boost::asio::any_io_executor executor);
  void stop();

  // Before the welcome: a new connection of player_id is to be their one; its epoch (0 on a
  // single node). The store's failure throws; Redis away only slows the takeover to the sweep.
  boost::asio::awaitable<std::int64_t> take(std::string player_id);
  // player's connection here closed (it was theirs: PlayerRegistry::detach said so). Once it is
  // known whether a newer connection exists elsewhere, refresh is called (presence pushed then).
  // In cluster mode, requires start().
  void settle(const std::shared_ptr<Player>& player, std::function<void()> refresh);
  // Another node took player_id's connection over under epoch (a message from it).
  void taken_over(const std::string& player_id, std::int64_t epoch);
  // player_id's sessions ended or their name changed here: other nodes check them now.
  void changed(const std::string& player_id);
  // Checks the connections of players here against the store (all of them: empty).
  boost::asio::awaitable<void> check(std::vector<std::string> players = {});

 private:
  boost::asio::awaitable<void> sweep();

  PlayerRegistry& players_;
  StoreWorker& store_;
  Metrics& metrics_;
  PlayerReach* reach_;
  std::chrono::milliseconds every_;
  std::shared_ptr<boost::asio::steady_timer> timer_;
  bool stopped_ = false;
};

}  // namespace tilerace::server
