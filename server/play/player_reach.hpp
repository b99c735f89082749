#pragma once
// How this node reaches players connected to other nodes (cluster mode: through Redis,
// ClusterReach); a single node has none and passes null. The friends features ask it only for
// players this node does not have connected. Callable from any thread; awaitables resume on
// the caller's executor. What needs Redis while it cannot be reached throws.
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "protocol/messages.hpp"

namespace tilerace::server {

class PlayerReach {
 public:
  virtual ~PlayerReach() = default;

  // This node's player has a new presence (an encoded `presence` message): kept where other
  // nodes read it, and sent to the friends among `friends` connected to other nodes. Done in
  // the background.
  virtual void publish(std::string player, std::string presence,
                       std::vector<std::string> friends) = 0;
  // Completes once every publication made before it is written (other nodes see it).
  virtual boost::asio::awaitable<void> flush() = 0;
  // The presences (encoded) of those of players connected to other nodes.
  virtual boost::asio::awaitable<std::map<std::string, std::string>> presences(
      std::vector<std::string> players) = 0;
  // Sends message to player, connected to another node; false when they are on none. With
  // reload, that node reloads the player's friends first (their friendships changed).
  virtual boost::asio::awaitable<bool> send(std::string player, std::string message,
                                            bool reload) = 0;
  // This node's public URL (redirects to it).
  virtual std::string url() const = 0;
  // Challenges live on the challenger's node: hold marks challenge id as this node's until it
  // expires, holder says whose it is (empty: nobody's, or expired), and forward_answer has the
  // holder run player's answer (Challenges::answer_from_afar), in the background; its reply
  // (the redirect, or challenge_cancelled) carries the answer's rid.
  virtual boost::asio::awaitable<void> hold(std::string id, std::chrono::milliseconds ttl) = 0;
  virtual boost::asio::awaitable<std::string> holder(std::string id) = 0;
  // reason: a decline's (protocol::DeclineReason's name), or empty.
  virtual void forward_answer(std::string node, std::string id, std::string player, bool accept,
                              std::string reason, const protocol::Rid& rid) = 0;
  // One live connection per player (server/play/session_guard.hpp). take_connection: player's
  // connection here, under epoch, is their one (the connection record); the node that held
  // the one before is told (SessionGuard::taken_over there). release_connection: that
  // connection closed; its record goes unless a newer one replaced it (in the background).
  // recheck: every other live node checks player's connection there against the store now (a
  // session ended, a new name), in the background.
  virtual boost::asio::awaitable<void> take_connection(std::string player, std::int64_t epoch) = 0;
  virtual void release_connection(std::string player, std::int64_t epoch) = 0;
  // The epoch of player's connection record when it names another node (they moved there),
  // else 0; throws when it cannot say (Redis away).
  virtual boost::asio::awaitable<std::int64_t> connection_elsewhere(std::string player) = 0;
  virtual void recheck(std::string player) = 0;
  // Moderation: every other live node applies (kind, target, text) to what it has here
  // (Moderation::apply_here), in the background.
  virtual void moderate(std::string kind, std::string target, std::string text) = 0;
};

}  // namespace tilerace::server
