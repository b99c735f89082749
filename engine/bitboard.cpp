#include "engine/bitboard.hpp"

#include <array>

namespace tilerace::engine::bitboard {

namespace {

// What sliding one row toward its nibble 0 (left) or nibble 3 (right) makes of it.
struct RowTables {
  std::array<std::uint16_t, 65536> left{};
  std::array<std::uint16_t, 65536> right{};
  std::array<std::uint32_t, 65536> gained{};  // the same for both directions

  RowTables() {
    for (std::uint32_t row = 0; row < 65536; ++row) {
      std::array<std::uint8_t, 4> cells{};
      for (int c = 0; c < 4; ++c) cells[c] = (row >> (4 * c)) & 0xF;
      auto [to_left, gain] = slide_toward_first(cells);
      left[row] = pack(to_left);
      gained[row] = gain;
      std::array<std::uint8_t, 4> reversed{cells[3], cells[2], cells[1], cells[0]};
      auto [to_right, same_gain] = slide_toward_first(reversed);
      right[row] = pack({to_right[3], to_right[2], to_right[1], to_right[0]});
    }
  }

  static std::uint16_t pack(const std::array<std::uint8_t, 4>& cells) {
    std::uint16_t row = 0;
    for (int c = 0; c < 4; ++c) row |= static_cast<std::uint16_t>(cells[c] << (4 * c));
    return row;
  }

  // The wall is at index 0: tiles close up toward it, and equal neighbours merge once,
  // the pair nearest the wall first.
  static std::pair<std::array<std::uint8_t, 4>, std::uint32_t> slide_toward_first(
      const std::array<std::uint8_t, 4>& cells) {
    std::array<std::uint8_t, 4> tiles{};
    int n = 0;
    for (const auto cell : cells) {
      if (cell != 0) tiles[n++] = cell;
    }
    std::array<std::uint8_t, 4> out{};
    std::uint32_t gain = 0;
    int k = 0;
    for (int i = 0; i < n; ++i) {
      if (i + 1 < n && tiles[i] == tiles[i + 1] && tiles[i] < kMaxExponent) {
        out[k++] = static_cast<std::uint8_t>(tiles[i] + 1);
        gain += 1u << (tiles[i] + 1);
        ++i;
      } else {
        out[k++] = tiles[i];
      }
    }
    return {out, gain};
  }
};

const RowTables& tables() {
  static const RowTables t;
  return t;
}

// Applies a row table to every row, summing the gains.
template <bool kLeft>
Slid slide_rows(Board board) noexcept {
  const RowTables& t = tables();
  Slid out{0, 0};
  for (int r = 0; r < 4; ++r) {
    const auto row = static_cast<std::uint16_t>(board >> (16 * r));
    out.board |= static_cast<Board>(kLeft ? t.left[row] : t.right[row]) << (16 * r);
    out.gained += t.gained[row];
  }
  return out;
}

}  // namespace

Board transpose(Board x) noexcept {
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

Board from_grid(const Grid& grid) noexcept {
  Board b = 0;
  for (int i = 0; i < 16; ++i) b |= static_cast<Board>(grid.cells[i] & 0xF) << (4 * i);
  return b;
}

Grid to_grid(Board board) noexcept {
  Grid g;
  g.size = 4;
  for (int i = 0; i < 16; ++i) g.cells[i] = static_cast<std::uint8_t>((board >> (4 * i)) & 0xF);
  return g;
}

Slid slide(Board board, Direction d) noexcept {
  switch (d) {
    case Direction::left: return slide_rows<true>(board);
    case Direction::right: return slide_rows<false>(board);
    case Direction::up: {
      Slid s = slide_rows<true>(transpose(board));
      s.board = transpose(s.board);
      return s;
    }
    case Direction::down: {
      Slid s = slide_rows<false>(transpose(board));
      s.board = transpose(s.board);
      return s;
    }
  }
  return {board, 0};
}

bool can_move(Board board) noexcept {
  for (const Direction d : {Direction::left, Direction::right, Direction::up, Direction::down}) {
    if (slide(board, d).board != board) return true;
  }
  return false;
}

int count_empty(Board board) noexcept {
  int n = 0;
  for (int i = 0; i < 16; ++i) n += ((board >> (4 * i)) & 0xF) == 0;
  return n;
}

}  // namespace tilerace::engine::bitboard
