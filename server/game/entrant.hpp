#pragma once
// A tournament's players as its pairing sees them, a match's players, and how each came out of
// it. Shared by the three formats (elimination_bracket, swiss_pairing, arena_pairing); each
// knows its players by their index in the list it was given.
#include <cstddef>
#include <string>
#include <vector>

namespace tilerace::server {

struct Entrant {
  std::string player_id;
  int rating = 1500;
};

// A match's players, by their index: two (1-on-1), or up to four racing all against all.
using Group = std::vector<std::size_t>;

// How one player came out of a match: in a room of more than two, first is a win, last a loss
// and any place between a draw (tournament_state.cpp, results_of). A player who did not play it
// lost it.
enum class Result { win, draw, loss };

}  // namespace tilerace::server
