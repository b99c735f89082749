#include "server/game/swiss_pairing.hpp"

#include <algorithm>
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

SwissPairing::SwissPairing(std::vector<Entrant> entrants)
    : entrants_(std::move(entrants)), records_(entrants_.size()) {
  if (entrants_.size() < 2) throw std::invalid_argument("a Swiss needs two players");
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
    round.matches.emplace_back(first, other);
    if (pair_rest(left, round, budget)) return true;
    round.matches.pop_back();
  }
  return false;
}

SwissPairing::Round SwissPairing::pair_round() {
  if (!round_complete()) throw std::logic_error("the round before is not over");
  std::vector<std::size_t> order(entrants_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) {
    if (records_[x].points != records_[y].points) return records_[x].points > records_[y].points;
    return entrants_[x].rating > entrants_[y].rating;
  });
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
  Round round;
  bool found = false;
  long budget = kSearchBudget;
  for (const std::optional<std::size_t>& bye : byes) {
    std::vector<std::size_t> rest;
    for (std::size_t p : order) {
      if (p != bye) rest.push_back(p);
    }
    round = Round{{}, bye};
    if (pair_rest(rest, round, budget)) {
      found = true;
      break;
    }
    if (budget < 0) break;
  }
  if (!found) {  // no rematch-free pairing: neighbours in the standings meet
    round = Round{{}, byes.front()};
    std::vector<std::size_t> rest;
    for (std::size_t p : order) {
      if (p != round.bye) rest.push_back(p);
    }
    for (std::size_t i = 0; i + 1 < rest.size(); i += 2)
      round.matches.emplace_back(rest[i], rest[i + 1]);
  }
  resume_round(round);
  return round;
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

bool SwissPairing::report(std::size_t a, std::size_t b, MatchOutcome outcome) {
  auto it = std::find_if(unreported_.begin(), unreported_.end(), [&](const auto& m) {
    return (m.first == a && m.second == b) || (m.first == b && m.second == a);
  });
  if (it == unreported_.end()) return false;
  unreported_.erase(it);
  records_[a].opponents.push_back(b);
  records_[b].opponents.push_back(a);
  switch (outcome) {
    case MatchOutcome::a_wins: records_[a].points += kWin; break;
    case MatchOutcome::b_wins: records_[b].points += kWin; break;
    case MatchOutcome::draw:
      records_[a].points += kDraw;
      records_[b].points += kDraw;
      break;
    case MatchOutcome::both_lose: break;
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
