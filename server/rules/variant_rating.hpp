#pragma once
// A player's ratings as kept: per variant (protocol/rating_variant.hpp), the Glicko-2 rating
// after their last rated race in it and when that race ended. What players are shown is the
// rating at the moment of asking: its deviation grown by the time idle since.
#include <array>
#include <cmath>
#include <cstdint>

#include "protocol/rating_variant.hpp"
#include "server/rules/glicko2.hpp"

namespace tilerace::server {

// A new player's rating, as shown.
inline constexpr int kStartRating = 1500;
static_assert(kStartRating == glicko2::kStart.rating);

inline constexpr std::int64_t kDayMs = 86'400'000;

struct VariantRating {
  glicko2::Rating rating = glicko2::kStart;
  std::int64_t at = 0;  // Unix ms of the last rated race in the variant; 0: never rated

  // The rating at now_ms (Unix ms): the deviation grown by the days idle since at.
  glicko2::Rating at_time(std::int64_t now_ms) const {
    if (at == 0) return rating;
    return glicko2::idle(rating, static_cast<double>(now_ms - at) / kDayMs);
  }
  bool operator==(const VariantRating&) const = default;
};

// The last Unix ms at which r is listed on leaderboards: its deviation, growing idle from
// r.at, is at most glicko2::kListedRd until then; −1 when it is above already.
inline std::int64_t listed_until(const VariantRating& r) {
  const double rd = r.rating.rd;
  if (rd > glicko2::kListedRd) return -1;
  const double days = (glicko2::kListedRd * glicko2::kListedRd - rd * rd) /
                      (glicko2::kIdleGrowth * glicko2::kIdleGrowth);
  return r.at + static_cast<std::int64_t>(days * kDayMs);
}

// One per variant, in protocol::kVariants' order (protocol::index_of).
using PlayerRatings = std::array<VariantRating, protocol::kVariantCount>;

// The rating as the wire shows it: whole points.
inline int shown(double rating) { return static_cast<int>(std::lround(rating)); }
// Provisional: shown with "?" (glicko2::kProvisionalRd).
inline bool provisional(const glicko2::Rating& r) { return r.rd >= glicko2::kProvisionalRd; }

}  // namespace tilerace::server
