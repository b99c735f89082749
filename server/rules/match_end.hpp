#pragma once
// How a tournament's match room ended (RoomOptions::tournament), for its tournament.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilerace::server {

// Each racer who played the match to its end, with their place in the race (0 is first;
// equal results share a place), best first. A racer missing from it did not play it (away past
// the grace, or gone before the start) and lost it; nobody listed: nobody played it (the
// operator closed the room, or everyone was absent).
struct MatchEnd {
  std::vector<std::pair<std::string, int>> places;
  // A walkover: one racer came and the others did not. The room told the one present
  // (race_over, reason walkover, once recorded); the tournament tells the absent when they
  // come back.
  struct Walkover {
    std::vector<std::string> absent;  // player ids (the one present: places)
    std::string race_over;
  };
  std::optional<Walkover> walkover;
};

}  // namespace tilerace::server
