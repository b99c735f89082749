#include "server/rules/race_options.hpp"

namespace tilerace::server {

RaceOptionsRecord record_of(const protocol::RoomOptions& o) {
  return {.mode = o.mode,
          .size = o.size,
          .target = o.target,
          .time_limit = o.time_limit,
          .max_players = o.max_players,
          .is_public = o.is_public,
          .max_moves_per_second = o.max_moves_per_second,
          .tournament = o.tournament};
}

protocol::RoomOptions options_of(const RaceOptionsRecord& r) {
  return {.mode = r.mode,
          .size = r.size,
          .target = r.target,
          .time_limit = r.time_limit,
          .max_players = r.max_players,
          .is_public = r.is_public,
          .max_moves_per_second = r.max_moves_per_second,
          .tournament = r.tournament};
}

}  // namespace tilerace::server
