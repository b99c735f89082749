#pragma once
// Swiss: a fixed number of rounds in which everyone plays. Each round pairs players in the
// order of the standings (points, then rating), each with the nearest below them they have not
// met (the Monrad way: no two players meet twice); an odd player out — the lowest in the
// standings who has not had one — gets a bye worth a win. Standings order by points, then
// Buchholz (the sum of the points of the opponents played; a bye adds none), then rating.
// Points are counted in halves: a win 2, a draw 1, a loss 0.
// With rooms of more than two (room_size 3 or 4) everyone races all against all in rooms that
// fill in standings order, as even in size as the field allows (nine in rooms of four: three of
// three) and never with a bye: each room's first seat goes to the best player not yet seated,
// the others to the players nearest below that repeat the fewest earlier meetings over the
// whole round (a bounded search) — rooms keep rematches as few as they can rather than forbid
// them. A room's opponents all count in a player's Buchholz. Pure: the shell reports results.
#include <cstddef>
#include <optional>
#include <vector>

#include "server/rules/entrant.hpp"

namespace tilerace::server {

class SwissPairing {
 public:
  struct Round {
    std::vector<Group> matches;  // each match's players, by their index
    std::optional<std::size_t> bye;
  };
  struct Standing {
    std::size_t player = 0;
    int points = 0;    // halves
    int buchholz = 0;  // halves
    int rating = 0;
  };

  // Requires at least two entrants and room_size 2 to 4; a player is known by their index in
  // entrants.
  explicit SwissPairing(std::vector<Entrant> entrants, int room_size = 2);

  const std::vector<Entrant>& entrants() const noexcept { return entrants_; }
  // Pairs the next round and counts its bye at once. Requires every match of the round
  // before reported. Without a rematch-free pairing (more rounds than the field allows), the
  // round pairs in standings order and allows rematches.
  Round pair_round();
  // Takes round as the next one, as pair_round had paired it (a tournament rebuilt from the
  // store, which kept its rounds): its bye counts at once. Requires what pair_round does.
  void resume_round(const Round& round);
  // Records a match of the current round (players in any order; results[i] is how players[i]
  // came out of it). False, changing nothing, for players that are not one of its unreported
  // matches.
  bool report(const Group& players, const std::vector<Result>& results);
  // Every match of the current round is reported.
  bool round_complete() const noexcept { return unreported_.empty(); }
  int rounds_paired() const noexcept { return rounds_; }
  bool have_met(std::size_t a, std::size_t b) const;
  std::vector<Standing> standings() const;

 private:
  struct Record {
    int points = 0;
    bool had_bye = false;
    std::vector<std::size_t> opponents;
  };

  // The players in standings order (points, then rating).
  std::vector<std::size_t> standings_order() const;
  // 1-on-1: Monrad pairing with its bye; rooms: filled in standings order.
  Round pair_one_on_one(const std::vector<std::size_t>& order) const;
  Round fill_rooms(std::vector<std::size_t> order) const;
  struct Seating {
    std::vector<Group> rooms;
    int cost = 0;  // earlier meetings the rooms repeat
  };
  void seat_rest(std::vector<std::size_t>& rest, const std::vector<std::size_t>& sizes,
                 Seating& now, Seating& best, long& budget) const;
  int meetings(std::size_t a, std::size_t b) const;
  bool pair_rest(std::vector<std::size_t>& rest, Round& round, long& budget) const;

  std::vector<Entrant> entrants_;
  std::vector<Record> records_;
  std::size_t room_size_ = 2;
  std::vector<Group> unreported_;
  int rounds_ = 0;
};

}  // namespace tilerace::server
