#include "server/rules/elimination_bracket.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace tilerace::server {
namespace {

// The seeds (0 best) of a bracket's first-round slots, top to bottom: each round of doubling
// puts seed s beside its mirror, so the best seed of every pair of slots stays on top and the
// two best halves meet last.
std::vector<std::size_t> bracket_order(std::size_t size) {
  std::vector<std::size_t> order{0};
  while (order.size() < size) {
    const std::size_t doubled = order.size() * 2;
    std::vector<std::size_t> next;
    for (std::size_t s : order) {
      next.push_back(s);
      next.push_back(doubled - 1 - s);
    }
    order = std::move(next);
  }
  return order;
}

}  // namespace

EliminationBracket::EliminationBracket(std::vector<Entrant> entrants, bool third_place)
    : seeds_(std::move(entrants)) {
  if (seeds_.size() < 2) throw std::invalid_argument("a bracket needs two players");
  std::stable_sort(seeds_.begin(), seeds_.end(),
                   [](const Entrant& x, const Entrant& y) { return x.rating > y.rating; });
  const std::size_t size = std::bit_ceil(seeds_.size());
  // Three players: one semifinal is a bye and has no loser to play for third place.
  third_place_ = third_place && seeds_.size() >= 4;
  for (std::size_t matches = size / 2; matches >= 1; matches /= 2) {
    rounds_.emplace_back(matches);
  }
  if (third_place_) rounds_.back().emplace_back();
  const std::vector<std::size_t> order = bracket_order(size);
  for (std::size_t i = 0; i < size / 2; ++i) {
    Match& m = rounds_[0][i];
    m.a = order[2 * i];  // the better seed of the two: always a player
    if (order[2 * i + 1] < seeds_.size()) {
      m.b = order[2 * i + 1];
    } else {
      m.bye = true;
      m.winner = m.a;
    }
  }
  // More than half the bracket is filled, so no first-round match is two byes.
  for (std::size_t i = 0; i < size / 2; ++i) {
    if (rounds_[0][i].bye) advance({0, static_cast<int>(i)}, *rounds_[0][i].a);
  }
}

const EliminationBracket::Match& EliminationBracket::match(Ref ref) const {
  return rounds_.at(static_cast<std::size_t>(ref.round)).at(static_cast<std::size_t>(ref.index));
}

std::vector<EliminationBracket::Ref> EliminationBracket::playable() const {
  std::vector<Ref> refs;
  for (std::size_t r = 0; r < rounds_.size(); ++r) {
    for (std::size_t i = 0; i < rounds_[r].size(); ++i) {
      const Match& m = rounds_[r][i];
      if (m.a && m.b && !m.winner) refs.push_back({static_cast<int>(r), static_cast<int>(i)});
    }
  }
  return refs;
}

bool EliminationBracket::decide(Ref ref, std::size_t winner) {
  if (ref.round < 0 || ref.index < 0 || static_cast<std::size_t>(ref.round) >= rounds_.size() ||
      static_cast<std::size_t>(ref.index) >= rounds_[ref.round].size()) {
    return false;
  }
  Match& m = at(ref);
  if (!m.a || !m.b || m.winner || (winner != *m.a && winner != *m.b)) return false;
  m.winner = winner;
  advance(ref, winner);
  return true;
}

void EliminationBracket::advance(Ref from, std::size_t winner) {
  const int last = static_cast<int>(rounds_.size()) - 1;
  if (from.round == last) return;  // the final or the third-place match
  Match& next = at({from.round + 1, from.index / 2});
  (from.index % 2 == 0 ? next.a : next.b) = winner;
  const Match& m = at(from);
  if (third_place_ && from.round == last - 1 && !m.bye) {
    Match& third = at({last, 1});
    (from.index % 2 == 0 ? third.a : third.b) = winner == *m.a ? m.b : m.a;
  }
}

bool EliminationBracket::finished() const {
  return std::all_of(rounds_.begin(), rounds_.end(), [](const std::vector<Match>& round) {
    return std::all_of(round.begin(), round.end(), [](const Match& m) { return m.winner; });
  });
}

std::vector<std::size_t> EliminationBracket::podium() const {
  if (!finished()) return {};
  const Match& final = rounds_.back()[0];
  std::vector<std::size_t> podium{*final.winner, *final.winner == *final.a ? *final.b : *final.a};
  if (third_place_) {
    podium.push_back(*rounds_.back()[1].winner);
  } else if (rounds_.size() >= 2) {
    for (const Match& semi : rounds_[rounds_.size() - 2]) {
      if (!semi.bye) podium.push_back(*semi.winner == *semi.a ? *semi.b : *semi.a);
    }
  }
  return podium;
}

}  // namespace tilerace::server
