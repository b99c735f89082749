#include "server/game/bot_racer.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "server/base/secrets.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

std::string bot_player_id(engine::BotStrength strength) {
  return "bot-" + std::string(engine::to_string(strength));
}

std::string bot_player_name(engine::BotStrength strength) {
  return "Computer (" + std::string(engine::to_string(strength)) + ")";
}

std::optional<engine::BotStrength> bot_of_player_id(std::string_view id) {
  if (!id.starts_with("bot-")) return std::nullopt;
  return engine::bot_strength_from_string(id.substr(4));
}

BotRacer::BotRacer(engine::BotStrength strength, const RoomServices& services)
    : player_(std::make_shared<Player>(bot_player_id(strength), bot_player_name(strength),
                                       PlayerRatings{}, strength)),
      pool_(*services.bots),
      timer_(services.executor),
      interval_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(1.0 / services.bot_moves_per_second))),
      seed_(random_u64()) {}

std::shared_ptr<BotRacer> BotRacer::make(engine::BotStrength strength,
                                         const RoomServices& services) {
  if (services.bots == nullptr) return nullptr;
  auto bot = std::make_shared<BotRacer>(strength, services);
  std::lock_guard lock(bot->player_->mutex);
  bot->player_->connection = bot;
  return bot;
}

bool BotRacer::seat(const std::shared_ptr<Room>& room, engine::BotStrength strength) {
  const auto bot = make(strength, room->services());
  if (!bot) return false;
  room->join(bot->player_, bot, {});
  start(bot, room);
  return true;
}

void BotRacer::start(const std::shared_ptr<BotRacer>& bot, const std::shared_ptr<Room>& room) {
  bot->room_ = room;
  bot->schedule();
}

void BotRacer::resume(const std::shared_ptr<BotRacer>& bot, const std::shared_ptr<Room>& room) {
  {
    std::lock_guard lock(bot->player_->mutex);
    bot->player_->connection = bot;
  }
  room->reconnected(*bot->player_, bot);
  start(bot, room);
}

void BotRacer::schedule() {
  if (pool_.stopped()) return;  // shutting down: let the context's work run out
  timer_.expires_after(interval_);
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->turn();
  });
}

void BotRacer::turn() {
  const std::shared_ptr<Room> room = room_.lock();
  {
    std::lock_guard lock(player_->mutex);
    if (!room || player_->room.lock() != room) return;  // out of the room: no more turns
  }
  std::optional<engine::Game> game = room->racing_game(*player_);
  if (!game) return schedule();  // waiting, counting down, or its game is over
  const std::uint64_t seed = seed_ + static_cast<std::uint64_t>(game->moves());
  pool_.choose(std::move(*game), *player_->bot, seed, timer_.get_executor(),
               [self = shared_from_this()](std::optional<engine::Direction> move) {
                 const auto room = self->room_.lock();
                 if (room && move) {
                   // Nobody waits for the computer's answer: its journal append (cluster
                   // mode) runs on by itself.
                   if (auto rest = room->play(*self->player_, self,
                                              protocol::Move{*move, std::nullopt}, {})) {
                     boost::asio::co_spawn(self->timer_.get_executor(), std::move(*rest),
                                           boost::asio::detached);
                   }
                 }
                 self->schedule();
               });
}

}  // namespace tilerace::server
