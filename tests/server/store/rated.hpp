#pragma once
// Rated races for the store's tests: a racer's classic 4×4 rating update as a race record
// carries it (from `before`, deviation 350, to `after`, deviation 60: listed on the
// leaderboard), and a race carrying such updates.
#include <string>
#include <vector>

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

// A race won by the first of ratings (by forfeit) at ended_at, with those updates.
inline RaceRecord rated_race(std::string id, std::vector<RatingUpdate> ratings,
                             std::int64_t ended_at) {
  RaceRecord r;
  r.id = std::move(id);
  r.room = "ABCDEF";
  r.reason = "forfeit";
  r.winner = ratings[0].player_id;
  r.result = "{}";
  r.ended_at = ended_at;
  r.ratings = std::move(ratings);
  return r;
}

// A player's classic 4×4 rating, whole points.
inline int classic4_rating(const PlayerRecord& p) {
  return shown(p.ratings[protocol::index_of(protocol::Variant::classic_4)].rating.rating);
}

}  // namespace tilerace::server
