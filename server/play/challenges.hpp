#pragma once
// Challenges (docs/protocol.md, "Friends"): a player challenges a friend who is online; the
// friend gets `challenged` wherever they are connected and accepts or declines; unanswered,
// it expires. A challenge lives on the challenger's node (in memory: it outlives nothing but
// its minute): accepting opens a private room there, seats the challenger, and seats the
// friend — here, or through a redirect from their node. One open challenge per pair (as seen
// by the challenger's node, and by the friend's for challenges back).
//
// Threading: callable from any thread; the lock (a leaf) guards the open challenges. Expiry
// runs on the executor given.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/play/connection.hpp"
#include "server/play/player_reach.hpp"
#include "server/play/presence_board.hpp"
#include "server/play/room_directory.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class Challenges {
 public:
  struct Services {
    PlayerRegistry& players;
    RoomRegistry& rooms;
    RoomDirectory& directory;
    PresenceBoard& presence;
    const FriendLists& friends;
    StoreWorker& store;
    Metrics& metrics;
    PlayerReach* reach;  // null on a single node
  };
  // expiry: how long a challenge waits for its answer (--challenge-seconds).
  Challenges(Services services, boost::asio::any_io_executor executor,
             std::chrono::milliseconds expiry);

  boost::asio::awaitable<void> challenge(Connection& c, const protocol::Challenge& m,
                                         const protocol::Rid& rid);
  // challenge_accept or challenge_decline from c's player.
  boost::asio::awaitable<void> answer(Connection& c, const protocol::ChallengeAnswer& m,
                                      const protocol::Rid& rid);
  // The answer of player, connected to another node, to a challenge held here (cluster mode);
  // rid is their answer's, for the reply.
  boost::asio::awaitable<void> answer_from_afar(std::string id, std::string player, bool accept,
                                                std::string reason, protocol::Rid rid);
  // Shutdown: no expiry waits from now on.
  void stop();

 private:
  struct Open {
    std::string id;
    std::string from;
    std::string from_name;
    std::string to;
    std::string to_name;
    protocol::RoomOptions options;
    std::int64_t expires_at = 0;
    std::shared_ptr<boost::asio::steady_timer> timer;
  };
  // Takes the open challenge id addressed to player, or nullopt.
  std::optional<Open> take(const std::string& id, const std::string& player);
  // Whether a challenge between a and b (either way) is open here.
  bool between(const std::string& a, const std::string& b);
  boost::asio::awaitable<void> expire(std::string id, std::shared_ptr<boost::asio::steady_timer>);
  // Opens the room of an accepted challenge and seats the challenger (here) and the friend:
  // `to` when they are connected here (answered with rid), else by a redirect through the
  // reach. When the challenger is gone or busy, the friend gets challenge_cancelled instead.
  boost::asio::awaitable<void> open_room(Open challenge, std::shared_ptr<Participant> to,
                                         protocol::Rid rid);
  // Tells the friend (`to` when connected here) that the challenger is gone or busy.
  boost::asio::awaitable<void> cancelled(const Open& o, std::shared_ptr<Participant> to,
                                         protocol::Rid rid);
  // Sends message to player, here or through the reach.
  boost::asio::awaitable<void> send(std::string player, std::string message);

  Services services_;
  boost::asio::any_io_executor executor_;
  std::chrono::milliseconds expiry_;
  std::mutex mutex_;
  std::map<std::string, Open> open_;  // by id
  bool stopped_ = false;
};

}  // namespace tilerace::server
