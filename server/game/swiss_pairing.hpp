#pragma once
// Swiss: a fixed number of rounds in which everyone plays. Each round pairs players in the
// order of the standings (points, then rating), each with the nearest below them they have not
// met (the Monrad way: no two players meet twice); an odd player out — the lowest in the
// standings who has not had one — gets a bye worth a win. Standings order by points, then
// Buchholz (the sum of the points of the opponents played; a bye adds none), then rating.
// Points are counted in halves: a win 2, a draw 1, a loss 0. Pure: the shell reports results.
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "server/game/entrant.hpp"

namespace tilerace::server {

class SwissPairing {
 public:
  struct Round {
    std::vector<std::pair<std::size_t, std::size_t>> matches;  // players, by their index
    std::optional<std::size_t> bye;
  };
  struct Standing {
    std::size_t player = 0;
    int points = 0;    // halves
    int buchholz = 0;  // halves
    int rating = 0;
  };

  // Requires at least two entrants; a player is known by their index in entrants.
  explicit SwissPairing(std::vector<Entrant> entrants);

  const std::vector<Entrant>& entrants() const noexcept { return entrants_; }
  // Pairs the next round and counts its bye at once. Requires every match of the round
  // before reported. Without a rematch-free pairing (more rounds than the field allows), the
  // round pairs in standings order and allows rematches.
  Round pair_round();
  // Takes round as the next one, as pair_round had paired it (a tournament rebuilt from the
  // store, which kept its rounds): its bye counts at once. Requires what pair_round does.
  void resume_round(const Round& round);
  // Records a match of the current round; false, changing nothing, for a pair that is not one
  // of its unreported matches.
  bool report(std::size_t a, std::size_t b, MatchOutcome outcome);
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

  bool pair_rest(std::vector<std::size_t>& rest, Round& round, long& budget) const;

  std::vector<Entrant> entrants_;
  std::vector<Record> records_;
  std::vector<std::pair<std::size_t, std::size_t>> unreported_;
  int rounds_ = 0;
};

}  // namespace tilerace::server
