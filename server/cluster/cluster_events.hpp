#pragma once
// What the cluster tells the rest of its node and asks of it, beyond its rooms: given to the
// Cluster at construction (the composition root implements it, passing each to the feature
// that owns it). Every call comes on the main context.
#include <boost/asio/awaitable.hpp>

#include <set>
#include <string>
#include <vector>

namespace tilerace::server {

class ClusterEvents {
 public:
  // A message on this node's control channel other than the match wake-up.
  virtual void on_control(const std::string& message) = 0;
  // After each heartbeat: the other live nodes.
  virtual void on_nodes(const std::set<std::string>& live) = 0;
  // After each (re)connection to Redis, which may have restarted empty: this node's players'
  // records written again.
  virtual boost::asio::awaitable<void> reclaim_players() = 0;
  // The codes this node holds besides its rooms', claimed again after each reconnection.
  virtual std::vector<std::string> tournament_codes() = 0;
  // An orphan's tournaments, adopted right after its races (their match rooms are watched
  // again): their codes, claimed for this node with the rooms'.
  virtual boost::asio::awaitable<std::vector<std::string>> adopt_tournaments(
      std::string orphan) = 0;

 protected:
  ~ClusterEvents() = default;
};

}  // namespace tilerace::server
