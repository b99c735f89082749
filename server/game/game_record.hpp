#pragma once
// A game as the store records it when it ends, solo or in a race.
#include <cstdint>
#include <string>

#include "engine/game.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

// game's moves and result, recorded as game id of player_id; room: the race's code, empty for
// a solo game.
inline GameRecord game_record(const engine::Game& game, std::string id, std::string player_id,
                              bool ranked, std::int64_t started_at, std::int64_t ended_at,
                              std::string room = {}) {
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
          .room = std::move(room)};
}

}  // namespace tilerace::server
