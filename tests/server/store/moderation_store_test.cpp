// Moderation in the store, on both backends: a ban takes a player off every board and an unban
// puts them back; a hidden game leaves the boards and the player's bests are worked out again;
// reports once a day; the audit log only grows.
#include <gtest/gtest.h>

#include "tests/eventually.hpp"
#include "tests/server/store/rated.hpp"
#include "tests/server/store/store_fixture.hpp"

namespace tilerace::server {
namespace {

using namespace testing;

const std::int64_t kNow = 1'795'000'000'000;  // 2026-11-18

class ModerationStoreTest : public StoreTest {
 protected:
  AuditEntry entry(std::string action, std::string target) {
    return {.at = kNow,
            .actor = "operator",
            .action = std::move(action),
            .target = std::move(target),
            .reason = "test"};
  }
  // Every board a and b are on: all time, the day and the week of kNow, rating, the day's daily.
  void record_results() {
    add("a", "ann");
    add("b", "bob");
    store_->record_game(game("ga", "a", 500, 64, 50, kNow));
    store_->record_game(game("gb", "b", 300, 32, 40, kNow));
    RaceRecord race{
        .id = "r1", .room = "ROOM01", .reason = "target", .winner = "a", .result = "{}"};
    race.games = {game("ra", "a", 10, 8, 5, kNow), game("rb", "b", 5, 4, 5, kNow)};
    race.games[0].room = race.games[1].room = "ROOM01";
    race.ratings = {rated("a", 1500, 1516, true, false), rated("b", 1500, 1484, false, true)};
    race.ended_at = kNow;
    store_->record_race(race);
    for (const char* id : {"a", "b"}) {
      const std::string p = id;
      ASSERT_TRUE(store_->claim_daily(
          {.day = day(), .mode = "classic-4", .player_id = p, .game_id = "d" + p, .at = 1}));
      GameRecord g = game("d" + p, p, p == "a" ? 900 : 800, 64, 70, kNow);
      g.daily = day();
      store_->record_game(g);
    }
  }
  static std::string day() { return "2026-11-18"; }
  Leaderboard rating(const std::string& me) {
    return store_->leaderboard({engine::Mode::classic, 4, BoardKind::rating, 10, me, {}});
  }
  Leaderboard daily(const std::string& me) {
    return store_->leaderboard(
        {engine::Mode::classic, 4, BoardKind::daily, 10, me, *protocol::period_from_string(day())});
  }
  // b's `me` rank on every board, once they all equal expected (a shared database's nodes
  // refill their ranks a moment after the change commits), or 5 s passed.
  bool b_ranks(int expected) {
    return tilerace::testing::eventually(
        [&] {
          return board("b").me->rank == expected && board_of(day(), "b").me->rank == expected &&
                 rating("b").me->rank == expected && daily("b").me->rank == expected;
        },
        5s);
  }
};

TEST_P(ModerationStoreTest, ABanTakesAPlayerOffEveryBoardAndAnUnbanPutsThemBack) {
  record_results();
  ASSERT_TRUE(b_ranks(2));
  store_->ban({"a", "abuse", 0, kNow}, entry("ban", "a"));
  EXPECT_EQ(listing(board()), "b#1:300");
  EXPECT_EQ(listing(board_of(day())), "b#1:300");
  EXPECT_EQ(listing(board_of("2026-W47")), "b#1:300");
  EXPECT_EQ(rating("").entries.size(), 1u);
  EXPECT_EQ(listing(daily("")), "b#1:800");
  EXPECT_EQ(store_->daily_attempts(day()).size(), 1u) << "the day's results too";
  EXPECT_FALSE(board("a").me.has_value());
  EXPECT_TRUE(b_ranks(1));
  // Nothing of theirs is gone: their games and profile are kept.
  EXPECT_TRUE(store_->find_game("ga").has_value());
  EXPECT_EQ(store_->profile("a")->bests.size(), 1u);
  ASSERT_TRUE(store_->ban_of("a", kNow).has_value());
  EXPECT_EQ(store_->ban_of("a", kNow)->reason, "abuse");

  EXPECT_TRUE(store_->unban("a", entry("unban", "a")));
  EXPECT_FALSE(store_->unban("a", entry("unban", "a"))) << "not banned any more";
  EXPECT_EQ(listing(board()), "a#1:500 b#2:300");
  EXPECT_EQ(listing(daily("")), "a#1:900 b#2:800");
  EXPECT_TRUE(b_ranks(2));
  EXPECT_FALSE(store_->ban_of("a", kNow).has_value());
  // Both actions are in the log, newest first; the failed unban is not.
  const std::vector<AuditEntry> log = store_->audit_log(INT64_MAX, 10);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].action, "unban");
  EXPECT_EQ(log[1].action, "ban");
  EXPECT_EQ(log[1].target, "a");
  EXPECT_GT(log[0].id, log[1].id);
  EXPECT_EQ(store_->audit_log(log[0].id, 10).size(), 1u) << "paged by id";
}

