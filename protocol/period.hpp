#pragma once
// Leaderboard periods: all time, a UTC day or an ISO-8601 week (Monday to Sunday, UTC; week 1
// holds the year's first Thursday). On the wire and in the stores a period is named
// "all-time", "2026-11-23" or "2026-W47".
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilerace::protocol {

enum class PeriodKind : std::uint8_t { all_time, day, week };

struct Period {
  PeriodKind kind = PeriodKind::all_time;
  std::int32_t first_day = 0;  // its first day (a week's Monday), in days since 1970-01-01
  auto operator<=>(const Period&) const = default;
};

// The period of kind that holds the instant unix_ms (Unix milliseconds, UTC); all_time for
// all_time. Requires unix_ms >= 0.
Period period_containing(PeriodKind kind, std::int64_t unix_ms);

// "all-time", "YYYY-MM-DD" or "YYYY-Www".
std::string to_string(const Period& period);

// The inverse of to_string for years 1970–9999: nullopt for anything else, including a day
// that does not exist ("2026-02-30") and week 53 of a year that has 52.
std::optional<Period> period_from_string(std::string_view name);

}  // namespace tilerace::protocol
