#pragma once
// A tournament's players as its pairing sees them, a match's players, and how each came out of
// it. Shared by the three formats (elimination_bracket, swiss_pairing, arena_pairing); each
// knows its players by their index in the list it was given.
#include <algorithm>
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

// The same players, in any order.
inline bool same_players(const Group& a, const Group& b) {
  return a.size() == b.size() && std::is_permutation(a.begin(), a.end(), b.begin());
}

// The sizes of the rooms that seat players in rooms of up to room_size, as even as their number
// allows: the fewest rooms, the first ones taking one more when it does not divide (7 in rooms
// of 4: 4 and 3; 9: three of 3).
inline std::vector<std::size_t> even_rooms(std::size_t players, std::size_t room_size) {
  const std::size_t count = (players + room_size - 1) / room_size;
  std::vector<std::size_t> sizes;
  for (std::size_t r = 0; r < count; ++r) {
    sizes.push_back(players / (count - r) + (players % (count - r) != 0));
    players -= sizes.back();
  }
  return sizes;
}

// How one player came out of a match: in a room of more than two, first is a win, last a loss
// and any place between a draw (tournament_state.cpp, results_of). A player who did not play it
// lost it.
enum class Result { win, draw, loss };

}  // namespace tilerace::server
