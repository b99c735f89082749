#pragma once
// The 4×4 classic board in 64 bits, for search (the computer opponent), not for play: one
// nibble per cell holding the tile's exponent (0: empty), row r in bits 16r..16r+15, column c
// in that row's nibble c. Slides follow grid.hpp's rule exactly (each tile merges at most
// once; of three equal tiles the two nearest the wall merge), through 65,536-entry row tables
// for left and right and a transpose for up and down. Tiles up to 2^15 (32,768): two 32,768
// tiles do not merge here, the one place where it differs from Grid (whose cells go to 2^62).
#include <cstdint>

#include "engine/grid.hpp"
#include "engine/types.hpp"

namespace tilerace::engine::bitboard {

using Board = std::uint64_t;

inline constexpr int kMaxExponent = 15;

// Requires grid.size == 4, no obstacle, and every exponent <= kMaxExponent.
Board from_grid(const Grid& grid) noexcept;
Grid to_grid(Board board) noexcept;

struct Slid {
  Board board;
  std::int64_t gained;  // the sum of the merged tiles' values, as SlideResult::gained
};

// Slides board toward d's wall; board unchanged means the move is not allowed.
Slid slide(Board board, Direction d) noexcept;

// True when some direction changes board.
bool can_move(Board board) noexcept;

int count_empty(Board board) noexcept;

// Rows become columns: the cell (r, c) goes to (c, r).
Board transpose(Board board) noexcept;

}  // namespace tilerace::engine::bitboard
