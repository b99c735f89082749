#pragma once
// The N×N board of the 2048 modes and the one slide-and-merge rule, written once.
// A cell holds 0 (empty), a tile exponent 1..62 (value 2^e), or kObstacle.
#include <array>
#include <cstdint>

#include "engine/types.hpp"

namespace tilerace::engine {

inline constexpr std::uint8_t kEmpty = 0;
inline constexpr std::uint8_t kObstacle = 0xFF;

struct Grid {
  int size = 4;
  std::array<std::uint8_t, kMaxSize * kMaxSize> cells{};

  std::uint8_t& at(int row, int col) noexcept { return cells[row * size + col]; }
  std::uint8_t at(int row, int col) const noexcept { return cells[row * size + col]; }
  Cell cell_of(int index) const noexcept { return {index / size, index % size}; }
  int count() const noexcept { return size * size; }
  friend bool operator==(const Grid&, const Grid&) = default;
};

// The wire value of a cell: 0, 2^e, or -1 for an obstacle.
constexpr std::int64_t cell_value(std::uint8_t cell) noexcept {
  return cell == kObstacle ? kObstacleValue : cell == kEmpty ? 0 : std::int64_t{1} << cell;
}

// How obstacles behave when a line slides.
enum class ObstacleRule : std::uint8_t {
  fixed,   // stays put and splits its line into independent segments
  moving,  // slides like a tile but never merges
};

struct SlideResult {
  bool changed = false;
  std::int64_t gained = 0;
  std::uint8_t top = 0;  // the largest exponent a merge made (0: no merge)
  // For each cell index before the slide that held a tile or obstacle: its index after.
  std::array<std::int8_t, kMaxSize * kMaxSize> dest{};
};

// Slides every line of grid toward direction d's wall, merging each tile at most once (of
// three equal tiles the two nearest the wall merge). Appends one Motion per tile that moved
// to motions when it is not null. Never spawns.
void slide(Grid& grid, Direction d, ObstacleRule rule, SlideResult& result,
           std::vector<Motion>* motions);

// True when some direction would change grid: a tile or obstacle (of the given rule) next to
// an empty cell, or two equal tiles side by side.
bool can_move(const Grid& grid, ObstacleRule rule) noexcept;

// Number of empty cells, and the index of the k-th empty cell in row-major order.
int count_empty(const Grid& grid) noexcept;
int nth_empty(const Grid& grid, int k) noexcept;

}  // namespace tilerace::engine
