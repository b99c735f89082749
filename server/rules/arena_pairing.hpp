#pragma once
// Arena: for a fixed time, players race as often as they can. A player whose race ended is
// paired at once with the free player nearest in points, never with the opponent of their
// last race while some other player is in the arena to meet instead (they wait for one). A win
// is worth 2, a draw 1, a loss 0; after two wins in a row a player is on a streak and every
// result counts double until one that is not a win ends it. Nobody is paired once the time is
// up; races running then are finished and count. The most points win; ties go by rating.
// With rooms of more than two (room_size 3 or 4), a room opens once room_size players are free,
// or once one has waited kRoomWait with at least one other free: the free players fill rooms as
// even in size as their number allows, each room's first seat going to the best free player
// and each next seat to the free player nearest in points who was not in that player's last
// race (one who was, only when nobody else is free); a room of two who just raced each other
// waits, as in 1-on-1. In a room, first is a win, last a loss and a place between a draw.
// Pure: time is passed in, results are reported by the shell.
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "server/rules/entrant.hpp"

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

  static constexpr std::chrono::seconds kRoomWait{10};

  // Requires at least two entrants and room_size 2 to 4; a player is known by their index in
  // entrants.
  ArenaPairing(std::vector<Entrant> entrants, Time starts, std::chrono::seconds duration,
               int room_size = 2);

  Time ends() const noexcept { return ends_; }
  // Pairs the free players it can at now, best in points first, each with the free player
  // nearest in points (ties: nearest in rating); none before the start or once the time is
  // up. A player available (when given) says no to is not free now (away), but still worth
  // waiting for. Rooms of more than two: see above. The players are busy until reported.
  std::vector<Group> pair(Time now, const std::function<bool(std::size_t)>& available = {});
  // A match pair() made before (a tournament rebuilt from the store, which kept its matches):
  // its players are busy with it until it is reported. False, changing nothing, when one is
  // busy already.
  bool resume(const Group& players);
  // Records a running match (players in any order; results[i]: how players[i] came out of it)
  // and frees its players; false, changing nothing, otherwise.
  bool report(const Group& players, const std::vector<Result>& results);
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
    std::optional<Time> free_since;  // as pair() first saw them free (rooms of more than two)
    Group last_race;                 // the others in their last race
  };

  // Pairs free (best first) two by two.
  std::vector<Group> pair_one_on_one(std::vector<std::size_t> free);
  // Fills rooms of up to room_size_ with free (best first).
  std::vector<Group> fill_rooms(std::vector<std::size_t> free, Time now);
  bool in_last_race(std::size_t of, std::size_t other) const;
  std::size_t in_arena() const;  // players who have not withdrawn
  void start(const Group& players);
  void score(std::size_t player, Result result);

  std::vector<Entrant> entrants_;
  std::vector<Record> records_;
  std::vector<Group> running_;
  Time starts_;
  Time ends_;
  std::size_t room_size_ = 2;
};

}  // namespace tilerace::server
