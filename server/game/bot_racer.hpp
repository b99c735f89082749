#pragma once
// The computer opponent as a racer: a Player of its own ("Computer (hard)") whose connection
// is this object. While its room races, it takes a turn every 1/moves_per_second seconds:
// a copy of its game goes to the BotPool, and the move chosen there is played through the
// room like any racer's (race_update, spectators, the end reasons all as usual). It reads
// nothing the room sends. It lives as long as its turns are scheduled: until the room is gone
// or it is no longer a member. All of it runs on the room's executor.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>

#include "server/game/bot_pool.hpp"
#include "server/game/player.hpp"
#include "server/game/room.hpp"
#include "server/rules/participant.hpp"

namespace tilerace::server {

// The computer opponent's player id ("bot-hard") and name ("Computer (hard)"); one per
// strength, so that its games and record are kept like anyone's.
std::string bot_player_id(engine::BotStrength strength);
std::string bot_player_name(engine::BotStrength strength);
// The strength a player id names, or nullopt for a person.
std::optional<engine::BotStrength> bot_of_player_id(std::string_view id);

class BotRacer : public Participant, public std::enable_shared_from_this<BotRacer> {
 public:
  // A bot of strength, not yet in a room, thinking on services.bots (which must be set) at
  // services.bot_moves_per_second (> 0), its turns on services.executor.
  BotRacer(engine::BotStrength strength, const RoomServices& services);

  // A bot of strength whose Player is connected to it, to be seated (seat, or a registry's
  // create_matched then start); null when services run no bots (no BotPool).
  static std::shared_ptr<BotRacer> make(engine::BotStrength strength, const RoomServices& services);

  // Seats the computer opponent of strength in room as a racer (joining as anyone does) and
  // starts its turns; false when this server runs no bots (room's services have no BotPool).
  // The room must be waiting with a free seat, else the join is refused and the bot goes away.
  static bool seat(const std::shared_ptr<Room>& room, engine::BotStrength strength);

  // The bot's Player is a racer of room already (seated with the other racer at once): it
  // takes its turns there.
  static void start(const std::shared_ptr<BotRacer>& bot, const std::shared_ptr<Room>& room);

  // The bot's Player is a racer of room already (a race restored from the journal): it
  // reconnects and takes its turns again.
  static void resume(const std::shared_ptr<BotRacer>& bot, const std::shared_ptr<Room>& room);

  const std::shared_ptr<Player>& player() const noexcept { return player_; }

  void deliver(SharedMessage) override {}
  void close(std::uint16_t) override {}

 private:
  void schedule();
  void turn();

  std::shared_ptr<Player> player_;
  std::weak_ptr<Room> room_;
  BotPool& pool_;
  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::duration interval_;
  std::uint64_t seed_;
};

}  // namespace tilerace::server
