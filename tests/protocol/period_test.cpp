// Leaderboard periods: UTC days and ISO weeks, their names and their edges.
#include "protocol/period.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace tilerace::protocol {
namespace {

using namespace std::chrono;

// Unix milliseconds of a UTC date and a time of day.
std::int64_t at(year_month_day date, milliseconds time = 0ms) {
  return duration_cast<milliseconds>(sys_days(date).time_since_epoch() + time).count();
}

std::string day_name(std::int64_t ms) { return to_string(period_containing(PeriodKind::day, ms)); }
std::string week_name(std::int64_t ms) {
  return to_string(period_containing(PeriodKind::week, ms));
}

constexpr milliseconds kLastMs = 23h + 59min + 59s + 999ms;

TEST(Period, ADayEndsAtMidnightUtc) {
  EXPECT_EQ(day_name(at(2026y / 11 / 22, 23h + 59min + 59s)), "2026-11-22");
  EXPECT_EQ(day_name(at(2026y / 11 / 22, kLastMs)), "2026-11-22");
  EXPECT_EQ(day_name(at(2026y / 11 / 23)), "2026-11-23");
  EXPECT_EQ(day_name(0), "1970-01-01");
}

TEST(Period, AnIsoWeekRunsFromMondayToSundayUtc) {
  // 2026-11-23 is a Monday.
  EXPECT_EQ(week_name(at(2026y / 11 / 22, kLastMs)), "2026-W47");
  EXPECT_EQ(week_name(at(2026y / 11 / 23)), "2026-W48");
  EXPECT_EQ(week_name(at(2026y / 11 / 29, kLastMs)), "2026-W48");
  EXPECT_EQ(period_containing(PeriodKind::week, at(2026y / 11 / 25)).first_day,
            sys_days(2026y / 11 / 23).time_since_epoch().count());
}

TEST(Period, WeeksOneAndFiftyThreeCrossTheYear) {
  // 2021-01-03 (a Sunday) still belongs to 2020's week 53; week 1 starts the next day.
  EXPECT_EQ(week_name(at(2021y / 1 / 3, kLastMs)), "2020-W53");
  EXPECT_EQ(week_name(at(2021y / 1 / 4)), "2021-W01");
  // 2026 has 53 weeks, and its week 53 runs into 2027.
  EXPECT_EQ(week_name(at(2026y / 12 / 31)), "2026-W53");
  EXPECT_EQ(week_name(at(2027y / 1 / 3, kLastMs)), "2026-W53");
  EXPECT_EQ(week_name(at(2027y / 1 / 4)), "2027-W01");
  // And week 1 may start in December.
  EXPECT_EQ(week_name(at(2024y / 12 / 30)), "2025-W01");
  EXPECT_EQ(week_name(at(2024y / 12 / 29, kLastMs)), "2024-W52");
}

TEST(Period, NamesReadBackAsThePeriodTheyName) {
  for (const char* name : {"all-time", "2026-11-23", "2024-02-29", "2026-W47", "2026-W53",
                           "2020-W53", "2025-W01", "1970-01-01"}) {
    const auto period = period_from_string(name);
    ASSERT_TRUE(period.has_value()) << name;
    EXPECT_EQ(to_string(*period), name);
  }
  EXPECT_EQ(period_from_string("2025-W01")->first_day,
            sys_days(2024y / 12 / 30).time_since_epoch().count());
  EXPECT_EQ(period_from_string("all-time")->kind, PeriodKind::all_time);
}

TEST(Period, AnythingElseIsNoPeriod) {
  for (const char* name :
       {"", "all", "2026", "2026-11", "2026-13-01", "2026-02-29", "2026-11-31", "2026-1-05",
        "2026-11-23 ", "2025-W53", "2026-W00", "2026-W54", "2026-W7", "2026-w47", "1969-12-31",
        "+026-11-23", "２026-11-23", "day", "week"}) {
    EXPECT_FALSE(period_from_string(name).has_value()) << name;
  }
}

}  // namespace
}  // namespace tilerace::protocol
