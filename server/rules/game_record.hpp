#pragma once
// A game as the store records it when it ends, solo or in a race.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.hpp"
#include "server/rules/play_records.hpp"

namespace tilerace::server {

// When each move letter of a game was played (ms from its start), or nullopt once that is
// not known (a race resumed after a restart or a failover keeps no times; a solo game's
// journal keeps them).
using MoveTimes = std::optional<std::vector<std::int32_t>>;

// Stamps the move letters played since times was last stamped (the history has letters of
// them now) with ms, the time since the game started.
inline void stamp(MoveTimes& times, std::size_t letters, std::int64_t ms) {
  if (times && times->size() < letters) times->resize(letters, static_cast<std::int32_t>(ms));
}

// game's moves and result, recorded as game id of player_id; room: the race's code, empty for
// a solo game. times: when each letter was played, kept only when there is one per letter.
inline GameRecord game_record(const engine::Game& game, std::string id, std::string player_id,
                              bool ranked, std::int64_t started_at, std::int64_t ended_at,
                              std::string room = {}, const MoveTimes& times = std::nullopt) {
  return {.id = std::move(id),
          .player_id = std::move(player_id),
          .config = game.config(),
          .moves = game.history(),
          .score = game.score(),
          .max_tile = game.max_tile(),
          .move_count = game.moves(),
          .state = game.state(),
          .ranked = ranked,
          .started_at = started_at,
          .ended_at = ended_at,
          .room = std::move(room),
          .times = times && times->size() == game.history().size() ? *times
                                                                   : std::vector<std::int32_t>{}};
}

}  // namespace tilerace::server
