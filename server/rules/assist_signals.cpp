#include "server/rules/assist_signals.hpp"

#include <algorithm>
#include <vector>

namespace tilerace::server {

namespace {

// The q-quantile (0–1) of sorted values, by nearest rank.
double quantile(const std::vector<double>& sorted, double q) {
  const auto i = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

SignalRecord assist_signals(const GameRecord& game, engine::Bot& bot) {
  SignalRecord s{.game_id = game.id,
                 .player_id = game.player_id,
                 .mode = game.config.mode,
                 .size = game.config.size,
                 .score = game.score};
  const std::string& moves = game.moves;
  if (game.times.size() == moves.size() && moves.size() >= 3) {
    std::vector<double> gaps;
    for (std::size_t i = 1; i < game.times.size(); ++i) {
      gaps.push_back(std::max(1.0, static_cast<double>(game.times[i] - game.times[i - 1])));
    }
    std::sort(gaps.begin(), gaps.end());
    const double median = quantile(gaps, 0.5);
    s.moves_per_second = 1000.0 / median;
    s.spread = (quantile(gaps, 0.75) - quantile(gaps, 0.25)) / median;
  }
  const engine::GameConfig& c = game.config;
  if (c.mode == engine::Mode::classic && c.size == 4 && moves.find('Z') == std::string::npos) {
    const std::size_t every =
        std::max<std::size_t>(1, (moves.size() + kMaxSampledMoves - 1) / kMaxSampledMoves);
    engine::Game replay(c, /*undo=*/false);
    int matched = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const auto played = engine::direction_from_letter(moves[i]);
      if (!played) break;
      if (i % every == 0) {
        const auto best = bot.choose(replay, engine::BotStrength::medium, 0);
        ++s.sampled;
        matched += best == played;
      }
      if (!replay.move(*played).changed) break;  // not this game's letters after all
    }
    if (s.sampled > 0) s.match_rate = static_cast<double>(matched) / s.sampled;
  }
  s.suspicion = suspicion_of(s);
  return s;
}

double suspicion_of(const SignalRecord& s) {
  const bool timed = s.moves_per_second > 0;
  const double steadiness = 1.0 - std::min(1.0, s.spread);
  if (s.match_rate && timed) return 75.0 * *s.match_rate + 25.0 * steadiness;
  if (s.match_rate) return 100.0 * *s.match_rate;
  return timed ? 25.0 * steadiness : 0.0;
}

}  // namespace tilerace::server
