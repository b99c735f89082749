#include "engine/bitboard.hpp"

#include <array>
#include <bit>

namespace tilerace::engine::bitboard {

namespace detail {

namespace {

// A row's four nibbles as a column: nibble i goes to bits 16i..16i+3.
Board spread(std::uint16_t row) {
  const Board r = row;
  return (r | (r << 12) | (r << 24) | (r << 36)) & 0x000F000F000F000FULL;
}

std::uint16_t pack(const std::array<std::uint8_t, 4>& cells) {
  std::uint16_t row = 0;
  for (int c = 0; c < 4; ++c) row |= static_cast<std::uint16_t>(cells[c] << (4 * c));
  return row;
}

// The wall is at index 0: tiles close up toward it, and equal neighbours merge once, the
// pair nearest the wall first.
std::pair<std::array<std::uint8_t, 4>, std::uint32_t> slide_toward_first(
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

}  // namespace

Tables::Tables() {
  for (std::uint32_t row = 0; row < 65536; ++row) {
    std::array<std::uint8_t, 4> cells{};
    for (int c = 0; c < 4; ++c) cells[c] = (row >> (4 * c)) & 0xF;
    const auto [to_left, gain] = slide_toward_first(cells);
    left[row] = pack(to_left);
    quarter_gained[row] = static_cast<std::uint16_t>(gain / 4);
    const std::array<std::uint8_t, 4> reversed{cells[3], cells[2], cells[1], cells[0]};
    const auto to_right = slide_toward_first(reversed).first;
    right[row] = pack({to_right[3], to_right[2], to_right[1], to_right[0]});
    up[row] = spread(left[row]);
    down[row] = spread(right[row]);
  }
}

// Built at load time rather than on first use, so that a slide pays no guard check. No
// other static initializer slides a board.
const Tables kTables;

}  // namespace detail

namespace {

using detail::kTables;

// The points a slide of each of the four lines (rows of `lines`) toward either end makes.
std::int64_t points(Board lines) noexcept {
  const auto& quarter = kTables.quarter_gained;
  return 4 * (std::int64_t{quarter[lines & 0xFFFF]} + quarter[(lines >> 16) & 0xFFFF] +
              quarter[(lines >> 32) & 0xFFFF] + quarter[lines >> 48]);
}

__extension__ using Wide = unsigned __int128;

// x % n for n in 1..16, exactly as SplitMix64::below(n) draws it, without a division:
// Lemire's fastmod (M = ceil(2^128 / n); x % n is the high half of (M·x mod 2^128)·n).
struct Reciprocals {
  std::array<Wide, 17> m{};
  constexpr Reciprocals() {
    for (unsigned n = 1; n <= 16; ++n) m[n] = ~Wide{0} / n + 1;
  }
};
constexpr Reciprocals kReciprocals;

std::uint64_t below_16(std::uint64_t x, int n) noexcept {
  const Wide low = kReciprocals.m[static_cast<std::size_t>(n)] * x;
  const auto d = static_cast<std::uint64_t>(n);
  const Wide bottom = (static_cast<Wide>(static_cast<std::uint64_t>(low)) * d) >> 64;
  const Wide top = (low >> 64) * d;
  return static_cast<std::uint64_t>((bottom + top) >> 64);
}

// How many bits a mask of cells has (bits only at 4i), without a popcount instruction.
int cells_in(Board m) noexcept {
  return static_cast<int>((((m >> 4) * 0x1111111111111111ULL) >> 60) + (m & 1));
}

// The bit offset (4i) of the k-th cell of mask m (k < cells_in(m)), by halving: no loop.
int kth_cell(Board m, int k) noexcept {
  int offset = 0;
  for (const int width : {32, 16, 8, 4}) {
    const Board low = m & ((Board{1} << width) - 1);
    const int n = cells_in(low);
    const bool high = k >= n;
    k -= high ? n : 0;
    m = high ? m >> width : low;
    offset += high ? width : 0;
  }
  return offset;
}

// One bit per empty cell: bit 4i set when cell i is empty.
Board empty_cells(Board board) noexcept {
  board |= board >> 2;
  board |= board >> 1;
  return ~board & 0x1111111111111111ULL;
}

}  // namespace

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
  const bool rows = d == Direction::left || d == Direction::right;
  return {slide_board(board, d), points(rows ? board : transpose(board))};
}

bool can_move(Board board) noexcept {
  if (empty_cells(board) != 0) return true;  // some tile can slide into it
  return slide_board(board, Direction::left) != board || slide_board(board, Direction::up) != board;
}

int count_empty(Board board) noexcept { return cells_in(empty_cells(board)); }

Stepped step(Board board, Direction d, SplitMix64& rng) noexcept {
  const Slid slid = slide(board, d);
  if (slid.board == board) return {board, 0, false, !can_move(board)};
  const Board after = spawn(slid.board, rng);
  return {after, slid.gained, true, !can_move(after)};
}

Board spawn(Board board, SplitMix64& rng) noexcept {
  // The k-th empty cell in row-major order (cell i is nibble i), as TileGame::spawn_tile.
  const Board empty = empty_cells(board);
  const auto k = static_cast<int>(below_16(rng.next(), cells_in(empty)));
  const Board exponent = rng.below(10) == 0 ? 2 : 1;
  return board | (exponent << kth_cell(empty, k));
}

}  // namespace tilerace::engine::bitboard
