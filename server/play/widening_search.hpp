#pragma once
// Quick match's widening: a waiting player's window grows every kMatchWindow.every
// (server/rules/match_window.hpp), and each time it does they ask the pool again
// (RoomDirectory::rematch); paired so, the room is announced to both. One timer per waiting
// player on the rooms' executor (as BotFallback's); the search ends once the player is paired,
// out of the queue (cancelled, gone, raced by the computer), or queued again (a new search).
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>
#include <mutex>

#include "protocol/messages.hpp"
#include "server/play/room_directory.hpp"

namespace tilerace::server {

class WideningSearch {
 public:
  WideningSearch(boost::asio::any_io_executor executor, RoomDirectory& directory);

  // player was just queued for a room with options: their search starts (over).
  void queued(const std::shared_ptr<Player>& player, const protocol::RoomOptions& options);

  // Shutdown: every search is cancelled and none starts from now on.
  void stop();

 private:
  using Timer = boost::asio::steady_timer;
  boost::asio::awaitable<void> search(std::shared_ptr<Player> player, protocol::RoomOptions options,
                                      std::shared_ptr<Timer> timer);
  // Whether timer is still player's search (not stopped, not started over).
  bool current(const Player& player, const std::shared_ptr<Timer>& timer);
  void end(const Player& player, const std::shared_ptr<Timer>& timer);

  boost::asio::any_io_executor executor_;
  RoomDirectory& directory_;
  std::mutex mutex_;  // guards the fields below
  bool stopped_ = false;
  std::map<const Player*, std::shared_ptr<Timer>> searches_;
};

}  // namespace tilerace::server
