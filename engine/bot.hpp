#pragma once
// The computer opponent's choice of move on a 4×4 classic board, at three strengths:
//   easy   — one ply, greedy on board_eval.hpp, but a random legal move one time in four;
//   medium — expectimax two moves deep;
//   hard   — expectimax as deep as the board calls for (Expectimax::adaptive_depth).
// Pure: the same board, strength and seed always give the same move (the seed only drives
// easy's randomness). Not thread-safe: one Bot per thread.
#include <cstdint>
#include <optional>

#include "engine/expectimax.hpp"
#include "engine/game.hpp"

namespace tilerace::engine {

class Bot {
 public:
  // The move to make in game (4×4 classic), or nullopt when no move changes its board.
  // Tiles above the bitboard's 2^15 are played by the first legal move.
  std::optional<Direction> choose(const Game& game, BotStrength strength, std::uint64_t seed);

  // The same on a bitboard.
  std::optional<Direction> choose(bitboard::Board board, BotStrength strength, std::uint64_t seed);

  // Boards scored by the last choice (a measure of its work).
  std::uint64_t nodes() const noexcept { return nodes_; }

 private:
  bitboard::Expectimax search_;
  std::uint64_t nodes_ = 0;
};

}  // namespace tilerace::engine
