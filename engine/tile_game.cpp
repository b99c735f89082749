#include "engine/tile_game.hpp"

#include <algorithm>
#include <bit>

namespace tilerace::engine {

TileGame::TileGame(const GameConfig& config)
    : config_(config),
      target_exponent_(
          static_cast<std::uint8_t>(std::countr_zero(static_cast<std::uint64_t>(config.target)))),
      penalty_rng_(config.seed ^ kPenaltySeedMix) {
  now_.grid.size = config.size;
  now_.rng = SplitMix64(config.seed);
  if (config.mode == Mode::fixed_obstacle) {
    now_.grid.cells[now_.rng.below(static_cast<std::uint64_t>(now_.grid.count()))] = kObstacle;
  }
  spawn_tile(nullptr);
  spawn_tile(nullptr);
}

ObstacleRule TileGame::rule() const noexcept {
  return config_.mode == Mode::moving_obstacle ? ObstacleRule::moving : ObstacleRule::fixed;
}

void TileGame::spawn_tile(MoveOutcome* out) {
  const int empty = count_empty(now_.grid);
  if (empty == 0) return;
  const int index = nth_empty(now_.grid, static_cast<int>(now_.rng.below(empty)));
  const std::uint8_t exponent = now_.rng.below(10) == 0 ? 2 : 1;
  now_.grid.cells[index] = exponent;
  now_.max_exponent = std::max(now_.max_exponent, exponent);
  if (out != nullptr) out->spawned.push_back({now_.grid.cell_of(index), cell_value(exponent)});
}

void TileGame::age_obstacles(const SlideResult& slid, MoveOutcome& out) {
  std::int8_t kept = 0;
  for (std::int8_t i = 0; i < now_.obstacle_count; ++i) {
    Obstacle o = now_.obstacles[i];
    o.index = slid.dest[o.index];
    if (--o.life == 0) {
      now_.grid.cells[o.index] = kEmpty;
      out.vanished.push_back(now_.grid.cell_of(o.index));
    } else {
      now_.obstacles[kept++] = o;
    }
  }
  now_.obstacle_count = kept;
}

void TileGame::maybe_add_obstacle(SplitMix64& rng, MoveOutcome* out) {
  if (rng.below(100) >= kObstacleChancePercent) return;
  const int empty = count_empty(now_.grid);
  if (empty == 0) return;
  const int index = nth_empty(now_.grid, static_cast<int>(rng.below(empty)));
  now_.grid.cells[index] = kObstacle;
  now_.obstacles[now_.obstacle_count++] = {static_cast<std::int8_t>(index), kObstacleLife};
  if (out != nullptr) out->spawned.push_back({now_.grid.cell_of(index), kObstacleValue});
}

void TileGame::move(Direction d, MoveOutcome& out) {
  out.clear();
  if (now_.state == GameState::playing) {
    past_.push_back(now_);
    slide(now_.grid, d, rule(), slid_, &out.motions);
    if (!slid_.changed) {
      past_.pop_back();
    } else {
      out.changed = true;
      out.gained = slid_.gained;
      if (config_.mode == Mode::moving_obstacle) age_obstacles(slid_, out);
      spawn_tile(&out);
      if (config_.mode == Mode::moving_obstacle && now_.obstacle_count == 0) {
        maybe_add_obstacle(now_.rng, &out);
      }
      now_.score += slid_.gained;
      now_.moves += 1;
      now_.max_exponent = std::max(now_.max_exponent, slid_.top);  // spawns update it too
      if (now_.max_exponent >= target_exponent_) now_.won = true;
      if (!can_move(now_.grid, rule())) now_.state = GameState::over;
      history_.push_back(to_letter(d));
    }
  }
  out.state = now_.state;
  out.won = now_.won;
}

bool TileGame::undo() {
  if (now_.state != GameState::playing || past_.empty()) return false;
  now_ = past_.back();
  past_.pop_back();
  ++undos_;
  history_.push_back('Z');
  // The penalty only lands where it leaves a free cell, so an undo never ends the game.
  if (config_.mode == Mode::moving_obstacle && now_.obstacle_count < kMaxMovingObstacles &&
      count_empty(now_.grid) >= 2) {
    maybe_add_obstacle(penalty_rng_, nullptr);
  }
  return true;
}

bool TileGame::end(GameState final_state) {
  if (now_.state != GameState::playing) return false;
  now_.state = final_state;
  return true;
}

}  // namespace tilerace::engine
