#pragma once
// A player known to this server: identity, connection, and the room they are a member of. What
// each feature keeps per player lives in that feature's service (their solo game: SoloGames;
// friends: FriendLists; tournaments: TournamentMembers; presence: PresenceBoard).
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/types.hpp"
#include "server/rules/participant.hpp"
#include "server/rules/variant_rating.hpp"

namespace tilerace::server {

class Room;

struct Player {
  Player(std::string id_, std::string name_, const PlayerRatings& ratings_ = {},
         std::optional<engine::BotStrength> bot_ = std::nullopt)
      : id(std::move(id_)), bot(bot_), ratings(ratings_), name_(std::move(name_)) {}

  const std::string id;
  // The name shown; a rename (or a rename on another node, seen at sign-in) changes it.
  // Safe from any thread.
  std::string name() const {
    std::lock_guard lock(name_mutex_);
    return name_;
  }
  void set_name(std::string name) {
    std::lock_guard lock(name_mutex_);
    name_ = std::move(name);
  }
  // Set for the computer opponent (server/bot_racer.hpp): always ready, never host, and a
  // race with one changes nobody's rating.
  const std::optional<engine::BotStrength> bot;
  // Whether they have an account (a password): set at load and by register.
  std::atomic<bool> registered{false};
  // A bot account (docs/bots.md): set at load and by upgrade_to_bot, never cleared.
  std::atomic<bool> bot_account{false};
  // A bot account or the computer: marked "bot" on the wire, kept off people's boards and
  // ratings.
  bool is_bot() const { return bot.has_value() || bot_account.load(std::memory_order_relaxed); }

  std::mutex mutex;  // guards the fields below
  std::weak_ptr<Participant> connection;
  // One live connection per player, cluster-wide (server/play/session_guard.hpp; all 0 and
  // empty on a single node): the epoch this connection took (Store::take_connection) and its
  // session (the token's hash); the newest epoch heard of for this player anywhere (a
  // connection under an earlier one is superseded); and settling, set while a connection that
  // closed here may have moved to another node: its presence is neither pushed online nor
  // offline until the store says.
  std::int64_t epoch = 0;
  std::int64_t newest_epoch = 0;
  std::string session;
  bool settling = false;
  // The room this player is a member of; cleared on leaving. Weak: the registry owns rooms,
  // and a room holds its players, so a strong link back would be a cycle.
  std::weak_ptr<Room> room;
  // Per variant (protocol::index_of); one changes when a race result is committed.
  PlayerRatings ratings;

 private:
  mutable std::mutex name_mutex_;
  std::string name_;
};

// The room player is a member of, or null (takes the player's lock).
inline std::shared_ptr<Room> room_of(Player& player) {
  std::lock_guard lock(player.mutex);
  return player.room.lock();
}

}  // namespace tilerace::server
