#pragma once
// Presence (docs/protocol.md, "Friends"): what each player is doing, as their friends see it —
// offline, online, playing solo, racing in a room (with whom) or spectating one. It is read
// from the player's state and what they watch when asked (presence_of), and pushed to their friends
// when it changes: refresh after what a player's own message may have changed, and a sweep every
// second for what others changed (a pairing, a race's end, a dropped connection). Friends on
// other nodes get it through the PlayerReach.
//
// Threading: callable from any thread; its locks are leaves: what was last pushed, and what each
// player watches.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/friends.hpp"
#include "server/game/player.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/solo_games.hpp"
#include "server/play/friend_lists.hpp"
#include "server/play/player_reach.hpp"

namespace tilerace::server {

// Delivers message to player if they are connected to this node; false otherwise.
bool deliver_here(PlayerRegistry& players, std::string_view player, const SharedMessage& message);
// Delivers message to player here, or through reach (null: a single node) on the node they
// are connected to (reload: their friendships changed); a failure there is only logged (they
// see it in their lists next time).
boost::asio::awaitable<void> send_anywhere(PlayerRegistry& players, PlayerReach* reach,
                                           std::string player, std::string message, bool reload);

class PresenceBoard {
 public:
  // friends: whom a player's presence is pushed to; solo: whether they are playing a solo game.
  // reach: null on a single node.
  PresenceBoard(PlayerRegistry& players, const FriendLists& friends, const SoloGames& solo,
                PlayerReach* reach)
      : players_(players), friends_(friends), solo_(solo), reach_(reach) {}

  // Starts the sweep on executor. stop() ends it (shutdown).
  void start(boost::asio::any_io_executor executor);
  void stop();

  // player's presence now (takes their lock, then their room's: never call with either held).
  protocol::Presence presence_of(Player& player) const;
  // player spectates room code now (empty: none).
  void set_watching(const std::string& player, std::string code);

  // Reads player's presence and, when it changed since last pushed, pushes it to their
  // friends.
  void refresh(Player& player);
  // The presences of players (friends of the asker): read here for those connected here,
  // asked of the other nodes for the rest; offline when nobody has them (or the cluster
  // cannot be asked).
  boost::asio::awaitable<std::map<std::string, protocol::Presence>> presences(
      std::vector<std::string> players);
  // Sends `to` (connected here) the presence of `of` (anywhere), as a push would.
  boost::asio::awaitable<void> tell(std::string to, std::string of);

 private:
  boost::asio::awaitable<void> sweep();

  PlayerRegistry& players_;
  const FriendLists& friends_;
  const SoloGames& solo_;
  PlayerReach* reach_;
  mutable std::mutex watching_mutex_;
  std::map<std::string, std::string, std::less<>> watching_;  // player → the room they spectate
  std::mutex mutex_;
  std::map<std::string, protocol::Presence, std::less<>> pushed_;  // present players only
  std::shared_ptr<boost::asio::steady_timer> timer_;
  bool stopped_ = false;
};

}  // namespace tilerace::server
