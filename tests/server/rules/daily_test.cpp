// The daily challenge's rules (server/rules/daily.hpp) and seeds (server/game/daily_seed.hpp):
// seeds, days, and abandoned attempts.
#include "server/rules/daily.hpp"

#include <gtest/gtest.h>

#include "engine/game.hpp"
#include "protocol/names.hpp"
#include "server/game/daily_seed.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/temp_dir.hpp"

namespace tilerace::server {
namespace {

const protocol::DailyMode& kClassic4 = protocol::kDailyModes[0];
const protocol::DailyMode& kClassic5 = protocol::kDailyModes[1];

TEST(Daily, OneSeedPerDayModeAndSecret) {
  const auto seed = daily_seed("secret", "2026-11-24", kClassic4);
  EXPECT_EQ(daily_seed("secret", "2026-11-24", kClassic4), seed);  // any node, any time
  EXPECT_NE(daily_seed("secret", "2026-11-25", kClassic4), seed);
  EXPECT_NE(daily_seed("secret", "2026-11-24", kClassic5), seed);
  // Not derivable from the date alone: another secret, another seed.
  EXPECT_NE(daily_seed("another secret", "2026-11-24", kClassic4), seed);
}

TEST(Daily, TheDayTurnsAtMidnightUtc) {
  constexpr std::int64_t kMidnight = 1'764'028'800'000;  // 2025-11-25T00:00:00Z
  EXPECT_EQ(day_of(kMidnight - 1), "2025-11-24");        // 23:59:59.999
  EXPECT_EQ(day_of(kMidnight), "2025-11-25");
  EXPECT_EQ(day_end("2025-11-24"), kMidnight - 1);
  EXPECT_EQ(day_end("2025-W48"), 0);
  EXPECT_EQ(day_end("nonsense"), 0);
}

TEST(Daily, StreaksCountDaysInARowUpToTodayOrYesterday) {
  const std::vector<std::string> days{"2026-11-01", "2026-11-02", "2026-11-03", "2026-11-10",
                                      "2026-11-11"};
  EXPECT_EQ(daily_streaks(days, "2026-11-11").current, 2);
  EXPECT_EQ(daily_streaks(days, "2026-11-12").current, 2) << "today's still to come";
  EXPECT_EQ(daily_streaks(days, "2026-11-13").current, 0);
  EXPECT_EQ(daily_streaks(days, "2026-11-13").longest, 3);
  EXPECT_EQ(daily_streaks({"2026-11-30", "2026-12-01"}, "2026-12-01").current, 2);
  EXPECT_EQ(daily_streaks({}, "2026-12-01").longest, 0);
}

TEST(Daily, AnAbandonedAttemptEndsAsLastJournaledAtItsDaysEnd) {
  tilerace::testing::TempDir dir;
  SqliteStore store(dir.path() / "t.db");
  for (const char* id : {"p1", "p2", "p3"}) {
    store.add_player({id, id, protocol::name_key(id), 1000}, std::nullopt);
  }
  const std::string day = "2026-11-20";
  const engine::GameConfig config{engine::Mode::classic, 4, 2048, daily_seed("k", day, kClassic4)};
  // p1 played 6 moves and closed the tab; p2 claimed an attempt and played nothing
  // journaled; p3 finished (recorded already).
  ASSERT_TRUE(store.claim_daily(
      {.day = day, .mode = "classic-4", .player_id = "p1", .game_id = "g1", .at = 1}));
  ASSERT_TRUE(store.claim_daily(
      {.day = day, .mode = "classic-4", .player_id = "p2", .game_id = "g2", .at = 1}));
  ASSERT_TRUE(store.claim_daily(
      {.day = day, .mode = "classic-4", .player_id = "p3", .game_id = "g3", .at = 1}));
  engine::Game game(config);
  for (const auto d : {engine::Direction::left, engine::Direction::up, engine::Direction::right,
                       engine::Direction::down, engine::Direction::left, engine::Direction::up}) {
    game.move(d);
  }
  // Journaled in two passes, each with the times of its moves.
  const std::string& history = game.history();
  const std::size_t half = history.size() / 2;
  std::vector<std::int32_t> times;
  for (std::size_t i = 0; i < history.size(); ++i) times.push_back(100 * static_cast<int>(i + 1));
  store.journal({{.player_id = "p1",
                  .game_id = "g1",
                  .config = config,
                  .moves = history.substr(0, half),
                  .started_at = 5,
                  .times = std::vector<std::int32_t>(times.begin(), times.begin() + half),
                  .daily = day,
                  .daily_ranked = true}});
  store.journal({{.player_id = "p1",
                  .game_id = "g1",
                  .config = config,
                  .moves = history.substr(half),
                  .started_at = 5,
                  .from = half,
                  .times = std::vector<std::int32_t>(times.begin() + half, times.end()),
                  .daily = day,
                  .daily_ranked = true,
                  .score = game.score(),
                  .max_tile = game.max_tile(),
                  .move_count = game.moves()}});
  GameRecord done{.id = "g3",
                  .player_id = "p3",
                  .config = config,
                  .moves = "L",
                  .score = 4,
                  .max_tile = 4,
                  .move_count = 1,
                  .ranked = true,
                  .ended_at = 7,
                  .daily = day};
  store.record_game(done);
  EXPECT_FALSE(store.claim_daily(
      {.day = day, .mode = "classic-4", .player_id = "p1", .game_id = "g9", .at = 2}))
      << "one ranked attempt a day";

  // The day is not over: nothing to close.
  EXPECT_TRUE(abandoned_dailies(store.open_dailies(day)).games.empty());
  const Abandoned closed = abandoned_dailies(store.open_dailies("2026-11-21"));
  ASSERT_EQ(closed.games.size(), 1u);
  const GameRecord& g = closed.games[0];
  EXPECT_EQ(g.id, "g1");
  EXPECT_EQ(g.moves, game.history());
  EXPECT_EQ(g.score, game.score());
  EXPECT_EQ(g.state, engine::GameState::resigned);
  EXPECT_EQ(g.ended_at, day_end(day));
  EXPECT_EQ(g.times, times) << "a time for every move, abandoned or not";
  EXPECT_EQ(g.daily, day);
  EXPECT_TRUE(g.ranked);
  EXPECT_EQ(closed.empty, std::vector<std::string>{"g2"});
  // Recorded, they leave the open list; the board keeps them as they stood.
  store.record_game(g);
  store.finish_daily("g2");
  EXPECT_TRUE(abandoned_dailies(store.open_dailies("2026-11-21")).games.empty());
  // Listed: the attempts whose replay exists (p2's, with nothing played, has none).
  const auto attempts = store.daily_attempts(day);
  ASSERT_EQ(attempts.size(), 2u);
  for (const DailyAttempt& a : attempts) EXPECT_TRUE(a.finished) << a.game_id;
  EXPECT_EQ(attempts[0].game_id, game.score() > 4 ? "g1" : "g3");
  EXPECT_FALSE(eligible_for_board(g)) << "on the daily board only";
}

}  // namespace
}  // namespace tilerace::server
