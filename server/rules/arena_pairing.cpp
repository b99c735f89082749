#include "server/rules/arena_pairing.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <tuple>

namespace tilerace::server {
namespace {

constexpr int kWin = 2;
constexpr int kDraw = 1;

}  // namespace

ArenaPairing::ArenaPairing(std::vector<Entrant> entrants, Time starts,
                           std::chrono::seconds duration, int room_size)
    : entrants_(std::move(entrants)),
      records_(entrants_.size()),
      starts_(starts),
      ends_(starts + duration),
      room_size_(static_cast<std::size_t>(room_size)) {
  if (entrants_.size() < 2) throw std::invalid_argument("an arena needs two players");
  if (room_size < 2 || room_size > 4) throw std::invalid_argument("rooms of 2 to 4");
}

std::size_t ArenaPairing::in_arena() const {
  return static_cast<std::size_t>(std::count_if(records_.begin(), records_.end(),
                                                [](const Record& r) { return !r.withdrawn; }));
}

bool ArenaPairing::in_last_race(std::size_t of, std::size_t other) const {
  const Group& last = records_[of].last_race;
  return std::find(last.begin(), last.end(), other) != last.end();
}

std::vector<Group> ArenaPairing::pair(Time now, const std::function<bool(std::size_t)>& available) {
  if (now < starts_ || now >= ends_) return {};
  std::vector<std::size_t> free;
  for (std::size_t p = 0; p < records_.size(); ++p) {
    Record& r = records_[p];
    if (!r.busy && !r.withdrawn && (!available || available(p))) {
      free.push_back(p);
      if (!r.free_since) r.free_since = now;
    } else {
      r.free_since.reset();
    }
  }
  std::stable_sort(free.begin(), free.end(), [this](std::size_t x, std::size_t y) {
    if (records_[x].points != records_[y].points) return records_[x].points > records_[y].points;
    return entrants_[x].rating > entrants_[y].rating;
  });
  return room_size_ == 2 ? pair_one_on_one(std::move(free)) : fill_rooms(std::move(free), now);
}

std::vector<Group> ArenaPairing::pair_one_on_one(std::vector<std::size_t> free) {
  std::vector<Group> paired;
  // x and y may meet: neither was the other's last opponent, unless nobody else is left in
  // the arena to meet.
  const bool anyone_else = in_arena() > 2;
  const auto may_meet = [&](std::size_t x, std::size_t y) {
    return !anyone_else || (!in_last_race(x, y) && !in_last_race(y, x));
  };
  while (free.size() >= 2) {
    const std::size_t p = free.front();
    std::optional<std::size_t> best;  // its position in free
    for (std::size_t i = 1; i < free.size(); ++i) {
      const std::size_t q = free[i];
      if (!may_meet(p, q)) continue;
      const auto distance = [&](std::size_t o) {
        return std::make_tuple(std::abs(records_[p].points - records_[o].points),
                               std::abs(entrants_[p].rating - entrants_[o].rating));
      };
      if (!best || distance(q) < distance(free[*best])) best = i;
    }
    if (best) {
      paired.push_back({p, free[*best]});
      start(paired.back());
      free.erase(free.begin() + static_cast<std::ptrdiff_t>(*best));
    }
    free.erase(free.begin());  // paired, or waits for someone else to come free
  }
  return paired;
}

std::vector<Group> ArenaPairing::fill_rooms(std::vector<std::size_t> free, Time now) {
  std::vector<Group> rooms;
  if (free.size() < 2) return rooms;
  const bool waited = std::any_of(free.begin(), free.end(), [&](std::size_t p) {
    return now - *records_[p].free_since >= kRoomWait;
  });
  if (free.size() < room_size_ && !waited) return rooms;
  for (const std::size_t seats : even_rooms(free.size(), room_size_)) {
    const std::size_t p = free.front();
    Group room{p};
    free.erase(free.begin());
    while (room.size() < seats) {
      const auto distance = [&](std::size_t o) {
        return std::make_tuple(in_last_race(p, o),
                               std::abs(records_[p].points - records_[o].points),
                               std::abs(entrants_[p].rating - entrants_[o].rating));
      };
      const auto next =
          std::min_element(free.begin(), free.end(),
                           [&](std::size_t x, std::size_t y) { return distance(x) < distance(y); });
      room.push_back(*next);
      free.erase(next);
    }
    // Two who just raced each other wait for someone else, as in 1-on-1.
    if (room.size() == 2 && in_last_race(room[0], room[1]) && in_arena() > 2) continue;
    start(room);
    rooms.push_back(std::move(room));
  }
  return rooms;
}

void ArenaPairing::start(const Group& players) {
  for (std::size_t p : players) {
    records_[p].busy = true;
    records_[p].free_since.reset();
  }
  running_.push_back(players);
}

bool ArenaPairing::resume(const Group& players) {
  const bool free = std::all_of(players.begin(), players.end(),
                                [this](std::size_t p) { return !records_.at(p).busy; });
  if (players.size() < 2 || !free) return false;
  start(players);
  return true;
}

void ArenaPairing::score(std::size_t player, Result result) {
  Record& r = records_[player];
  const int base = result == Result::win ? kWin : result == Result::draw ? kDraw : 0;
  r.points += r.wins_in_a_row >= 2 ? 2 * base : base;
  ++r.played;
  if (result == Result::win) {
    ++r.wins;
    ++r.wins_in_a_row;
  } else {
    r.wins_in_a_row = 0;
  }
}

bool ArenaPairing::report(const Group& players, const std::vector<Result>& results) {
  const auto it = std::find_if(running_.begin(), running_.end(),
                               [&](const Group& m) { return same_players(m, players); });
  if (it == running_.end() || results.size() != players.size()) return false;
  running_.erase(it);
  for (std::size_t i = 0; i < players.size(); ++i) {
    Record& r = records_[players[i]];
    score(players[i], results[i]);
    r.busy = false;
    r.last_race.clear();
    for (std::size_t other : players) {
      if (other != players[i]) r.last_race.push_back(other);
    }
  }
  return true;
}

void ArenaPairing::withdraw(std::size_t player) { records_.at(player).withdrawn = true; }

bool ArenaPairing::over(Time now) const { return now >= ends_ && running_.empty(); }

std::vector<ArenaPairing::Standing> ArenaPairing::standings() const {
  std::vector<Standing> table;
  for (std::size_t p = 0; p < records_.size(); ++p) {
    const Record& r = records_[p];
    table.push_back({p, r.points, r.wins, r.played, r.wins_in_a_row >= 2, entrants_[p].rating});
  }
  std::stable_sort(table.begin(), table.end(), [](const Standing& x, const Standing& y) {
    if (x.points != y.points) return x.points > y.points;
    return x.rating > y.rating;
  });
  return table;
}

}  // namespace tilerace::server
