#include "server/rules/swiss_pairing.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace tilerace::server {
namespace {

// The steps one round's search may take before it settles for rematches; ample for any field
// that has a rematch-free pairing in reach (256 players, rounds well below their number).
constexpr long kSearchBudget = 200'000;

constexpr int kWin = 2;
constexpr int kDraw = 1;

}  // namespace

SwissPairing::SwissPairing(std::vector<Entrant> entrants, int room_size)
    : entrants_(std::move(entrants)),
      records_(entrants_.size()),
      room_size_(static_cast<std::size_t>(room_size)) {
  if (entrants_.size() < 2) throw std::invalid_argument("a Swiss needs two players");
  if (room_size < 2 || room_size > 4) throw std::invalid_argument("rooms of 2 to 4");
}

bool SwissPairing::have_met(std::size_t a, std::size_t b) const {
  const std::vector<std::size_t>& o = records_.at(a).opponents;
  return std::find(o.begin(), o.end(), b) != o.end();
}

// Pairs rest (in standings order) without a rematch: its first player with the nearest below
// them they have not met, then the others the same way, backtracking when that leaves a
// player nobody can meet.
bool SwissPairing::pair_rest(std::vector<std::size_t>& rest, Round& round, long& budget) const {
  if (rest.empty()) return true;
  const std::size_t first = rest.front();
  for (std::size_t i = 1; i < rest.size(); ++i) {
    if (--budget < 0) return false;
    const std::size_t other = rest[i];
    if (have_met(first, other)) continue;
    std::vector<std::size_t> left;
    left.reserve(rest.size() - 2);
    for (std::size_t j = 1; j < rest.size(); ++j) {
      if (j != i) left.push_back(rest[j]);
    }
    round.matches.push_back({first, other});
    if (pair_rest(left, round, budget)) return true;
    round.matches.pop_back();
  }
  return false;
}

std::vector<std::size_t> SwissPairing::standings_order() const {
  std::vector<std::size_t> order(entrants_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) {
    if (records_[x].points != records_[y].points) return records_[x].points > records_[y].points;
    return entrants_[x].rating > entrants_[y].rating;
  });
  return order;
}

SwissPairing::Round SwissPairing::pair_round() {
  if (!round_complete()) throw std::logic_error("the round before is not over");
  const std::vector<std::size_t> order = standings_order();
  const Round round = room_size_ == 2 ? pair_one_on_one(order) : fill_rooms(order);
  resume_round(round);
  return round;
}

SwissPairing::Round SwissPairing::pair_one_on_one(const std::vector<std::size_t>& order) const {
  // The odd player out: the lowest who has had no bye (everyone has had one: the lowest), and
  // of those, the first whose leaving lets the others pair without a rematch.
  std::vector<std::optional<std::size_t>> byes;
  if (order.size() % 2 == 0) {
    byes.push_back(std::nullopt);
  } else {
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (!records_[*it].had_bye) byes.push_back(*it);
    }
    if (byes.empty()) byes.push_back(order.back());
  }
  long budget = kSearchBudget;
  for (const std::optional<std::size_t>& bye : byes) {
    std::vector<std::size_t> rest;
    for (std::size_t p : order) {
      if (p != bye) rest.push_back(p);
    }
    Round round{{}, bye};
    if (pair_rest(rest, round, budget)) return round;
    if (budget < 0) break;
  }
  // No rematch-free pairing: neighbours in the standings meet.
  Round round{{}, byes.front()};
  std::vector<std::size_t> rest;
  for (std::size_t p : order) {
    if (p != round.bye) rest.push_back(p);
  }
  for (std::size_t i = 0; i + 1 < rest.size(); i += 2)
    round.matches.push_back({rest[i], rest[i + 1]});
  return round;
}

int SwissPairing::meetings(std::size_t a, std::size_t b) const {
  const std::vector<std::size_t>& o = records_[a].opponents;
  return static_cast<int>(std::count(o.begin(), o.end(), b));
}

