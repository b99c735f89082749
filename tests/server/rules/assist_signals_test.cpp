// The signals of computer-assisted play from a recorded game: pace and spread from the move
// times, the match rate against expectimax on classic 4×4, and the suspicion score.
#include "server/rules/assist_signals.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

// A classic 4×4 game of n moves, each expectimax's (medium), with the given gap between moves.
GameRecord computer_game(int n, const std::vector<std::int32_t>& gaps) {
  GameRecord g{.id = "g", .player_id = "p", .config = {engine::Mode::classic, 4, 2048, 7}};
  engine::Game game(g.config, false);
  engine::Bot bot;
  std::int32_t at = 0;
  for (int i = 0; i < n; ++i) {
    const auto d = bot.choose(game, engine::BotStrength::medium, 0);
    if (!d || !game.move(*d).changed) break;
    at += gaps[static_cast<std::size_t>(i) % gaps.size()];
    g.times.push_back(at);
  }
  g.moves = game.history();
  return g;
}

TEST(AssistSignals, PaceAndSpreadComeFromTheMoveTimes) {
  engine::Bot judge;
  const SignalRecord metronome = assist_signals(computer_game(40, {250}), judge);
  EXPECT_DOUBLE_EQ(metronome.moves_per_second, 4.0);
  EXPECT_DOUBLE_EQ(metronome.spread, 0.0);
  // Expectimax's own moves match it every time: the highest suspicion there is.
  ASSERT_TRUE(metronome.match_rate.has_value());
  EXPECT_DOUBLE_EQ(*metronome.match_rate, 1.0);
  EXPECT_EQ(metronome.sampled, 40);
  EXPECT_DOUBLE_EQ(metronome.suspicion, 100.0);
  // Irregular gaps (100 … 900 ms): a wide spread, less steadiness.
  const SignalRecord irregular = assist_signals(computer_game(40, {100, 900, 300, 500}), judge);
  EXPECT_GT(irregular.spread, 1.0);
  EXPECT_DOUBLE_EQ(irregular.suspicion, 75.0);
}

TEST(AssistSignals, WithoutTimesOrOffClassicFourByFourOnlyOneSignalCounts) {
  engine::Bot judge;
  GameRecord untimed = computer_game(30, {200});
  untimed.times.clear();
  const SignalRecord a = assist_signals(untimed, judge);
  EXPECT_EQ(a.moves_per_second, 0);
  EXPECT_DOUBLE_EQ(a.suspicion, 100.0 * *a.match_rate);
  GameRecord five = untimed;
  five.config.size = 5;
  five.times = std::vector<std::int32_t>(five.moves.size(), 0);
  for (std::size_t i = 0; i < five.times.size(); ++i)
    five.times[i] = static_cast<std::int32_t>(i) * 100;
  const SignalRecord b = assist_signals(five, judge);
  EXPECT_FALSE(b.match_rate.has_value()) << "the computer plays classic 4×4 only";
  EXPECT_EQ(b.sampled, 0);
  EXPECT_DOUBLE_EQ(b.suspicion, 25.0);  // a metronome, and nothing else known
}

TEST(AssistSignals, ALongGameIsSampledEvenly) {
  engine::Bot judge;
  const SignalRecord s = assist_signals(computer_game(400, {150, 250}), judge);
  EXPECT_LE(s.sampled, kMaxSampledMoves);
  EXPECT_GE(s.sampled, kMaxSampledMoves / 2);
}

}  // namespace
}  // namespace tilerace::server
