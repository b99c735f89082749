#include "engine/types.hpp"

#include <array>
#include <bit>

namespace tilerace::engine {

namespace {
constexpr std::array<std::string_view, 4> kDirectionNames{"up", "down", "left", "right"};
constexpr std::array<std::string_view, 4> kModeNames{"classic", "fixed-obstacle", "moving-obstacle",
                                                     "fifteen"};
constexpr std::array<std::string_view, 5> kStateNames{"playing", "over", "solved", "resigned",
                                                      "forfeited"};
constexpr std::array<std::string_view, 3> kStrengthNames{"easy", "medium", "hard"};
constexpr std::array<char, 4> kLetters{'U', 'D', 'L', 'R'};
}  // namespace

bool valid_config(const GameConfig& config) noexcept {
  if (config.mode == Mode::fifteen) {
    return config.size >= kMinSize && config.size <= kMaxFifteenSize;
  }
  return config.size >= kMinSize && config.size <= kMaxSize && config.target >= kMinTarget &&
         config.target <= kMaxTarget &&
         std::has_single_bit(static_cast<std::uint64_t>(config.target));
}

std::string_view to_string(Direction d) noexcept { return kDirectionNames[static_cast<int>(d)]; }
std::string_view to_string(Mode m) noexcept { return kModeNames[static_cast<int>(m)]; }
std::string_view to_string(GameState s) noexcept { return kStateNames[static_cast<int>(s)]; }
std::string_view to_string(BotStrength s) noexcept { return kStrengthNames[static_cast<int>(s)]; }
char to_letter(Direction d) noexcept { return kLetters[static_cast<int>(d)]; }

Direction direction_of(const Motion& m) noexcept {
  if (m.to.row != m.from.row) return m.to.row < m.from.row ? Direction::up : Direction::down;
  return m.to.col < m.from.col ? Direction::left : Direction::right;
}

std::optional<Direction> direction_from_string(std::string_view s) noexcept {
  for (int i = 0; i < 4; ++i) {
    if (kDirectionNames[i] == s) return static_cast<Direction>(i);
  }
  return std::nullopt;
}

std::optional<Direction> direction_from_letter(char c) noexcept {
  for (int i = 0; i < 4; ++i) {
    if (kLetters[i] == c) return static_cast<Direction>(i);
  }
  return std::nullopt;
}

std::optional<Mode> mode_from_string(std::string_view s) noexcept {
  for (int i = 0; i < 4; ++i) {
    if (kModeNames[i] == s) return static_cast<Mode>(i);
  }
  return std::nullopt;
}

std::optional<BotStrength> bot_strength_from_string(std::string_view s) noexcept {
  for (int i = 0; i < 3; ++i) {
    if (kStrengthNames[i] == s) return static_cast<BotStrength>(i);
  }
  return std::nullopt;
}

}  // namespace tilerace::engine
