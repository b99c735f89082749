// One race's rating update, side by side: the Elo the server rates with today and Glicko-2
// (server/rules/glicko2.hpp, with its volatility iteration), for a race of two and of four.
// docs/performance.md, "Ratings", has the figures and the command.
#include <benchmark/benchmark.h>

#include <vector>

#include "server/rules/glicko2.hpp"
#include "server/rules/standings.hpp"

namespace {

using namespace tilerace::server;

void BM_Elo(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<int> ratings(n), place(n);
  for (std::size_t i = 0; i < n; ++i) {
    ratings[i] = 1500 + 40 * static_cast<int>(i);
    place[i] = static_cast<int>(i);
  }
  for (auto _ : state) benchmark::DoNotOptimize(elo_update(ratings, place));
}

void BM_Glicko2(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<glicko2::Rating> racers(n);
  std::vector<int> place(n);
  for (std::size_t i = 0; i < n; ++i) {
    racers[i] = {1500 + 40.0 * static_cast<double>(i), 60 + 30.0 * static_cast<double>(i), 0.06};
    place[i] = static_cast<int>(i);
  }
  for (auto _ : state) benchmark::DoNotOptimize(glicko2::race(racers, place));
}

BENCHMARK(BM_Elo)->Arg(2)->Arg(4);
BENCHMARK(BM_Glicko2)->Arg(2)->Arg(4);

}  // namespace
