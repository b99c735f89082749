#include "protocol/period.hpp"

#include <chrono>
#include <cstdio>

namespace tilerace::protocol {

namespace {

using std::chrono::sys_days;
using std::chrono::year_month_day;

constexpr std::int64_t kMsPerDay = 86'400'000;

std::int32_t day_number(const year_month_day& date) {
  return static_cast<std::int32_t>(sys_days(date).time_since_epoch().count());
}

year_month_day date_of(std::int32_t day) {
  return year_month_day(sys_days(std::chrono::days(day)));
}

// 0 for Monday … 6 for Sunday; day 0 (1970-01-01) was a Thursday.
std::int32_t weekday_of(std::int32_t day) { return ((day + 3) % 7 + 7) % 7; }

struct IsoWeek {
  int year = 0;
  int week = 0;
};

// The ISO year and week of the week whose Monday is monday: the year of its Thursday.
IsoWeek iso_week(std::int32_t monday) {
  const std::int32_t thursday = monday + 3;
  const int year = static_cast<int>(date_of(thursday).year());
  const std::int32_t jan1 =
      day_number(std::chrono::year(year) / std::chrono::January / std::chrono::day(1));
  return {year, (thursday - jan1) / 7 + 1};
}

// Reads exactly digits decimal digits from s at pos.
std::optional<int> digits_at(std::string_view s, std::size_t pos, std::size_t digits) {
  if (pos + digits > s.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = pos; i < pos + digits; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

}  // namespace

Period period_containing(PeriodKind kind, std::int64_t unix_ms) {
  const auto day = static_cast<std::int32_t>(unix_ms / kMsPerDay);
  switch (kind) {
    case PeriodKind::all_time: return {};
    case PeriodKind::day: return {PeriodKind::day, day};
    case PeriodKind::week: return {PeriodKind::week, day - weekday_of(day)};
  }
  return {};
}

std::string to_string(const Period& period) {
  char text[16];
  switch (period.kind) {
    case PeriodKind::all_time: return "all-time";
    case PeriodKind::day: {
      const year_month_day d = date_of(period.first_day);
      std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(d.year()),
                    static_cast<unsigned>(d.month()), static_cast<unsigned>(d.day()));
      return text;
    }
    case PeriodKind::week: {
      const IsoWeek w = iso_week(period.first_day);
      std::snprintf(text, sizeof text, "%04d-W%02d", w.year, w.week);
      return text;
    }
  }
  return "all-time";
}

std::optional<Period> period_from_string(std::string_view name) {
  if (name == "all-time") return Period{};
  const auto year = digits_at(name, 0, 4);
  if (!year || *year < 1970 || name.size() < 5 || name[4] != '-') return std::nullopt;
  if (name.size() == 8 && name[5] == 'W') {
    const auto week = digits_at(name, 6, 2);
    if (!week || *week < 1) return std::nullopt;
    const std::int32_t jan4 =
        day_number(std::chrono::year(*year) / std::chrono::January / std::chrono::day(4));
    const std::int32_t monday = jan4 - weekday_of(jan4) + (*week - 1) * 7;
    const IsoWeek check = iso_week(monday);
    if (check.year != *year || check.week != *week) return std::nullopt;  // week 53 of 52
    return Period{PeriodKind::week, monday};
  }
  if (name.size() != 10 || name[7] != '-') return std::nullopt;
  const auto month = digits_at(name, 5, 2);
  const auto day = digits_at(name, 8, 2);
  if (!month || !day) return std::nullopt;
  const year_month_day date{std::chrono::year(*year),
                            std::chrono::month(static_cast<unsigned>(*month)),
                            std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  return Period{PeriodKind::day, day_number(date)};
}

}  // namespace tilerace::protocol
