#include "engine/grid.hpp"

#include <algorithm>

namespace tilerace::engine {

namespace {

// Index of the k-th cell (k counted from the wall) of line `line` when sliding toward d.
int line_index(int size, Direction d, int line, int k) noexcept {
  switch (d) {
    case Direction::left: return line * size + k;
    case Direction::right: return line * size + (size - 1 - k);
    case Direction::up: return k * size + line;
    case Direction::down: return (size - 1 - k) * size + line;
  }
  return 0;
}

}  // namespace

void slide(Grid& grid, Direction d, ObstacleRule rule, SlideResult& result,
           std::vector<Motion>* motions) {
  const int n = grid.size;
  result.changed = false;
  result.gained = 0;
  result.top = 0;
  std::array<int, kMaxSize> index{};
  std::array<std::uint8_t, kMaxSize> in{};
  std::array<std::uint8_t, kMaxSize> out{};
  for (int line = 0; line < n; ++line) {
    for (int k = 0; k < n; ++k) {
      index[k] = line_index(n, d, line, k);
      in[k] = grid.cells[index[k]];
      out[k] = kEmpty;
    }
    int write = 0;
    int open = -1;  // position in out of a tile that may still absorb an equal one
    for (int k = 0; k < n; ++k) {
      const std::uint8_t v = in[k];
      if (v == kEmpty) continue;
      int to;
      bool merged = false;
      if (v == kObstacle) {
        to = rule == ObstacleRule::fixed ? k : write;
        out[to] = kObstacle;
        write = to + 1;
        open = -1;
      } else if (open >= 0 && out[open] == v) {
        to = open;
        merged = true;
        out[to] = static_cast<std::uint8_t>(v + 1);
        result.gained += std::int64_t{1} << (v + 1);
        result.top = std::max(result.top, out[to]);
        open = -1;
      } else {
        to = write++;
        out[to] = v;
        open = to;
      }
      result.dest[index[k]] = static_cast<std::int8_t>(index[to]);
      if (to != k || merged) {
        result.changed = true;
        if (motions != nullptr) {
          motions->push_back(
              {grid.cell_of(index[k]), grid.cell_of(index[to]), cell_value(v), merged});
        }
      }
    }
    for (int k = 0; k < n; ++k) grid.cells[index[k]] = out[k];
  }
}

bool can_move(const Grid& grid, ObstacleRule rule) noexcept {
  const int n = grid.size;
  auto movable = [rule](std::uint8_t v) {
    return v != kEmpty && (v != kObstacle || rule == ObstacleRule::moving);
  };
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const std::uint8_t v = grid.at(r, c);
      if (c + 1 < n) {
        const std::uint8_t right = grid.at(r, c + 1);
        if ((v == kEmpty && movable(right)) || (right == kEmpty && movable(v))) return true;
        if (v != kEmpty && v != kObstacle && v == right) return true;
      }
      if (r + 1 < n) {
        const std::uint8_t below = grid.at(r + 1, c);
        if ((v == kEmpty && movable(below)) || (below == kEmpty && movable(v))) return true;
        if (v != kEmpty && v != kObstacle && v == below) return true;
      }
    }
  }
  return false;
}

int count_empty(const Grid& grid) noexcept {
  int empty = 0;
  for (int i = 0; i < grid.count(); ++i) empty += grid.cells[i] == kEmpty;
  return empty;
}

int nth_empty(const Grid& grid, int k) noexcept {
  for (int i = 0; i < grid.count(); ++i) {
    if (grid.cells[i] == kEmpty && k-- == 0) return i;
  }
  return -1;
}

}  // namespace tilerace::engine
