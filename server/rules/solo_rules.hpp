#pragma once
// The rules of a solo game (PROTOCOL.md §4) as a core: given the game (held by the caller,
// under its player's lock), a message and the time, they change the game and say what must
// follow; they send, record and count nothing themselves. The shell that carries the effects
// out — record first, then reply, and take the game back if the record failed — is
// play/SoloPlay, holding the game in SoloGames.
#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "server/rules/play_records.hpp"
#include "server/rules/solo_game.hpp"

namespace tilerace::server {

struct SoloEffects {
  // For the player, in order; when `finished` is set, only once it is recorded. Inline: a
  // move asks the heap for no room to hold its reply.
  boost::container::small_vector<std::string, 2> replies;
  std::optional<protocol::ErrorCode> error;  // the error among the replies, if any (metrics)
  std::optional<GameRecord> finished;        // the game ended: record it before replying
  std::size_t before = 0;  // the history's length before the message (see take_back)
  bool moved = false;      // a move or slide changed the board
  bool changed = false;    // the history changed: the store's journal has more to write
};

// A move, slide, undo or resign of player_id's solo game (null: they have none), at now_ms
// (Unix ms).
SoloEffects solo_turn(SoloGame* solo, const std::string& player_id,
                      const protocol::ClientMessage& message, const protocol::Rid& rid,
                      std::int64_t now_ms);

// A daily game still playing after its day (now_ms is a later day) ends as it stood: resigned,
// marked day_over, and its record (ended at its day's last millisecond) comes back to be
// committed; nullopt for any other game.
std::optional<GameRecord> solo_day_over(SoloGame& solo, const std::string& player_id,
                                        std::int64_t now_ms);

// The game new_game m starts as game id at now_ms; seed is used unless m gives one.
SoloGame solo_start(const protocol::NewGame& m, std::string id, std::uint64_t seed,
                    std::int64_t now_ms);

// What replacing solo with a new game records: solo, ended as resigned at now_ms; nullopt if
// it had ended already (and was recorded then).
std::optional<GameRecord> solo_replaced(const SoloGame& solo, const std::string& player_id,
                                        std::int64_t now_ms);

// A finished game whose record failed goes back to its first `before` moves (a SoloEffects'
// before), playing again; false if it cannot (then it stays as it is).
bool take_back(SoloGame& solo, std::size_t before);

// solo as the `game` message shows it.
std::string solo_snapshot(const SoloGame& solo, const protocol::Rid& rid);

}  // namespace tilerace::server
