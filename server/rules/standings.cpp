#include "server/rules/standings.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace tilerace::server {

namespace {

// A key that sorts ascending from best to worst.
auto key_of(const RacerResult& r, bool fifteen) {
  return fifteen ? std::make_tuple(r.out, -std::int64_t{r.tiles_home}, std::int64_t{0}, r.moves)
                 : std::make_tuple(r.out, -r.score, -r.max_tile, r.moves);
}

}  // namespace

Ranking rank_racers(const std::vector<RacerResult>& racers, bool fifteen,
                    std::optional<std::size_t> target_winner) {
  Ranking ranking;
  ranking.order.resize(racers.size());
  std::iota(ranking.order.begin(), ranking.order.end(), std::size_t{0});
  auto better = [&](std::size_t a, std::size_t b) {
    if (target_winner && (a == *target_winner || b == *target_winner)) {
      return a == *target_winner && b != *target_winner;
    }
    return key_of(racers[a], fifteen) < key_of(racers[b], fifteen);
  };
  std::stable_sort(ranking.order.begin(), ranking.order.end(), better);
  ranking.place.assign(racers.size(), 0);
  for (std::size_t i = 1; i < ranking.order.size(); ++i) {
    const std::size_t prev = ranking.order[i - 1], cur = ranking.order[i];
    ranking.place[cur] = better(prev, cur) ? static_cast<int>(i) : ranking.place[prev];
  }
  if (!ranking.order.empty()) {
    const std::size_t first = ranking.order.front();
    const bool tied = ranking.order.size() > 1 && ranking.place[ranking.order[1]] == 0;
    if (!tied) ranking.winner = first;
  }
  return ranking;
}

}  // namespace tilerace::server
