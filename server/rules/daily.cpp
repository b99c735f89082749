#include "server/rules/daily.hpp"

#include <algorithm>

#include "engine/game.hpp"
#include "protocol/period.hpp"
#include "server/rules/game_record.hpp"

namespace tilerace::server {

namespace {

constexpr std::int64_t kDayMs = 86'400'000;

}  // namespace

std::string day_of(std::int64_t unix_ms) {
  return protocol::to_string(protocol::period_containing(protocol::PeriodKind::day, unix_ms));
}

std::int64_t day_end(std::string_view day) {
  const auto period = protocol::period_from_string(day);
  if (!period || period->kind != protocol::PeriodKind::day) return 0;
  return (static_cast<std::int64_t>(period->first_day) + 1) * kDayMs - 1;
}

DailyStreaks daily_streaks(const std::vector<std::string>& days, std::string_view today) {
  const auto number = [](std::string_view day) -> std::int64_t {
    const auto p = protocol::period_from_string(day);
    return p && p->kind == protocol::PeriodKind::day ? p->first_day : -1;
  };
  DailyStreaks s;
  int run = 0;
  std::int64_t last = -2;
  for (const std::string& day : days) {
    const std::int64_t n = number(day);
    if (n < 0) continue;
    run = n == last + 1 ? run + 1 : 1;
    last = n;
    s.longest = std::max(s.longest, run);
  }
  const std::int64_t now = number(today);
  s.current = last == now || last == now - 1 ? run : 0;
  return s;
}

Abandoned abandoned_dailies(
    std::vector<std::pair<DailyAttempt, std::optional<ActiveGameRecord>>> open) {
  Abandoned out;
  for (auto& [attempt, active] : open) {
    std::optional<engine::Game> game;
    if (active) game = engine::replay(active->config, active->moves);
    if (!game) {
      out.empty.push_back(attempt.game_id);
      continue;
    }
    // Its times as journaled: kept when there is one per move letter (game_record checks).
    GameRecord record = game_record(*game, attempt.game_id, attempt.player_id, true,
                                    active->started_at, day_end(attempt.day), {}, active->times);
    if (record.state == engine::GameState::playing) record.state = engine::GameState::resigned;
    record.daily = attempt.day;
    out.games.push_back(std::move(record));
  }
  return out;
}

}  // namespace tilerace::server
