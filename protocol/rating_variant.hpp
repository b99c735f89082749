#pragma once
// Rating variants: which rating a race changes (server/rules/glicko2.hpp). Each is rated
// apart: classic 4×4, classic 3×3, classic 5×5, classic 6×6 and larger, the obstacle modes
// (fixed and moving, any size) and the Fifteen puzzle. A variant's name is what the wire
// carries in "variant".
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/types.hpp"

namespace tilerace::protocol {

enum class Variant : std::uint8_t {
  classic_4,
  classic_3,
  classic_5,
  classic_large,
  obstacles,
  fifteen
};

inline constexpr std::size_t kVariantCount = 6;
inline constexpr std::array<Variant, kVariantCount> kVariants{
    Variant::classic_4,     Variant::classic_3, Variant::classic_5,
    Variant::classic_large, Variant::obstacles, Variant::fifteen};
// The variant where a rating with no variant named is read: profiles' and friends' "rating".
inline constexpr Variant kDefaultVariant = Variant::classic_4;

// The variant a race of mode on a size×size board is rated in.
constexpr Variant variant_of(engine::Mode mode, int size) {
  switch (mode) {
    case engine::Mode::fifteen: return Variant::fifteen;
    case engine::Mode::fixed_obstacle:
    case engine::Mode::moving_obstacle: return Variant::obstacles;
    case engine::Mode::classic: break;
  }
  return size <= 3   ? Variant::classic_3
         : size == 4 ? Variant::classic_4
         : size == 5 ? Variant::classic_5
                     : Variant::classic_large;
}

constexpr std::string_view to_string(Variant v) {
  switch (v) {
    case Variant::classic_4: return "classic-4";
    case Variant::classic_3: return "classic-3";
    case Variant::classic_5: return "classic-5";
    case Variant::classic_large: return "classic-large";
    case Variant::obstacles: return "obstacles";
    case Variant::fifteen: return "fifteen";
  }
  return "classic-4";
}

constexpr std::optional<Variant> variant_from_string(std::string_view name) {
  for (const Variant v : kVariants) {
    if (to_string(v) == name) return v;
  }
  return std::nullopt;
}

constexpr std::size_t index_of(Variant v) { return static_cast<std::size_t>(v); }

}  // namespace tilerace::protocol
