#include "server/game/arena_pairing.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace tilerace::server {
namespace {

constexpr int kWin = 2;
constexpr int kDraw = 1;

}  // namespace

ArenaPairing::ArenaPairing(std::vector<Entrant> entrants, Time starts,
                           std::chrono::seconds duration)
    : entrants_(std::move(entrants)),
      records_(entrants_.size()),
      starts_(starts),
      ends_(starts + duration) {
  if (entrants_.size() < 2) throw std::invalid_argument("an arena needs two players");
}

std::vector<std::pair<std::size_t, std::size_t>> ArenaPairing::pair(
    Time now, const std::function<bool(std::size_t)>& available) {
  std::vector<std::pair<std::size_t, std::size_t>> paired;
  if (now < starts_ || now >= ends_) return paired;
  std::vector<std::size_t> free;
  for (std::size_t p = 0; p < records_.size(); ++p) {
    if (!records_[p].busy && !records_[p].withdrawn && (!available || available(p))) {
      free.push_back(p);
    }
  }
  std::stable_sort(free.begin(), free.end(), [this](std::size_t x, std::size_t y) {
    if (records_[x].points != records_[y].points) return records_[x].points > records_[y].points;
    return entrants_[x].rating > entrants_[y].rating;
  });
  const auto in_arena = static_cast<std::size_t>(std::count_if(
      records_.begin(), records_.end(), [](const Record& r) { return !r.withdrawn; }));
  // x and y may meet: neither was the other's last opponent, unless nobody else is left in
  // the arena to meet.
  const auto may_meet = [&](std::size_t x, std::size_t y) {
    if (in_arena <= 2) return true;
    return records_[x].last_opponent != y && records_[y].last_opponent != x;
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
      const std::size_t q = free[*best];
      records_[p].busy = records_[q].busy = true;
      running_.emplace_back(p, q);
      paired.emplace_back(p, q);
      free.erase(free.begin() + static_cast<std::ptrdiff_t>(*best));
    }
    free.erase(free.begin());  // paired, or waits for someone else to come free
  }
  return paired;
}

bool ArenaPairing::resume(std::size_t a, std::size_t b) {
  if (a == b || records_.at(a).busy || records_.at(b).busy) return false;
  records_[a].busy = records_[b].busy = true;
  running_.emplace_back(a, b);
  return true;
}

void ArenaPairing::score(std::size_t player, int base, bool win) {
  Record& r = records_[player];
  r.points += r.wins_in_a_row >= 2 ? 2 * base : base;
  ++r.played;
  if (win) {
    ++r.wins;
    ++r.wins_in_a_row;
  } else {
    r.wins_in_a_row = 0;
  }
}

bool ArenaPairing::report(std::size_t a, std::size_t b, MatchOutcome outcome) {
  const auto it = std::find_if(running_.begin(), running_.end(), [&](const auto& m) {
    return (m.first == a && m.second == b) || (m.first == b && m.second == a);
  });
  if (it == running_.end()) return false;
  running_.erase(it);
  switch (outcome) {
    case MatchOutcome::a_wins:
      score(a, kWin, true);
      score(b, 0, false);
      break;
    case MatchOutcome::b_wins:
      score(a, 0, false);
      score(b, kWin, true);
      break;
    case MatchOutcome::draw:
      score(a, kDraw, false);
      score(b, kDraw, false);
      break;
    case MatchOutcome::both_lose:
      score(a, 0, false);
      score(b, 0, false);
      break;
  }
  for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    records_[x].busy = false;
    records_[x].last_opponent = y;
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
