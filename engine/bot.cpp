#include "engine/bot.hpp"

#include <array>
#include <bit>

#include "engine/board_eval.hpp"
#include "engine/splitmix64.hpp"

namespace tilerace::engine {

namespace {

constexpr std::array<Direction, 4> kDirections{Direction::up, Direction::down, Direction::left,
                                               Direction::right};
constexpr int kMediumDepth = 2;

}  // namespace

std::optional<Direction> Bot::choose(const Game& game, BotStrength strength, std::uint64_t seed) {
  Grid grid;
  grid.size = game.size();
  bool fits = grid.size == 4 && game.config().mode == Mode::classic;
  for (int i = 0; i < grid.size * grid.size; ++i) {
    const std::int64_t v = game.cell(i / grid.size, i % grid.size);
    grid.cells[i] = v < 0 ? kObstacle
                    : v > 0
                        ? static_cast<std::uint8_t>(std::countr_zero(static_cast<std::uint64_t>(v)))
                        : kEmpty;
    fits = fits && grid.cells[i] <= bitboard::kMaxExponent;
  }
  if (fits) return choose(bitboard::from_grid(grid), strength, seed);
  nodes_ = 0;
  for (const Direction d : kDirections) {
    Grid g = grid;
    SlideResult result;
    slide(g, d, ObstacleRule::fixed, result, nullptr);
    if (result.changed) return d;
  }
  return std::nullopt;
}

std::optional<Direction> Bot::choose(bitboard::Board board, BotStrength strength,
                                     std::uint64_t seed) {
  nodes_ = 0;
  if (strength == BotStrength::easy) {
    SplitMix64 rng(seed ^ board);
    std::array<Direction, 4> legal{};
    int n = 0;
    std::optional<Direction> best;
    float best_value = 0;
    for (const Direction d : kDirections) {
      const bitboard::Board after = bitboard::slide_board(board, d);
      if (after == board) continue;
      legal[n++] = d;
      const float value = bitboard::evaluate(after);
      ++nodes_;
      if (!best || value > best_value) {
        best = d;
        best_value = value;
      }
    }
    if (n > 0 && rng.below(4) == 0) return legal[rng.below(static_cast<std::uint64_t>(n))];
    return best;
  }
  const int depth =
      strength == BotStrength::medium ? kMediumDepth : bitboard::Expectimax::adaptive_depth(board);
  const auto move = search_.best_move(board, depth);
  nodes_ = search_.nodes();
  return move;
}

}  // namespace tilerace::engine
