#pragma once
// Arena: for a fixed time, players race as often as they can. A player whose race ended is
// paired at once with the free player nearest in points, never with the opponent of their
// last race while some other player is in the arena to meet instead (they wait for one). A win
// is worth 2, a draw 1, a loss 0; after two wins in a row a player is on a streak and every
// result counts double until one that is not a win ends it. Nobody is paired once the time is
// up; races running then are finished and count. The most points win; ties go by rating.
// Pure: time is passed in, results are reported by the shell.
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "server/game/entrant.hpp"

namespace tilerace::server {

class ArenaPairing {
 public:
  using Time = std::chrono::steady_clock::time_point;
  struct Standing {
    std::size_t player = 0;
    int points = 0;
    int wins = 0;
    int played = 0;
    bool streak = false;  // the next result counts double
    int rating = 0;
  };

  // Requires at least two entrants; a player is known by their index in entrants.
  ArenaPairing(std::vector<Entrant> entrants, Time starts, std::chrono::seconds duration);

  Time ends() const noexcept { return ends_; }
  // Pairs the free players it can at now, best in points first, each with the free player
  // nearest in points (ties: nearest in rating); none before the start or once the time is
  // up. A player available (when given) says no to is not free now (away), but still worth
  // waiting for. The pairs are busy until reported.
  std::vector<std::pair<std::size_t, std::size_t>> pair(
      Time now, const std::function<bool(std::size_t)>& available = {});
  // A match pair() made before (a tournament rebuilt from the store, which kept its matches):
  // a and b are busy with it until it is reported. False, changing nothing, when either is
  // busy already.
  bool resume(std::size_t a, std::size_t b);
  // Records a running match and frees its players; false, changing nothing, otherwise.
  bool report(std::size_t a, std::size_t b, MatchOutcome outcome);
  // The player is out of the arena from now on (they left): never paired again, and no
  // longer worth waiting for. A running match of theirs is still reported.
  void withdraw(std::size_t player);
  // The time is up and no match is running.
  bool over(Time now) const;
  std::vector<Standing> standings() const;

 private:
  struct Record {
    int points = 0;
    int wins = 0;
    int played = 0;
    int wins_in_a_row = 0;
    bool busy = false;
    bool withdrawn = false;
    std::optional<std::size_t> last_opponent;
  };

  void score(std::size_t player, int base, bool win);

  std::vector<Entrant> entrants_;
  std::vector<Record> records_;
  std::vector<std::pair<std::size_t, std::size_t>> running_;
  Time starts_;
  Time ends_;
};

}  // namespace tilerace::server
