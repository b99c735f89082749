#pragma once
// The 4×4 classic board in 64 bits, for search (the computer opponent), not for play: one
// nibble per cell holding the tile's exponent (0: empty), row r in bits 16r..16r+15, column c
// in that row's nibble c. Slides follow grid.hpp's rule exactly (each tile merges at most
// once; of three equal tiles the two nearest the wall merge), through 65,536-entry tables:
// rows for left and right, columns (read from the transpose) for up and down. Tiles go up to
// 2^15 (32,768): two 32,768 tiles do not merge here, the one place where it differs from Grid
// (whose cells go to 2^62). step() plays whole moves, spawns included, as TileGame does.
#include <array>
#include <cstdint>

#include "engine/grid.hpp"
#include "engine/splitmix64.hpp"
#include "engine/types.hpp"

namespace tilerace::engine::bitboard {

using Board = std::uint64_t;

inline constexpr int kMaxExponent = 15;

namespace detail {

// What a slide makes of each of the 65,536 lines, built once at load time (bitboard.cpp).
struct Tables {
  Tables();
  std::array<std::uint16_t, 65536> left{};
  std::array<std::uint16_t, 65536> right{};
  // A quarter of the points (every merge makes at least 4; the most a row makes, 2·2^15,
  // fits in 16 bits this way): the same for both directions.
  std::array<std::uint16_t, 65536> quarter_gained{};
  // The slides of a column, indexed by the column read as a row (top cell first), giving
  // the column spread back into a board (cell r in nibble 4r of 16r).
  std::array<std::uint64_t, 65536> up{};
  std::array<std::uint64_t, 65536> down{};
};
extern const Tables kTables;

}  // namespace detail

// Rows become columns: the cell (r, c) goes to (c, r).
inline Board transpose(Board x) noexcept {
  // Swap the off-diagonal 2×2 blocks of nibbles, then the off-diagonal nibbles in each block.
  const Board a1 = x & 0xF0F00F0FF0F00F0FULL;
  const Board a2 = x & 0x0000F0F00000F0F0ULL;
  const Board a3 = x & 0x0F0F00000F0F0000ULL;
  const Board a = a1 | (a2 << 12) | (a3 >> 12);
  const Board b1 = a & 0xFF00FF0000FF00FFULL;
  const Board b2 = a & 0x00FF00FF00000000ULL;
  const Board b3 = a & 0x00000000FF00FF00ULL;
  return b1 | (b2 >> 24) | (b3 << 24);
}

// Requires grid.size == 4, no obstacle, and every exponent <= kMaxExponent.
Board from_grid(const Grid& grid) noexcept;
Grid to_grid(Board board) noexcept;

struct Slid {
  Board board;
  std::int64_t gained;  // the sum of the merged tiles' values, as SlideResult::gained
};

// Slides board toward d's wall; board unchanged means the move is not allowed.
Slid slide(Board board, Direction d) noexcept;

// The same board as slide(board, d).board, without counting the points: a table lookup a
// line, inline (the search's inner loop).
inline Board slide_board(Board board, Direction d) noexcept {
  const detail::Tables& t = detail::kTables;
  const auto rows = [board](const std::array<std::uint16_t, 65536>& table) {
    return Board{table[board & 0xFFFF]} | Board{table[(board >> 16) & 0xFFFF]} << 16 |
           Board{table[(board >> 32) & 0xFFFF]} << 32 | Board{table[board >> 48]} << 48;
  };
  const auto columns = [board](const std::array<std::uint64_t, 65536>& table) {
    const Board c = transpose(board);
    return table[c & 0xFFFF] | table[(c >> 16) & 0xFFFF] << 4 | table[(c >> 32) & 0xFFFF] << 8 |
           table[c >> 48] << 12;
  };
  switch (d) {
    case Direction::left: return rows(t.left);
    case Direction::right: return rows(t.right);
    case Direction::up: return columns(t.up);
    case Direction::down: return columns(t.down);
  }
  return board;
}

// True when some direction changes board.
bool can_move(Board board) noexcept;

int count_empty(Board board) noexcept;

struct Stepped {
  Board board;
  std::int64_t gained;
  bool changed;  // false: d moved nothing, and nothing spawned
  bool over;     // no move is left on board
};

// One whole move of the game: slide toward d; when that changed the board, a tile spawns
// exactly as TileGame's does (from rng: the k-th empty cell in row-major order, then a 4 one
// time in ten, else a 2); then whether any move is left.
Stepped step(Board board, Direction d, SplitMix64& rng) noexcept;

// A tile spawned on board as TileGame does it. Requires an empty cell.
Board spawn(Board board, SplitMix64& rng) noexcept;

}  // namespace tilerace::engine::bitboard
