#include "server/game/bot_pool.hpp"

#include <boost/asio/post.hpp>

#include "engine/bot.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

BotPool::BotPool(int threads) : pool_(static_cast<std::size_t>(threads)) {}

BotPool::~BotPool() { stop(); }

void BotPool::choose(engine::Game game, engine::BotStrength strength, std::uint64_t seed,
                     asio::any_io_executor executor, Done done) {
  asio::post(pool_, [this, game = std::move(game), strength, seed, executor = std::move(executor),
                     done = std::move(done)]() mutable {
    if (stopped_) return;
    thread_local engine::Bot bot;
    const auto move = bot.choose(game, strength, seed);
    asio::post(executor, [move, done = std::move(done)] { done(move); });
  });
}

void BotPool::stop() {
  stopped_ = true;
  pool_.join();
}

}  // namespace tilerace::server
