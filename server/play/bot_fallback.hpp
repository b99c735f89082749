#pragma once
// Quick match's fallback: a player left alone in the classic 4×4 queue for --quick-match-bot-
// after seconds races the computer (medium) instead, in a public room like any quick match —
// labelled as the computer by its name. One timer per waiting player on the rooms' executor;
// a player paired, cancelled or queued again meanwhile is left alone. Taking the player out
// of the queue is the atomic step (RoomDirectory::unqueue: the Matchmaker's on one node, Redis's
// in cluster mode), so a pairing on another node and the fallback cannot both have them.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>

#include "protocol/messages.hpp"
#include "server/game/room_registry.hpp"
#include "server/play/room_directory.hpp"

namespace tilerace::server {

class BotFallback {
 public:
  // after > 0.
  BotFallback(boost::asio::any_io_executor executor, RoomDirectory& directory, RoomRegistry& rooms,
              std::chrono::seconds after);

  // player was just queued for a room with options: starts (or restarts) their wait. Modes and
  // sizes the computer does not play are ignored.
  void queued(const std::shared_ptr<Player>& player, const protocol::RoomOptions& options);

  // Shutdown: every wait is cancelled and none starts from now on.
  void stop();

 private:
  // Takes the player out of the queue; false when a pairing (or they) already did.
  boost::asio::awaitable<bool> take(std::shared_ptr<Player> player);
  boost::asio::awaitable<void> fire(std::shared_ptr<Player> player, protocol::RoomOptions options);

  boost::asio::any_io_executor executor_;
  RoomDirectory& directory_;
  RoomRegistry& rooms_;
  std::chrono::seconds after_;
  std::mutex mutex_;  // guards the fields below
  bool stopped_ = false;
  std::map<const Player*, std::shared_ptr<boost::asio::steady_timer>> waits_;
};

}  // namespace tilerace::server