TEST_P(ModerationStoreTest, ABanForATimeEndsByItself) {
  record_results();
  store_->ban({"a", "spam", kNow + 60'000, kNow}, entry("ban", "a"));
  EXPECT_TRUE(store_->ban_of("a", kNow + 59'999).has_value());
  EXPECT_FALSE(store_->ban_of("a", kNow + 60'000).has_value());
  EXPECT_TRUE(store_->lift_expired_bans(kNow + 59'999).empty());
  EXPECT_EQ(store_->lift_expired_bans(kNow + 60'000), std::vector<std::string>{"a"});
  EXPECT_EQ(listing(board()), "a#1:500 b#2:300");
  EXPECT_EQ(store_->audit_log(INT64_MAX, 1).at(0).actor, "server");
}

TEST_P(ModerationStoreTest, AHiddenGameLeavesTheBoardsAndTheBestsAreWorkedOutAgain) {
  add("a", "ann");
  add("b", "bob");
  store_->record_game(game("a1", "a", 400, 32, 50, kNow - 1000));
  store_->record_game(game("a2", "a", 900, 64, 80, kNow));  // her best
  store_->record_game(game("b1", "b", 600, 64, 60, kNow));
  EXPECT_EQ(listing(board()), "a#1:900 b#2:600");
  EXPECT_TRUE(store_->hide_game("a2", true, entry("hide_game", "a2")));
  EXPECT_FALSE(store_->hide_game("a2", true, entry("hide_game", "a2"))) << "hidden already";
  EXPECT_FALSE(store_->hide_game("nope", true, entry("hide_game", "nope")));
  EXPECT_EQ(listing(board()), "b#1:600 a#2:400");
  EXPECT_EQ(listing(board_of(day())), "b#1:600 a#2:400");
  EXPECT_EQ(board("a").me->game_id, "a1");
  EXPECT_TRUE(tilerace::testing::eventually([&] { return board("b").me->rank == 1; }, 5s));
  EXPECT_EQ(store_->profile("a")->bests.at(0).score, 400);
  EXPECT_TRUE(store_->hide_game("a2", false, entry("show_game", "a2")));
  EXPECT_EQ(listing(board()), "a#1:900 b#2:600");
  EXPECT_TRUE(tilerace::testing::eventually([&] { return board("b").me->rank == 2; }, 5s));
  EXPECT_EQ(store_->audit_log(INT64_MAX, 10).size(), 2u);
}

TEST_P(ModerationStoreTest, ReportsOnceADayAndResolvedOnce) {
  add("a", "ann");
  add("b", "bob");
  const ReportRecord report{.reporter = "a", .player_id = "b", .reason = "name", .at = kNow};
  EXPECT_TRUE(store_->add_report(report, day()));
  EXPECT_FALSE(store_->add_report(report, day())) << "once a day";
  EXPECT_TRUE(store_->add_report(report, "2026-11-19"));
  std::vector<ReportRecord> open = store_->reports(true, 10);
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0].reporter_name, "ann");
  EXPECT_EQ(open[0].player_name, "bob");
  EXPECT_TRUE(store_->resolve_report(open[0].id, "warned", entry("resolve_report", "1")));
  EXPECT_FALSE(store_->resolve_report(open[0].id, "again", entry("resolve_report", "1")));
  EXPECT_EQ(store_->reports(true, 10).size(), 1u);
  const std::vector<ReportRecord> all = store_->reports(false, 10);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].resolution, "warned");
}

TEST_P(ModerationStoreTest, PlayersAreFoundByIdNameOrAnOldName) {
  add("p1", "Alice");
  add("p2", "bob");
  ASSERT_TRUE(store_->rename("p2", "Robert", protocol::name_key("Robert"), kNow));
  auto ids = [](const std::vector<PlayerRecord>& found) {
    std::string out;
    for (const PlayerRecord& p : found) out += p.id + " ";
    return out;
  };
  EXPECT_EQ(ids(store_->search_players("ALI", 10)), "p1 ");
  EXPECT_EQ(ids(store_->search_players("p2", 10)), "p2 ");
  EXPECT_EQ(ids(store_->search_players("Bo", 10)), "p2 ") << "an old name";
  EXPECT_EQ(ids(store_->search_players("zzz", 10)), "");
  EXPECT_EQ(store_->old_names("p2").at(0).first, "bob");
}

TEST_P(ModerationStoreTest, TheAuditLogOnlyGrows) {
  store_->audit(entry("close_room", "ABCDEF"));
  EXPECT_ANY_THROW(execute("UPDATE audit_log SET reason = 'changed'"));
  EXPECT_ANY_THROW(execute("DELETE FROM audit_log"));
  EXPECT_EQ(store_->audit_log(INT64_MAX, 10).at(0).reason, "test");
}

INSTANTIATE_TEST_SUITE_P(Backends, ModerationStoreTest,
                         ::testing::Values(Backend::sqlite, Backend::postgresql), backend_name);

}  // namespace
}  // namespace tilerace::server
