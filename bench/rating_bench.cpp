// The cost of rating a race with Glicko-2 (server/rules/glicko2.hpp, with its volatility
// iteration): one racer's update (Glickman's worked example: three results), and whole races
// of two, four and eight, side by side, so the cost per racer can be read as a ratio.
// docs/performance.md, "Ratings", has the figures and the command.
#include <benchmark/benchmark.h>

#include <vector>

#include "server/rules/glicko2.hpp"

namespace {

using namespace tilerace::server;

void BM_Update(benchmark::State& state) {
  const std::vector<glicko2::Result> results{
      {{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
  const glicko2::Rating player{1500, 200, 0.06};
  for (auto _ : state) benchmark::DoNotOptimize(glicko2::update(player, results));
}

void BM_Race(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<glicko2::Rating> racers(n);
  std::vector<int> place(n);
  for (std::size_t i = 0; i < n; ++i) {
    racers[i] = {1500 + 40.0 * static_cast<double>(i), 60 + 30.0 * static_cast<double>(i), 0.06};
    place[i] = static_cast<int>(i);
  }
  for (auto _ : state) benchmark::DoNotOptimize(glicko2::race(racers, place));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));  // racers rated
}

BENCHMARK(BM_Update);
BENCHMARK(BM_Race)->Arg(2)->Arg(4)->Arg(8);

}  // namespace
