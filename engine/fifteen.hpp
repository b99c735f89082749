#pragma once
// The Fifteen sliding puzzle on 3×3 … 6×6: tiles 1..n²-1 and a blank, a seeded shuffle that is
// always solvable and never already solved, single moves, multi-tile slides and undo.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/grid.hpp"
#include "engine/splitmix64.hpp"
#include "engine/types.hpp"

namespace tilerace::engine {

class Fifteen {
 public:
  // Shuffles tiles 1..n²-1 over all cells but the last (Fisher–Yates, draws from SplitMix64),
  // fixes odd parity by swapping the first two tiles, and reshuffles a solved result.
  // Requires valid_config(config) with mode fifteen. Without undo (races) the moves undo
  // would take back are not kept.
  explicit Fifteen(const GameConfig& config, bool undo = true);

  // Moves the tile beside the blank into it, in direction d ("left" moves the tile right of
  // the blank to the left). Fills out (cleared first); no tile there means changed = false.
  void move(Direction d, MoveOutcome& out);

  // Moves every tile between cell and the blank one step toward the blank when cell shares
  // the blank's row or column; otherwise out.changed is false.
  void slide(Cell cell, MoveOutcome& out);

  // Reverts the last single-tile move. Returns false when there is none, the game is not
  // playing, or it keeps no undo history.
  bool undo();

  bool end(GameState final_state);

  const GameConfig& config() const noexcept { return config_; }
  const Grid& grid() const noexcept { return grid_; }
  std::int64_t score() const noexcept { return moves_; }
  int moves() const noexcept { return moves_; }
  GameState state() const noexcept { return state_; }
  bool won() const noexcept { return state_ == GameState::solved; }
  int undos() const noexcept { return undos_; }
  int tiles_home() const noexcept;
  const std::string& history() const noexcept { return history_; }

 private:
  // One single-tile move toward the blank; appends its motion to out when not null.
  bool step(Direction d, MoveOutcome* out);
  bool solved() const noexcept { return tiles_home() == grid_.count() - 1; }
  void finish(Direction d, int tiles, MoveOutcome& out);

  GameConfig config_;
  Grid grid_;
  int blank_;
  int moves_ = 0;
  int undos_ = 0;
  GameState state_ = GameState::playing;
  bool undo_;
  std::vector<Direction> done_;  // the single-tile moves undo can take back
  std::string history_;
};

// Number of inversions among the tiles (blank ignored) in row-major order.
int inversions(const Grid& grid) noexcept;

}  // namespace tilerace::engine
