#pragma once
// A tournament's players as its pairing sees them, and what one match came to. Shared by the
// three formats (elimination_bracket, swiss_pairing, arena_pairing); each knows its players
// by their index in the list it was given.
#include <string>

namespace tilerace::server {

struct Entrant {
  std::string player_id;
  int rating = 1500;
};

// A match between two players, a and b, as reported to a format; both_lose: neither played
// it (both absent), which a format counts as a loss for each.
enum class MatchOutcome { a_wins, b_wins, draw, both_lose };

}  // namespace tilerace::server
