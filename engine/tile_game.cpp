#include "engine/tile_game.hpp"

#include <algorithm>
#include <bit>
#include <iterator>
#include <optional>
#include <utility>

namespace tilerace::engine {

namespace {

// Appends x to a container that grows for the whole game, a quarter at a time: a long game's
// move string and checkpoints leave at most a quarter unused, where doubling leaves half. (A
// fresh container, because libstdc++'s string::reserve at least doubles a non-empty string.)
template <class Container, class T>
void append(Container& c, T&& x) {
  if (c.size() == c.capacity()) {
    Container grown;
    grown.reserve(c.size() + c.size() / 4 + 1);
    grown.insert(grown.end(), std::make_move_iterator(c.begin()), std::make_move_iterator(c.end()));
    c.swap(grown);
  }
  c.push_back(std::forward<T>(x));
}

}  // namespace

TileGame::TileGame(const GameConfig& config, bool undo, int checkpoint_every)
    : config_(config),
      target_exponent_(
          static_cast<std::uint8_t>(std::countr_zero(static_cast<std::uint64_t>(config.target)))),
      undo_(undo),
      checkpoint_every_(std::max(1, checkpoint_every)),
      penalty_rng_(config.seed ^ kPenaltySeedMix) {
  now_.grid.size = config.size;
  now_.rng = SplitMix64(config.seed);
  if (config.mode == Mode::fixed_obstacle) {
    now_.grid.cells[now_.rng.below(static_cast<std::uint64_t>(now_.grid.count()))] = kObstacle;
  }
  spawn_tile(nullptr);
  spawn_tile(nullptr);
  if (undo_) checkpoints_.push_back({0, now_});
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

bool TileGame::apply(Direction d, MoveOutcome* out) {
  slide(now_.grid, d, rule(), slid_, out != nullptr ? &out->motions : nullptr);
  if (!slid_.changed) return false;
  MoveOutcome scratch;  // vanished cells and spawns when the caller does not want them
  MoveOutcome& o = out != nullptr ? *out : scratch;
  if (config_.mode == Mode::moving_obstacle) age_obstacles(slid_, o);
  spawn_tile(out);
  if (config_.mode == Mode::moving_obstacle && now_.obstacle_count == 0) {
    maybe_add_obstacle(now_.rng, out);
  }
  now_.score += slid_.gained;
  now_.moves += 1;
  now_.max_exponent = std::max(now_.max_exponent, slid_.top);  // spawns update it too
  if (now_.max_exponent >= target_exponent_) now_.won = true;
  if (!can_move(now_.grid, rule())) now_.state = GameState::over;
  return true;
}

void TileGame::move(Direction d, MoveOutcome& out) {
  out.clear();
  if (now_.state == GameState::playing) {
    const int depth = now_.moves;
    const bool checkpoint =
        undo_ && depth % checkpoint_every_ == 0 && checkpoints_.back().depth < depth;
    std::optional<Snapshot> before;
    if (checkpoint) before = now_;
    if (apply(d, &out)) {
      out.changed = true;
      out.gained = slid_.gained;
      append(history_, to_letter(d));
      if (diverged_) append(live_, to_letter(d));
      if (checkpoint) append(checkpoints_, Checkpoint{depth, *before});
    }
  }
  out.state = now_.state;
  out.won = now_.won;
}

bool TileGame::undo() {
  if (!undo_ || now_.state != GameState::playing || now_.moves == 0) return false;
  if (!diverged_) {
    live_ = history_;  // no undo yet: every move is live
    diverged_ = true;
  }
  const int depth = now_.moves - 1;
  live_.pop_back();
  while (checkpoints_.back().depth > depth) checkpoints_.pop_back();
  now_ = checkpoints_.back().state;
  for (int i = checkpoints_.back().depth; i < depth; ++i) {
    apply(*direction_from_letter(live_[static_cast<std::size_t>(i)]), nullptr);
  }
  ++undos_;
  append(history_, 'Z');
  // The penalty only lands where it leaves a free cell, so an undo never ends the game.
  if (config_.mode == Mode::moving_obstacle && now_.obstacle_count < kMaxMovingObstacles &&
      count_empty(now_.grid) >= 2) {
    const std::int8_t obstacles = now_.obstacle_count;
    maybe_add_obstacle(penalty_rng_, nullptr);
    if (now_.obstacle_count != obstacles) {  // the state at this depth changed: keep it
      if (checkpoints_.back().depth == depth) checkpoints_.pop_back();
      append(checkpoints_, Checkpoint{depth, now_});
    }
  }
  return true;
}

bool TileGame::end(GameState final_state) {
  if (now_.state != GameState::playing) return false;
  now_.state = final_state;
  return true;
}

}  // namespace tilerace::engine
