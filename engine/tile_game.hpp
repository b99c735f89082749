#pragma once
// A game of one of the 2048 modes (classic, fixed-obstacle, moving-obstacle): the board, the
// seeded spawns, the obstacle rules and undo. Pure: no clock, no I/O, no exceptions for
// ordinary outcomes.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/grid.hpp"
#include "engine/splitmix64.hpp"
#include "engine/types.hpp"

namespace tilerace::engine {

inline constexpr int kObstacleLife = 5;        // board-changing moves a moving obstacle lives
inline constexpr int kMaxMovingObstacles = 2;  // never more at once
inline constexpr std::uint64_t kObstacleChancePercent = 30;
// Undo penalties draw from their own sequence, seeded with seed ^ this, never rewound by undo.
inline constexpr std::uint64_t kPenaltySeedMix = 0xD1B54A32D192ED03ULL;
// Live moves between two undo checkpoints (docs/performance.md: memory held per move).
inline constexpr int kCheckpointEvery = 256;

class TileGame {
 public:
  // Starts a game: places the fixed obstacle (fixed-obstacle mode), then spawns two tiles.
  // Requires valid_config(config) and a 2048 mode. Without undo (races) no undo history is
  // kept at all. checkpoint_every (≥ 1) spaces the undo checkpoints; it changes no result,
  // only memory against the work of an undo.
  explicit TileGame(const GameConfig& config, bool undo = true,
                    int checkpoint_every = kCheckpointEvery);

  // Applies one move and fills out (cleared first). On a finished game, or when nothing
  // would move, out.changed is false and nothing changes.
  void move(Direction d, MoveOutcome& out);

  // Reverts the last changing move (board, score, RNG, obstacles). Returns false when there
  // is none, the game is not playing, or it keeps no undo history. In moving-obstacle mode it
  // may add an obstacle. Costs up to checkpoint_every moves' work.
  bool undo();

  // Ends a playing game as resigned or forfeited; returns false if it was not playing.
  bool end(GameState final_state);

  const GameConfig& config() const noexcept { return config_; }
  const Grid& grid() const noexcept { return now_.grid; }
  std::int64_t score() const noexcept { return now_.score; }
  int moves() const noexcept { return now_.moves; }
  std::int64_t max_tile() const noexcept { return cell_value(now_.max_exponent); }
  GameState state() const noexcept { return now_.state; }
  bool won() const noexcept { return now_.won; }
  int undos() const noexcept { return undos_; }
  const std::string& history() const noexcept { return history_; }

 private:
  struct Obstacle {
    std::int8_t index;
    std::int8_t life;
  };
  // Everything undo restores.
  struct Snapshot {
    Grid grid;
    std::array<Obstacle, kMaxMovingObstacles> obstacles{};
    std::int8_t obstacle_count = 0;
    std::uint8_t max_exponent = 0;
    bool won = false;
    GameState state = GameState::playing;
    std::int32_t moves = 0;
    std::int64_t score = 0;
    SplitMix64 rng;
  };

  // The state before live move `depth`, as the last checkpoint at or below it.
  struct Checkpoint {
    int depth;
    Snapshot state;
  };

  ObstacleRule rule() const noexcept;
  // The rule of one move on now_: slide, obstacles, spawn, score, state. False (and now_
  // untouched) when nothing would move. Motions go to out when not null.
  bool apply(Direction d, MoveOutcome* out);
  void spawn_tile(MoveOutcome* out);
  void age_obstacles(const SlideResult& slid, MoveOutcome& out);
  // Places a moving obstacle on a random empty cell drawn from rng, with a 30% chance.
  void maybe_add_obstacle(SplitMix64& rng, MoveOutcome* out);

  GameConfig config_;
  std::uint8_t target_exponent_;
  Snapshot now_;  // now_.moves is also the number of live moves (what undo can take back)
  // Undo history, kept only when undo is allowed: the live moves are history_ until the first
  // undo, live_ after it; checkpoints_ holds the state before every checkpoint_every-th live
  // move and before any live move whose state an undo penalty changed, in ascending depth.
  bool undo_;
  int checkpoint_every_;
  bool diverged_ = false;  // an undo happened: live_ holds the live moves
  std::string live_;
  std::vector<Checkpoint> checkpoints_;
  SplitMix64 penalty_rng_;
  int undos_ = 0;
  std::string history_;
  SlideResult slid_;
};

}  // namespace tilerace::engine
