// How well the signals of computer-assisted play (server/rules/assist_signals.hpp) separate
// games played by the built-in computer from human-like play. Two sets of seeded classic 4×4
// games, each cut at a random length (60–400 moves) as people stop:
//   assisted — every move the hard computer's, made 3–10 moves a second with jitter (a
//              program driving a browser);
//   human    — random-greedy play (the easy computer: greedy one ply, a random legal move one
//              time in four), with human-like thinking times (log-normal, median 450 ms).
// Prints each set's suspicion (min, median, max), the separation (AUC: how often an assisted
// game outranks a human one), and for a few thresholds the share of human games flagged (the
// false-positive rate) and of assisted games caught.
//
//   assist_bench [--games N] [--first-seed S]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string_view>
#include <vector>

#include "engine/bot.hpp"
#include "engine/game.hpp"
#include "server/rules/assist_signals.hpp"

namespace {

using namespace tilerace;
using engine::BotStrength;

// One game of the given style, as the store would record it.
server::GameRecord play(bool assisted, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  engine::GameConfig config;
  config.seed = seed;
  engine::Game game(config, false);
  engine::Bot bot;
  const int length = std::uniform_int_distribution<int>(60, 400)(rng);
  std::uniform_real_distribution<double> machine_gap(100.0, 333.0);  // 3–10 moves a second
  std::lognormal_distribution<double> human_gap(std::log(450.0), 0.6);
  server::GameRecord record{.id = std::to_string(seed), .player_id = "p", .config = config};
  double at = 0;
  while (game.state() == engine::GameState::playing && game.moves() < length) {
    const auto move = bot.choose(game, assisted ? BotStrength::hard : BotStrength::easy,
                                 seed + static_cast<std::uint64_t>(game.moves()));
    if (!move || !game.move(*move).changed) break;
    at += assisted ? machine_gap(rng) : human_gap(rng);
    record.times.push_back(static_cast<std::int32_t>(at));
  }
  record.moves = game.history();
  return record;
}

std::vector<double> suspicions(bool assisted, int games, std::uint64_t first_seed) {
  engine::Bot judge;
  std::vector<double> out;
  for (int i = 0; i < games; ++i) {
    const auto g = play(assisted, first_seed + static_cast<std::uint64_t>(i));
    out.push_back(server::assist_signals(g, judge).suspicion);
  }
  std::sort(out.begin(), out.end());
  return out;
}

double share_at_least(const std::vector<double>& v, double threshold) {
  const auto n = std::count_if(v.begin(), v.end(), [&](double s) { return s >= threshold; });
  return 100.0 * static_cast<double>(n) / static_cast<double>(v.size());
}

}  // namespace

int main(int argc, char** argv) {
  int games = 60;
  std::uint64_t first_seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--games") games = std::max(2, std::atoi(argv[i + 1]));
    if (flag == "--first-seed") first_seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const auto assisted = suspicions(true, games, first_seed);
  const auto human = suspicions(false, games, first_seed + 1'000'000);
  auto row = [](const char* name, const std::vector<double>& v) {
    std::printf("%-9s %6zu %8.1f %8.1f %8.1f\n", name, v.size(), v.front(), v[v.size() / 2],
                v.back());
  };
  std::printf("%-9s %6s %8s %8s %8s\n", "games", "n", "min", "median", "max");
  row("assisted", assisted);
  row("human", human);
  double wins = 0;
  for (double a : assisted) {
    for (double h : human) wins += a > h ? 1.0 : a == h ? 0.5 : 0.0;
  }
  std::printf("separation (AUC): %.3f\n",
              wins / static_cast<double>(assisted.size() * human.size()));
  std::printf("%-10s %22s %18s\n", "threshold", "human flagged (FP %)", "assisted caught %");
  for (double t : {50.0, 60.0, 70.0, 80.0}) {
    std::printf("%-10.0f %22.1f %18.1f\n", t, share_at_least(human, t),
                share_at_least(assisted, t));
  }
}
