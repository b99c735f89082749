// The computer opponent's strength and speed: seeded 4×4 classic games played to the end by
// a Bot, through the server's own engine (engine::Game), one game per thread at a time.
// Prints, per strength, the distribution of the largest tile, how often 2048 and 4096 were
// reached, and the thinking time per move (mean, median, 99th percentile).
//
//   bot_bench [--strength easy|medium|hard] [--games N] [--first-seed S] [--jobs J]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/bot.hpp"
#include "engine/game.hpp"

namespace {

using namespace tilerace::engine;
using Clock = std::chrono::steady_clock;

struct GameResult {
  std::int64_t max_tile = 0;
  int moves = 0;
  std::vector<float> think_us;  // per move
};

GameResult play(BotStrength strength, std::uint64_t seed) {
  GameConfig config;
  config.seed = seed;
  Game game(config, false);
  Bot bot;
  GameResult result;
  while (game.state() == GameState::playing) {
    const auto start = Clock::now();
    const auto move = bot.choose(game, strength, seed + static_cast<std::uint64_t>(game.moves()));
    result.think_us.push_back(
        std::chrono::duration<float, std::micro>(Clock::now() - start).count());
    if (!move) break;
    if (!game.move(*move).changed) {
      std::fprintf(stderr, "illegal move by the bot (seed %llu)\n",
                   static_cast<unsigned long long>(seed));
      std::exit(1);
    }
  }
  result.max_tile = game.max_tile();
  result.moves = game.moves();
  return result;
}

void report(BotStrength strength, int games, std::uint64_t first_seed, int jobs) {
  std::vector<GameResult> results(static_cast<std::size_t>(games));
  std::atomic<int> next{0};
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) {
    threads.emplace_back([&] {
      for (int i; (i = next++) < games;) {
        results[static_cast<std::size_t>(i)] =
            play(strength, first_seed + static_cast<std::uint64_t>(i));
      }
    });
  }
  for (auto& t : threads) t.join();

  std::map<std::int64_t, int> tiles;
  std::vector<float> think;
  long moves = 0;
  int reached_2048 = 0;
  int reached_4096 = 0;
  for (const auto& r : results) {
    ++tiles[r.max_tile];
    think.insert(think.end(), r.think_us.begin(), r.think_us.end());
    moves += r.moves;
    reached_2048 += r.max_tile >= 2048;
    reached_4096 += r.max_tile >= 4096;
  }
  std::sort(think.begin(), think.end());
  double sum = 0;
  for (const float t : think) sum += t;
  const auto at = [&](double q) {
    return think[static_cast<std::size_t>(q * static_cast<double>(think.size() - 1))];
  };
  std::printf(
      "%-7s %5d games  %6.1f%% reach 2048  %6.1f%% reach 4096  %7.0f moves/game  "
      "think ms: mean %.3f  median %.3f  p99 %.3f  max %.3f\n",
      std::string(to_string(strength)).c_str(), games, 100.0 * reached_2048 / games,
      100.0 * reached_4096 / games, static_cast<double>(moves) / games,
      sum / static_cast<double>(think.size()) / 1000.0, at(0.5) / 1000.0, at(0.99) / 1000.0,
      think.back() / 1000.0);
  std::printf("        largest tile:");
  for (const auto& [tile, count] : tiles)
    std::printf("  %lld ×%d", static_cast<long long>(tile), count);
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<BotStrength> strengths{BotStrength::easy, BotStrength::medium, BotStrength::hard};
  int games = 200;
  std::uint64_t first_seed = 1;
  int jobs = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--strength") {
      const auto s = bot_strength_from_string(value);
      if (!s) return std::fprintf(stderr, "unknown strength %s\n", value), 2;
      strengths = {*s};
    } else if (flag == "--games") {
      games = std::max(1, std::atoi(value));
    } else if (flag == "--first-seed") {
      first_seed = std::strtoull(value, nullptr, 10);
    } else if (flag == "--jobs") {
      jobs = std::max(1, std::atoi(value));
    } else {
      return std::fprintf(
                 stderr,
                 "usage: bot_bench [--strength S] [--games N] [--first-seed S] [--jobs J]\n"),
             2;
    }
  }
  for (const auto s : strengths) report(s, games, first_seed, jobs);
}