// Searches the seatings of rest (in standings order) into rooms of sizes, each room's first
// seat the best player left: the one whose rooms repeat the fewest earlier meetings (each
// pair counted as often as it met before). Tries the cheapest seat first, so the first seating
// found is the greedy one (always completed); keeps the best found within the budget (spent in
// proportion to the work), and stops at one without a rematch.
void SwissPairing::seat_rest(std::vector<std::size_t>& rest, const std::vector<std::size_t>& sizes,
                             Seating& now, Seating& best, long& budget) const {
  // Enough searched: a seating without a rematch, or the budget spent once one was found.
  const auto enough = [&best, &budget] {
    return best.cost == 0 || (budget < 0 && best.cost != std::numeric_limits<int>::max());
  };
  if (now.cost >= best.cost || enough()) return;
  if (rest.empty()) {
    best = now;
    return;
  }
  if (now.rooms.empty() || now.rooms.back().size() == sizes[now.rooms.size() - 1]) {
    now.rooms.push_back({rest.front()});
    rest.erase(rest.begin());
    seat_rest(rest, sizes, now, best, budget);
    rest.insert(rest.begin(), now.rooms.back().front());
    now.rooms.pop_back();
    return;
  }
  const std::size_t room = now.rooms.size() - 1;   // rooms grows below: no reference into it
  std::vector<std::pair<int, std::size_t>> seats;  // (added cost, position in rest)
  budget -= static_cast<long>(rest.size());
  for (std::size_t i = 0; i < rest.size(); ++i) {
    int cost = 0;
    for (std::size_t q : now.rooms[room]) cost += meetings(rest[i], q);
    seats.emplace_back(cost, i);
  }
  std::stable_sort(seats.begin(), seats.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [cost, i] : seats) {
    if (enough()) return;
    const std::size_t p = rest[i];
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
    now.rooms[room].push_back(p);
    now.cost += cost;
    seat_rest(rest, sizes, now, best, budget);
    now.cost -= cost;
    now.rooms[room].pop_back();
    rest.insert(rest.begin() + static_cast<std::ptrdiff_t>(i), p);
  }
}

SwissPairing::Round SwissPairing::fill_rooms(std::vector<std::size_t> order) const {
  const std::vector<std::size_t> sizes = even_rooms(order.size(), room_size_);
  Seating now;
  Seating best{{}, std::numeric_limits<int>::max()};
  long budget = kSearchBudget;
  seat_rest(order, sizes, now, best, budget);
  return Round{std::move(best.rooms), std::nullopt};
}

void SwissPairing::resume_round(const Round& round) {
  if (!round_complete()) throw std::logic_error("the round before is not over");
  if (round.bye) {
    records_.at(*round.bye).points += kWin;
    records_[*round.bye].had_bye = true;
  }
  unreported_ = round.matches;
  ++rounds_;
}

bool SwissPairing::report(const Group& players, const std::vector<Result>& results) {
  const auto it = std::find_if(unreported_.begin(), unreported_.end(),
                               [&](const Group& m) { return same_players(m, players); });
  if (it == unreported_.end() || results.size() != players.size()) return false;
  unreported_.erase(it);
  for (std::size_t i = 0; i < players.size(); ++i) {
    Record& r = records_[players[i]];
    for (std::size_t other : players) {
      if (other != players[i]) r.opponents.push_back(other);
    }
    r.points += results[i] == Result::win ? kWin : results[i] == Result::draw ? kDraw : 0;
  }
  return true;
}

std::vector<SwissPairing::Standing> SwissPairing::standings() const {
  std::vector<Standing> table;
  for (std::size_t p = 0; p < entrants_.size(); ++p) {
    Standing s{p, records_[p].points, 0, entrants_[p].rating};
    for (std::size_t o : records_[p].opponents) s.buchholz += records_[o].points;
    table.push_back(s);
  }
  std::stable_sort(table.begin(), table.end(), [](const Standing& x, const Standing& y) {
    if (x.points != y.points) return x.points > y.points;
    if (x.buchholz != y.buchholz) return x.buchholz > y.buchholz;
    return x.rating > y.rating;
  });
  return table;
}

}  // namespace tilerace::server
