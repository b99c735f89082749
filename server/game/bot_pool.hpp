#pragma once
// The threads the computer opponent thinks on: never a network thread. Each worker keeps its
// own engine::Bot (its search table), so a choice needs no lock. stop() (or the destructor)
// waits for the choices under way; their results are then dropped.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

#include "engine/game.hpp"
#include "engine/types.hpp"

namespace tilerace::server {

class BotPool {
 public:
  explicit BotPool(int threads);
  ~BotPool();
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  using Done = std::function<void(std::optional<engine::Direction>)>;

  // Chooses the bot's move in game on a worker, then calls done with it on executor.
  void choose(engine::Game game, engine::BotStrength strength, std::uint64_t seed,
              boost::asio::any_io_executor executor, Done done);

  // No choice starts from now on; waits for those under way (bounded: one search each).
  void stop();
  bool stopped() const noexcept { return stopped_; }

 private:
  boost::asio::thread_pool pool_;
  std::atomic<bool> stopped_{false};
};

}  // namespace tilerace::server
