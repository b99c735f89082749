#pragma once
// Friendships (docs/protocol.md, "Friends"): friend_request, friend_accept, friend_decline,
// friend_remove, block and unblock change one pair in the store (server/store/friendship.hpp
// has the rules); friends lists everything a player has with others, friends with their
// presence. The player told of a change (the other of the pair) gets friend_update wherever
// they are connected; a blocked player is never told they are blocked (they see what a
// removal shows, or nothing). Each Player keeps their friends' ids (loaded at sign-in, kept as
// friendships change here), which presence and challenges read.
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/play/connection.hpp"
#include "server/play/player_reach.hpp"
#include "server/play/presence_board.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class Friends {
 public:
  static constexpr int kRequestsPerMinute = 5;  // friend_request, per player
  using Clock = std::function<std::int64_t()>;  // Unix ms

  // reach: null on a single node. now: the clock the request limit runs on.
  // lists: the friends of the players here, kept as they change.
  Friends(PlayerRegistry& players, FriendLists& lists, StoreWorker& store, PresenceBoard& presence,
          Metrics& metrics, PlayerReach* reach, Clock now);

  boost::asio::awaitable<void> change(Connection& c, const protocol::FriendChange& m,
                                      const protocol::Rid& rid);
  boost::asio::awaitable<void> list(Connection& c, const protocol::Rid& rid);
  // c's player signed in: their friends are loaded, then their presence pushed (in cluster
  // mode: written where other nodes read it before this completes).
  boost::asio::awaitable<void> signed_in(std::shared_ptr<Player> player);
  // player (in memory here) has new friendships: their friends are loaded again.
  boost::asio::awaitable<void> reload(std::shared_ptr<Player> player);

 private:
  // The id of the player m names, or empty (no_such_player sent).
  boost::asio::awaitable<std::string> resolve(Connection& c, const protocol::FriendChange& m,
                                              const protocol::Rid& rid);
  // Whether player may send another request now (counts it).
  bool admit_request(const std::string& player);

  PlayerRegistry& players_;
  FriendLists& lists_;
  StoreWorker& store_;
  PresenceBoard& presence_;
  Metrics& metrics_;
  PlayerReach* reach_;
  Clock now_;
  std::mutex mutex_;                                           // a leaf: guards requests_
  std::map<std::string, std::vector<std::int64_t>> requests_;  // recent requests per player
};

}  // namespace tilerace::server
