#pragma once
// Single elimination: a bracket of the next power of two, seeded by rating (a stable sort, so
// equal ratings keep the order given) and laid out so that seeds 1 and 2 can meet only in the
// final, 1–4 only in the semifinals, and so on; the byes a field that is not a power of two
// needs go to the best seeds. An optional third-place match is played by the semifinals'
// losers. Pure: the shell reports each match's winner (it settles draws and forfeits) and asks
// which matches can be played.
#include <cstddef>
#include <optional>
#include <vector>

#include "server/rules/entrant.hpp"

namespace tilerace::server {

class EliminationBracket {
 public:
  // A match of round `round` (0: the first), `index` from the top of the bracket; the final
  // round holds the final at index 0 and, when played, the third-place match at index 1.
  struct Ref {
    int round = 0;
    int index = 0;
    bool operator==(const Ref&) const = default;
  };
  struct Match {
    // Seeds (indexes into seeds()), known once the matches before are decided; a first-round
    // slot with no seed behind it is a bye.
    std::optional<std::size_t> a, b;
    bool bye = false;  // one seed, who goes through unplayed (its winner is set)
    std::optional<std::size_t> winner;
  };

  // Requires at least two entrants.
  EliminationBracket(std::vector<Entrant> entrants, bool third_place);

  // The entrants, best seed first.
  const std::vector<Entrant>& seeds() const noexcept { return seeds_; }
  // Every round's matches, the first round first.
  const std::vector<std::vector<Match>>& rounds() const noexcept { return rounds_; }
  const Match& match(Ref ref) const;

  // The matches whose two players are known and which have no winner yet, in bracket order.
  std::vector<Ref> playable() const;
  // Records the winner (a seed, one of the match's two) of a playable match and moves them on
  // (a semifinal's loser to the third-place match). False, changing nothing, otherwise.
  bool decide(Ref ref, std::size_t winner);
  // Every match has a winner.
  bool finished() const;
  // Once finished: the winner, the runner-up, then third place — the third-place match's
  // winner, or both semifinals' losers (sharing it) when there is none; a semifinal that was a
  // bye has no loser.
  std::vector<std::size_t> podium() const;

 private:
  void advance(Ref from, std::size_t winner);
  Match& at(Ref ref) { return rounds_[ref.round][ref.index]; }

  std::vector<Entrant> seeds_;
  std::vector<std::vector<Match>> rounds_;
  bool third_place_ = false;
};

}  // namespace tilerace::server
