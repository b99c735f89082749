#include "engine/expectimax.hpp"

#include <algorithm>
#include <bit>

#include "engine/board_eval.hpp"

namespace tilerace::engine::bitboard {

namespace {

constexpr std::size_t kTableSize = std::size_t{1} << 18;  // entries; a power of two
constexpr float kProbabilityCut = 0.0001F;                // branches less likely are scored
constexpr float kLost = -1e9F;                            // a board with no move left
constexpr std::array<Direction, 4> kDirections{Direction::up, Direction::down, Direction::left,
                                               Direction::right};

std::size_t slot(Board board) noexcept {
  return static_cast<std::size_t>((board * 0x9E3779B97F4A7C15ULL) >> (64 - 18));
}

}  // namespace

Expectimax::Expectimax() : table_(kTableSize) {}

int Expectimax::adaptive_depth(Board board) noexcept {
  std::uint32_t seen = 0;
  for (int i = 0; i < 16; ++i) seen |= 1u << ((board >> (4 * i)) & 0xF);
  const int distinct = std::popcount(seen & ~1u);
  return std::clamp(distinct - 5, 3, 5);
}

std::optional<Direction> Expectimax::best_move(Board board, int depth) {
  ++generation_;
  nodes_ = 0;
  std::optional<Direction> best;
  float best_value = 0;
  for (const Direction d : kDirections) {
    const Board after = slide_board(board, d);
    if (after == board) continue;
    const float value = chance_node(after, depth - 1, 1.0F);
    if (!best || value > best_value) {
      best = d;
      best_value = value;
    }
  }
  return best;
}

float Expectimax::max_node(Board board, int depth, float probability) {
  float best = kLost;
  for (const Direction d : kDirections) {
    const Board after = slide_board(board, d);
    if (after != board) best = std::max(best, chance_node(after, depth - 1, probability));
  }
  return best;
}

float Expectimax::chance_node(Board board, int depth, float probability) {
  if (depth <= 0 || probability < kProbabilityCut) {
    ++nodes_;
    return evaluate(board);
  }
  Entry& entry = table_[slot(board)];
  if (entry.generation == generation_ && entry.board == board && entry.depth >= depth) {
    return entry.value;
  }
  const int empty = count_empty(board);
  const float each = probability / static_cast<float>(empty);
  float sum = 0;
  for (int i = 0; i < 16; ++i) {
    if (((board >> (4 * i)) & 0xF) != 0) continue;
    sum += 0.9F * max_node(board | (Board{1} << (4 * i)), depth, each * 0.9F) +
           0.1F * max_node(board | (Board{2} << (4 * i)), depth, each * 0.1F);
  }
  const float value = sum / static_cast<float>(empty);
  entry = {board, value, static_cast<std::uint8_t>(depth), generation_};
  return value;
}

}  // namespace tilerace::engine::bitboard
