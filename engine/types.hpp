#pragma once
// Vocabulary shared by every game kind: directions, cells, modes, states and the outcome of
// one move, which carries everything a client needs to animate it.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tilerace::engine {

enum class Direction : std::uint8_t { up, down, left, right };
enum class Mode : std::uint8_t { classic, fixed_obstacle, moving_obstacle, fifteen };
enum class GameState : std::uint8_t { playing, over, solved, resigned, forfeited };
// The computer opponent's strengths (engine/bot.hpp).
enum class BotStrength : std::uint8_t { easy, medium, hard };

inline constexpr int kMinSize = 3;
inline constexpr int kMaxSize = 8;
inline constexpr int kMaxFifteenSize = 6;
inline constexpr std::int64_t kMinTarget = 8;
inline constexpr std::int64_t kMaxTarget = std::int64_t{1} << 17;
inline constexpr std::int64_t kObstacleValue = -1;  // how an obstacle reads on a board

struct Cell {
  int row = 0;
  int col = 0;
  friend constexpr bool operator==(const Cell&, const Cell&) = default;
};

// One tile (or moving obstacle, value -1) that moved. Of two merging tiles the one farther
// from the wall is absorbed (merged = true); the value at `to` doubles.
struct Motion {
  Cell from;
  Cell to;
  std::int64_t value = 0;  // the value before the move
  bool merged = false;
  friend bool operator==(const Motion&, const Motion&) = default;
};

// A tile (or, in moving-obstacle mode, an obstacle: value -1) that appeared after a move.
struct Spawn {
  Cell at;
  std::int64_t value = 0;
  friend bool operator==(const Spawn&, const Spawn&) = default;
};

struct MoveOutcome {
  bool changed = false;
  std::int64_t gained = 0;  // sum of merged values (fifteen: tiles moved)
  std::vector<Motion> motions;
  std::vector<Spawn> spawned;
  std::vector<Cell> vanished;  // moving obstacles whose life ran out this move
  GameState state = GameState::playing;
  bool won = false;

  // Empties the outcome while keeping vector capacity, for callers that reuse one.
  void clear() {
    changed = false;
    gained = 0;
    motions.clear();
    spawned.clear();
    vanished.clear();
  }
};

struct GameConfig {
  Mode mode = Mode::classic;
  int size = 4;
  std::int64_t target = 2048;  // ignored by fifteen
  std::uint64_t seed = 0;
  friend bool operator==(const GameConfig&, const GameConfig&) = default;
};

// True when config's size and target are inside the ranges of PROTOCOL.md §4.
bool valid_config(const GameConfig& config) noexcept;

// Names on the wire and in replays.
std::string_view to_string(Direction d) noexcept;
std::string_view to_string(Mode m) noexcept;
std::string_view to_string(GameState s) noexcept;
std::string_view to_string(BotStrength s) noexcept;
char to_letter(Direction d) noexcept;  // U D L R
std::optional<Direction> direction_from_string(std::string_view s) noexcept;
std::optional<Direction> direction_from_letter(char c) noexcept;
std::optional<Mode> mode_from_string(std::string_view s) noexcept;
std::optional<BotStrength> bot_strength_from_string(std::string_view s) noexcept;

// The direction a motion went (from → to); requires from != to.
Direction direction_of(const Motion& m) noexcept;

// The step a tile takes when it moves in direction d.
constexpr Cell delta(Direction d) noexcept {
  switch (d) {
    case Direction::up: return {-1, 0};
    case Direction::down: return {1, 0};
    case Direction::left: return {0, -1};
    case Direction::right: return {0, 1};
  }
  return {0, 0};
}

}  // namespace tilerace::engine
