#pragma once
// The journal pass every kJournalInterval, on the main context (one thread: NetworkThreads):
// the tournaments, then the solo games and races still being played, into the store's journal;
// the store probed for /healthz; and once a day the abandoned daily attempts closed. stop(),
// called on that thread, ends it, also when it comes while a pass is being written (a cancelled
// timer alone would not).
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <string>

#include "server/base/metrics.hpp"
#include "server/game/room_registry.hpp"
#include "server/game/solo_games.hpp"
#include "server/play/tournaments.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class JournalLoop {
 public:
  JournalLoop(boost::asio::io_context& ioc, SoloGames& solo, const RoomRegistry& rooms,
              Tournaments& tournaments, StoreWorker& worker, Metrics& metrics);

  void start();
  void stop();

 private:
  boost::asio::awaitable<void> run();

  boost::asio::steady_timer timer_;
  bool stopped_ = false;
  std::string closed_before_;  // the day before which daily attempts were closed
  SoloGames& solo_;
  const RoomRegistry& rooms_;
  Tournaments& tournaments_;
  StoreWorker& worker_;
  Metrics& metrics_;
};

}  // namespace tilerace::server
