#pragma once
// A player known to this server: identity, their current solo game, their connection.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.hpp"
#include "server/game/participant.hpp"

namespace tilerace::server {

struct SoloGame {
  std::string id;
  engine::Game game;
  bool explicit_seed = false;
  std::int64_t started_at = 0;  // Unix milliseconds
  // How much of the history the journal holds already (the next pass adds the rest); 0: the
  // next pass writes the whole entry. Reset to 0 whenever the history is rewritten.
  std::size_t journaled = 0;
  // A daily challenge game (game/daily.hpp): its day; daily_ranked for the player's first
  // attempt that day, the only one that ranks (on the day's daily board only).
  std::string daily;
  bool daily_ranked = false;
  // When each letter of the history was played (ms from started_at); nullopt once unknown
  // (restored from the journal).
  std::optional<std::vector<std::int32_t>> times = std::vector<std::int32_t>{};
  // A shared store: the epoch this node holds the game's journal entry under
  // (ActiveGameRecord::epoch): 1 for a game started here, the store's for one resumed here.
  std::int64_t epoch = 1;

  bool ranked() const noexcept {
    return daily.empty() ? !explicit_seed && game.undos() == 0 : daily_ranked;
  }
};

class Room;

struct Player {
  Player(std::string id_, std::string name_, int rating_,
         std::optional<engine::BotStrength> bot_ = std::nullopt)
      : id(std::move(id_)), bot(bot_), rating(rating_), name_(std::move(name_)) {}

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

  std::mutex mutex;              // guards the fields below
  std::optional<SoloGame> solo;  // the current game, until new_game replaces it
  bool journal_dirty = false;    // solo changed since it was last journaled
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
  int rating;  // Elo; updated when a race result is committed

 private:
  mutable std::mutex name_mutex_;
  std::string name_;
};

// Whether other (an id) is player's friend (takes the player's lock).
// The room player is a member of, or null (takes the player's lock).
inline std::shared_ptr<Room> room_of(Player& player) {
  std::lock_guard lock(player.mutex);
  return player.room.lock();
}

}  // namespace tilerace::server
