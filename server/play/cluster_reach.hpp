#pragma once
// Cluster mode's PlayerReach (--redis): players on other nodes reached through Redis.
// - Presence: each node keeps its players' presence in presence:<player> ("node\n<message>"),
//   and a presence counts only while that node is live (its lease), so a dead node's players
//   read as offline. A change is also sent to the nodes where the player's friends are (found
//   from their own presence keys), on each node's control channel, in the order the changes
//   happened (one queue per node).
// - One live connection per player (server/play/session_guard.hpp): connection:<player> names
//   the node of their one connection; a welcome elsewhere tells that node (on its control
//   channel) to close it. When a heartbeat finds a node gone, the players whose record still
//   names it go offline for their friends here — within a lease, whether or not they ever
//   changed presence. After Redis restarts empty, each node writes its players' records and
//   presences again on reconnecting.
// - Messages to a player (friend_update, challenged, …) go to the node their presence names.
// - Challenges are held where they were made (challenge:<id> → node); an answer given on
//   another node is forwarded there.
// server/cluster/scripts.hpp has the keys. Threading: the cluster's main context runs
// everything here; public calls may come from any thread (awaitables resume on the caller's).
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "server/cluster/cluster.hpp"
#include "server/game/player_registry.hpp"
#include "server/play/play_services.hpp"
#include "server/play/player_reach.hpp"

namespace tilerace::server {

class ClusterReach final : public PlayerReach {
 public:
  // play: where incoming friend changes, challenge answers, moderation and connection
  // messages go (used from the first message on: it may be built after this).
  ClusterReach(boost::asio::any_io_executor main, Cluster& cluster, PlayerRegistry& players,
               PlayServices& play);

  // The cluster's events for it (ClusterEvents; main context): a message on this node's
  // control channel; the live nodes after a heartbeat; Redis (re)connected, perhaps empty:
  // this node's connection records and presences are written again.
  void on_control(const std::string& message);
  void on_nodes(const std::set<std::string>& live);
  boost::asio::awaitable<void> reclaim();

  void publish(std::string player, std::string presence, std::vector<std::string> friends) override;
  boost::asio::awaitable<void> flush() override;
  boost::asio::awaitable<std::map<std::string, std::string>> presences(
      std::vector<std::string> players) override;
  boost::asio::awaitable<bool> send(std::string player, std::string message, bool reload) override;
  std::string url() const override { return cluster_.settings().public_url; }
  boost::asio::awaitable<void> hold(std::string id, std::chrono::milliseconds ttl) override;
  boost::asio::awaitable<std::string> holder(std::string id) override;
  void forward_answer(std::string node, std::string id, std::string player, bool accept,
                      std::string reason, const protocol::Rid& rid) override;
  void moderate(std::string kind, std::string target, std::string text) override;
  boost::asio::awaitable<void> take_connection(std::string player, std::int64_t epoch) override;
  void release_connection(std::string player, std::int64_t epoch) override;
  boost::asio::awaitable<std::int64_t> connection_elsewhere(std::string player) override;
  void recheck(std::string player) override;

 private:
  struct Publication {
    std::string player;
    std::string presence;
    std::vector<std::string> friends;
  };
  // Writes the queued publications in order (main context).
  boost::asio::awaitable<void> drain();
  boost::asio::awaitable<void> write(Publication p);
  // flush's wait, on the main context (which owns the queue).
  boost::asio::awaitable<void> flushed();
  // The presence keys ("node\n<message>") of those of players another live node published.
  boost::asio::awaitable<std::map<std::string, std::string>> published(
      const std::vector<std::string>& players);
  // The live node (not this one) whose presence key names for each of players.
  boost::asio::awaitable<std::map<std::string, std::string>> nodes_of(
      const std::vector<std::string>& players);
  // Delivers the queued messages from other nodes in order (main context).
  boost::asio::awaitable<void> receive();
  // Sends message to every other live node (main context).
  void tell_all(const std::string& message);
  // node is gone: its players' friends here see them offline.
  boost::asio::awaitable<void> stranded(std::string node);

  boost::asio::any_io_executor main_;
  Cluster& cluster_;
  PlayerRegistry& players_;
  PlayServices& play_;
  std::mutex held_mutex_;
  std::map<std::string, std::int64_t> held_;  // player → epoch of their connection here
  // main context only:
  std::map<std::string, std::string> written_;  // player → their presence key's value, as set
  std::set<std::string> live_;                  // the live nodes, as of the last heartbeat
  std::deque<Publication> queue_;
  bool draining_ = false;
  // flush()es waiting for the queue to empty: each timer is cancelled when it has.
  std::vector<std::shared_ptr<boost::asio::steady_timer>> flushing_;
  struct Incoming {
    std::string player;
    bool reload = false;
    std::string message;
  };
  std::deque<Incoming> incoming_;
  bool receiving_ = false;
};

}  // namespace tilerace::server
