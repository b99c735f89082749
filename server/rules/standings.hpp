#pragma once
// Who won a race and in what order everyone finished (PROTOCOL.md §5): the places its ratings
// are updated from (glicko2.hpp). Pure functions of the racers' results.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/types.hpp"

namespace tilerace::server {

struct RacerResult {
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  int moves = 0;
  int tiles_home = 0;  // fifteen
  bool out = false;    // left, forfeited or resigned: ranked after everyone still in
};

struct Ranking {
  std::vector<std::size_t> order;     // racer indices, best first
  std::vector<int> place;             // per racer: 0 is first; equal results share a place
  std::optional<std::size_t> winner;  // none for a full tie at the top
};

// Ranks racers: target_winner (if any) first, then racers still in before those out, then
// by score, max tile, fewer moves (fifteen: tiles home, then fewer moves).
Ranking rank_racers(const std::vector<RacerResult>& racers, bool fifteen,
                    std::optional<std::size_t> target_winner);

}  // namespace tilerace::server
