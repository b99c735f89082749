#pragma once
// Expectimax over the 4×4 bitboard: the player's moves are max nodes, the spawn after each is
// a chance node over every empty cell and both tiles (2 with probability 0.9, 4 with 0.1).
// Leaves are scored by board_eval.hpp. Branches whose probability falls below a threshold
// are cut, and a transposition table remembers boards already scored at a depth. Pure and
// single-threaded: one Expectimax per thread; the same board always gets the same answer.
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/bitboard.hpp"

namespace tilerace::engine::bitboard {

class Expectimax {
 public:
  Expectimax();

  // The move with the best expected score looking `depth` moves ahead (depth >= 1), or
  // nullopt when no move changes board. nodes() then counts the boards it scored.
  std::optional<Direction> best_move(Board board, int depth);

  // The depth the "full search" uses for board: more distinct tiles, deeper (3 … 5).
  static int adaptive_depth(Board board) noexcept;

  std::uint64_t nodes() const noexcept { return nodes_; }

 private:
  struct Entry {
    Board board = 0;
    float value = 0;
    std::uint8_t depth = 0;
    std::uint32_t generation = 0;  // entries of earlier searches are free
  };

  float max_node(Board board, int depth, float probability);
  float chance_node(Board board, int depth, float probability);

  std::vector<Entry> table_;
  std::uint32_t generation_ = 0;
  std::uint64_t nodes_ = 0;
};

}  // namespace tilerace::engine::bitboard
