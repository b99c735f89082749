#pragma once
// The daily challenge's rules (docs/protocol.md, "The daily challenge"): each UTC day and daily
// mode has one seed (server/game/daily_seed.hpp); the first attempt a player starts each day is
// ranked; an attempt abandoned before the day ended counts as it was last journaled.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/rules/play_records.hpp"

namespace tilerace::server {

// The day (a period name: "2026-11-24") holding the instant unix_ms.
std::string day_of(std::int64_t unix_ms);
// The last millisecond of day (a day's period name); 0 for a name that is not a day.
std::int64_t day_end(std::string_view day);
// A player's daily streaks from the days they made an attempt (in order): current — the days
// in a row up to today, or up to yesterday while today's is still to come — and longest.
struct DailyStreaks {
  int current = 0;
  int longest = 0;
};
DailyStreaks daily_streaks(const std::vector<std::string>& days, std::string_view today);

// The ranked attempts of days before today that were never finished, as the records that end
// them: each journaled game as it was last journaled, ended as resigned at its day's end.
// Those with nothing journaled come back as bare ids, to be marked finished as they stand.
struct Abandoned {
  std::vector<GameRecord> games;
  std::vector<std::string> empty;  // game ids
};
// open: the store's open attempts of the days before (DailyStore::open_dailies); the rule
// reads nothing itself.
Abandoned abandoned_dailies(
    std::vector<std::pair<DailyAttempt, std::optional<ActiveGameRecord>>> open);

}  // namespace tilerace::server
