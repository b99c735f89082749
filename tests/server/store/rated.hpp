#pragma once
// A racer's classic 4×4 rating update as a race record carries it, for the store's tests: from
// `before` (deviation 350) to `after` (deviation 60: listed on the leaderboard).
#include <string>

#include "server/rules/play_records.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

inline RatingUpdate rated(std::string player, double before, double after, bool won, bool lost) {
  return {.player_id = std::move(player),
          .variant = protocol::Variant::classic_4,
          .before = {before, 350, 0.06},
          .after = {after, 60, 0.06},
          .won = won,
          .lost = lost};
}

// A player's classic 4×4 rating, whole points.
inline int classic4_rating(const PlayerRecord& p) {
  return shown(p.ratings[protocol::index_of(protocol::Variant::classic_4)].rating.rating);
}

}  // namespace tilerace::server
