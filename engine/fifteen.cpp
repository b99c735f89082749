#include "engine/fifteen.hpp"

#include <utility>

namespace tilerace::engine {

namespace {
Direction opposite(Direction d) noexcept {
  switch (d) {
    case Direction::up: return Direction::down;
    case Direction::down: return Direction::up;
    case Direction::left: return Direction::right;
    case Direction::right: return Direction::left;
  }
  return d;
}
}  // namespace

int inversions(const Grid& grid) noexcept {
  int count = 0;
  for (int i = 0; i < grid.count(); ++i) {
    for (int j = i + 1; j < grid.count(); ++j) {
      if (grid.cells[i] != 0 && grid.cells[j] != 0 && grid.cells[i] > grid.cells[j]) ++count;
    }
  }
  return count;
}

Fifteen::Fifteen(const GameConfig& config, bool undo) : config_(config), undo_(undo) {
  grid_.size = config.size;
  const int tiles = grid_.count() - 1;
  blank_ = tiles;
  SplitMix64 rng(config.seed);
  do {
    for (int i = 0; i < tiles; ++i) grid_.cells[i] = static_cast<std::uint8_t>(i + 1);
    for (int i = tiles - 1; i > 0; --i) {
      std::swap(grid_.cells[i], grid_.cells[rng.below(static_cast<std::uint64_t>(i) + 1)]);
    }
    if (inversions(grid_) % 2 != 0) std::swap(grid_.cells[0], grid_.cells[1]);
  } while (solved());
}

int Fifteen::tiles_home() const noexcept {
  int home = 0;
  for (int i = 0; i + 1 < grid_.count(); ++i) home += grid_.cells[i] == i + 1;
  return home;
}

bool Fifteen::step(Direction d, MoveOutcome* out) {
  const Cell blank = grid_.cell_of(blank_);
  const Cell step = delta(d);
  const Cell from{blank.row - step.row, blank.col - step.col};
  if (from.row < 0 || from.row >= grid_.size || from.col < 0 || from.col >= grid_.size) {
    return false;
  }
  const int index = from.row * grid_.size + from.col;
  if (out != nullptr) out->motions.push_back({from, blank, grid_.cells[index], false});
  grid_.cells[blank_] = grid_.cells[index];
  grid_.cells[index] = 0;
  blank_ = index;
  return true;
}

void Fifteen::finish(Direction d, int tiles, MoveOutcome& out) {
  if (tiles > 0) {
    out.changed = true;
    out.gained = tiles;
    moves_ += tiles;
    if (undo_) done_.insert(done_.end(), tiles, d);
    history_.append(tiles, to_letter(d));
    if (solved()) state_ = GameState::solved;
  }
  out.state = state_;
  out.won = won();
}

void Fifteen::move(Direction d, MoveOutcome& out) {
  out.clear();
  const int tiles = state_ == GameState::playing && step(d, &out) ? 1 : 0;
  finish(d, tiles, out);
}

void Fifteen::slide(Cell cell, MoveOutcome& out) {
  out.clear();
  const Cell blank = grid_.cell_of(blank_);
  int tiles = 0;
  Direction d = Direction::left;
  if (state_ == GameState::playing && cell.row >= 0 && cell.row < grid_.size && cell.col >= 0 &&
      cell.col < grid_.size && (cell.row == blank.row) != (cell.col == blank.col)) {
    if (cell.row == blank.row) {
      d = cell.col > blank.col ? Direction::left : Direction::right;
      tiles = cell.col > blank.col ? cell.col - blank.col : blank.col - cell.col;
    } else {
      d = cell.row > blank.row ? Direction::up : Direction::down;
      tiles = cell.row > blank.row ? cell.row - blank.row : blank.row - cell.row;
    }
    for (int i = 0; i < tiles; ++i) step(d, &out);
  }
  finish(d, tiles, out);
}

bool Fifteen::undo() {
  if (state_ != GameState::playing || done_.empty()) return false;
  step(opposite(done_.back()), nullptr);
  done_.pop_back();
  --moves_;
  ++undos_;
  history_.push_back('Z');
  return true;
}

bool Fifteen::end(GameState final_state) {
  if (state_ != GameState::playing) return false;
  state_ = final_state;
  return true;
}

}  // namespace tilerace::engine
