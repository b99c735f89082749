#include "server/play/bot_fallback.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "server/game/bot_racer.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

constexpr engine::BotStrength kFallbackStrength = engine::BotStrength::medium;

}  // namespace

BotFallback::BotFallback(boost::asio::any_io_executor executor, RoomDirectory& directory,
                         RoomRegistry& rooms, std::chrono::seconds after)
    : executor_(std::move(executor)), directory_(directory), rooms_(rooms), after_(after) {}

void BotFallback::queued(const std::shared_ptr<Player>& player,
                         const protocol::RoomOptions& options) {
  if (options.mode != engine::Mode::classic || options.size != 4) return;
  auto timer = std::make_shared<boost::asio::steady_timer>(executor_, after_);
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    auto& wait = waits_[player.get()];
    if (wait) wait->cancel();  // queued again: the wait starts over
    wait = timer;
  }
  timer->async_wait(
      [this, timer, weak = std::weak_ptr<Player>(player), options](boost::system::error_code ec) {
        if (ec) return;  // cancelled
        const std::shared_ptr<Player> player = weak.lock();
        {
          std::lock_guard lock(mutex_);
          const auto it = waits_.find(player.get());
          if (it == waits_.end() || it->second != timer) return;
          waits_.erase(it);
        }
        if (player) asio::co_spawn(executor_, fire(player, options), asio::detached);
      });
}

asio::awaitable<bool> BotFallback::take(std::shared_ptr<Player> player) {
  try {
    co_return co_await directory_.unqueue(std::move(player));
  } catch (const std::exception& e) {  // Redis away: the player stays queued
    spdlog::debug("quick match fallback: {}", e.what());
    co_return false;
  }
}

asio::awaitable<void> BotFallback::fire(std::shared_ptr<Player> player,
                                        protocol::RoomOptions options) {
  if (!co_await take(player)) co_return;  // paired, cancelled or gone meanwhile
  std::shared_ptr<Participant> to;
  {
    std::lock_guard lock(player->mutex);
    to = player->connection.lock();
  }
  if (!to) co_return;
  std::string code;
  try {
    code = co_await directory_.claim_code();
  } catch (const std::exception& e) {
    spdlog::debug("quick match fallback: {}", e.what());
    co_return;
  }
  options.bot = kFallbackStrength;
  const std::shared_ptr<BotRacer> bot = BotRacer::make(kFallbackStrength, rooms_.services());
  if (!bot) co_return;  // this server runs no computer opponent
  // Both seats at once, ready, in one `room` (as a quick match between people is announced).
  std::shared_ptr<Room> room;
  if (rooms_.create_matched(options, player, bot->player(), room, std::move(code)) !=
      Claim::paired) {
    co_return;  // joined something else meanwhile
  }
  BotRacer::start(bot, room);
  room->announce(nullptr, {});
}

void BotFallback::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  for (auto& [player, timer] : waits_) timer->cancel();
  waits_.clear();
}

}  // namespace tilerace::server
