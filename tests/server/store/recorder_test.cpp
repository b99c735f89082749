// The Recorder's own promises, on the in-memory seam: SQLite ":memory:" under a dialect that
// watches every unit of work and statement and can fail any one of them. What each backend
// stores is store_test.cpp's business; here: each call is one unit, a call that fails part-way
// leaves nothing behind (not even a rank), ratings are written in player-id order, and a
// database of this server's own adopts nothing.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "server/store/recorder.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/server/store/rated.hpp"

namespace tilerace::server {
namespace {

// SQLite in memory, watched: the units run (their kind) and the statements (with their
// parameters as text), and a failure injected at statement number fail_at of the next calls.
class WatchedDialect final : public SqlDialect {
 public:
  struct Log {
    std::vector<SqlTx> units;
    std::vector<std::pair<Sql, std::vector<std::string>>> statements;
    int fail_at = -1;  // counted over all statements since the log was cleared
    void clear() {
      units.clear();
      statements.clear();
    }
  };

  explicit WatchedDialect(Log& log) : log_(log) {}

  const std::string& node() const override { return inner_.node(); }
  void session(SqlTx tx, const std::function<void(SqlSession&)>& work) override {
    log_.units.push_back(tx);
    inner_.session(tx, [&](SqlSession& inner) {
      Watched watched(log_, inner);
      work(watched);
    });
  }
  void keep_ranks(RankCache& ranks, FillRanks fill) override {
    inner_.keep_ranks(ranks, std::move(fill));
  }

 private:
  class Watched final : public SqlSession {
   public:
    Watched(Log& log, SqlSession& inner) : log_(log), inner_(inner) {}
    SqlResult run(Sql statement, std::span<const SqlValue> params) override {
      std::vector<std::string> texts;
      for (const SqlValue& p : params) {
        if (const auto* n = std::get_if<std::int64_t>(&p)) {
          texts.push_back(std::to_string(*n));
        } else if (const auto* x = std::get_if<double>(&p)) {
          texts.push_back(std::to_string(*x));
        } else {
          texts.push_back(std::string(std::get<std::string_view>(p)));
        }
      }
      log_.statements.emplace_back(statement, std::move(texts));
      if (static_cast<int>(log_.statements.size()) - 1 == log_.fail_at) {
        throw std::runtime_error("injected failure");
      }
      return inner_.run(statement, params);
    }

   private:
    Log& log_;
    SqlSession& inner_;
  };

  Log& log_;
  SqliteDialect inner_{":memory:"};
};

class RecorderTest : public ::testing::Test {
 protected:
  RecorderTest() : recorder_(std::make_unique<WatchedDialect>(log_)) {
    for (const char* id : {"zed", "amy"}) {
      recorder_.add_player({.id = id, .name = id, .name_key = id, .created_at = 1}, std::nullopt);
    }
    log_.clear();
  }

  static GameRecord game(const std::string& id, const std::string& player, std::string room) {
    return {.id = id,
            .player_id = player,
            .config = {.seed = 7},
            .moves = "LU",
            .score = 2048,
            .max_tile = 2048,
            .move_count = 2,
            .ranked = true,
            .started_at = 1'000,
            .ended_at = 2'000,
            .room = std::move(room)};
  }
  // zed beats amy in room ROOM: listed zed first, so the recorder has to reorder.
  static RaceRecord race() {
    return {
        .id = "race-1",
        .room = "ROOM",
        .reason = "target",
        .winner = "zed",
        .result = "{}",
        .games = {game("gz", "zed", "ROOM"), game("ga", "amy", "ROOM")},
        .ratings = {rated("zed", 1500, 1516, true, false), rated("amy", 1500, 1484, false, true)},
        .ended_at = 2'000};
  }
  Leaderboard rating_board() {
    return recorder_.leaderboard({.kind = BoardKind::rating, .player_id = "amy"});
  }
  Leaderboard score_board() {
    return recorder_.leaderboard({.kind = BoardKind::score, .player_id = "amy"});
  }

  WatchedDialect::Log log_;
  Recorder recorder_;
};

TEST_F(RecorderTest, EveryWriteIsOneTransactionAndSnapshotsReadOneMoment) {
  recorder_.record_game(game("g1", "amy", ""));
  recorder_.record_race(race());
  recorder_.journal({{.player_id = "amy", .game_id = "g2", .moves = "L"}});
  recorder_.journal_races({{.id = "race-2", .room = "R2"}});
  EXPECT_EQ(log_.units, (std::vector{SqlTx::write, SqlTx::write, SqlTx::write, SqlTx::write}));
  log_.clear();
  recorder_.find_active("amy");  // a write: the node that resumes the game takes its entry
  recorder_.active_races();
  recorder_.profile("amy");
  recorder_.find_game("g1");
  EXPECT_EQ(log_.units, (std::vector{SqlTx::write, SqlTx::snapshot, SqlTx::snapshot, SqlTx::none}));
}

TEST_F(RecorderTest, RatingsAreWrittenInPlayerIdOrderAndEachGetsItsOwnStreak) {
  recorder_.record_race(race());
  std::vector<std::string> order;
  for (const auto& [statement, params] : log_.statements) {
    if (statement == Sql::count_rated_race) order.push_back(params.at(2));
  }
  EXPECT_EQ(order, (std::vector<std::string>{"amy", "zed"}));
  const Leaderboard board = rating_board();
  ASSERT_EQ(board.entries.size(), 2u);
  EXPECT_EQ(board.entries[0].player_id, "zed");
  EXPECT_EQ(board.entries[0].rating, 1516);
  ASSERT_TRUE(board.me.has_value());
  EXPECT_EQ(board.me->rating, 1484);
  EXPECT_EQ(board.me->rank, 2);
  EXPECT_EQ(recorder_.find_player("zed")->wins, 1);
  EXPECT_EQ(recorder_.find_player("amy")->losses, 1);
}

// The lock order (docs/operations.md, "Lock order"): a unit takes its races' locks in race id
// order, whatever order it was given them in — so two units never wait on each other in a
// circle.
TEST_F(RecorderTest, RacesAreLockedInIdOrder) {
  const auto locked = [this] {
    std::vector<std::string> ids;
    for (const auto& [statement, params] : log_.statements) {
      if (statement == Sql::lock_race) ids.push_back(params.at(0));
    }
    return ids;
  };
  recorder_.journal_races({{.id = "race-c", .room = "RC"},
                           {.id = "race-a", .room = "RA"},
                           {.id = "race-b", .room = "RB"}});
  EXPECT_EQ(locked(), (std::vector<std::string>{"race-a", "race-b", "race-c"}));
  log_.clear();
  RaceRecord later = race();
  later.id = "race-9";
  RaceRecord earlier = race();
  earlier.id = "race-0";
  earlier.ratings.clear();
  const std::vector<Finished> items{&later, &earlier};
  recorder_.record_finished(items);
  const std::vector<std::string> ids = locked();
  ASSERT_GE(ids.size(), 2u);
  EXPECT_EQ(ids[0], "race-0");  // all of them first, in order, before any row is touched
  EXPECT_EQ(ids[1], "race-9");
  EXPECT_EQ(log_.statements.at(0).first, Sql::lock_race);
  EXPECT_EQ(log_.statements.at(1).first, Sql::lock_race);
}

TEST_F(RecorderTest, ARaceThatFailsAtAnyStatementLeavesNothingThenRecordsOnce) {
  recorder_.journal_races({{.id = "race-1", .room = "ROOM"}});
  log_.clear();
  recorder_.record_race(race());  // how many statements a whole recording runs, on a copy
  const int statements = static_cast<int>(log_.statements.size());
  ASSERT_GT(statements, 5);

  for (int n = 0; n < statements; ++n) {
    SCOPED_TRACE("failing at statement " + std::to_string(n));
    Recorder fresh(std::make_unique<WatchedDialect>(log_));
    for (const char* id : {"zed", "amy"}) {
      fresh.add_player({.id = id, .name = id, .name_key = id, .created_at = 1}, std::nullopt);
    }
    fresh.journal_races({{.id = "race-1", .room = "ROOM"}});
    log_.clear();
    log_.fail_at = n;
    EXPECT_THROW(fresh.record_race(race()), std::runtime_error);
    log_.fail_at = -1;
    EXPECT_FALSE(fresh.find_game("gz").has_value());
    EXPECT_EQ(classic4_rating(*fresh.find_player("zed")), kStartRating);
    EXPECT_TRUE(fresh.leaderboard({.kind = BoardKind::rating, .player_id = "amy"}).entries.empty());
    EXPECT_EQ(fresh.active_races().size(), 1u);       // still journaled: it will be retried
    EXPECT_FALSE(fresh.record_race(race()).empty());  // the retry records it, with grants
    EXPECT_TRUE(fresh.record_race(race()).empty());   // and only once
    EXPECT_EQ(classic4_rating(*fresh.find_player("zed")), 1516);
    EXPECT_TRUE(fresh.active_races().empty());
  }
}

TEST_F(RecorderTest, AGameThatFailsLeavesNoBestAndNoRank) {
  log_.fail_at = 2;  // after the game and its first grant, before its best result
  EXPECT_THROW(recorder_.record_game(game("g1", "amy", "")), std::runtime_error);
  log_.fail_at = -1;
  EXPECT_TRUE(score_board().entries.empty());
  EXPECT_FALSE(score_board().me.has_value());
  EXPECT_FALSE(recorder_.find_game("g1").has_value());
  EXPECT_FALSE(recorder_.record_game(game("g1", "amy", "")).empty());
  ASSERT_TRUE(score_board().me.has_value());
  EXPECT_EQ(score_board().me->rank, 1);
  EXPECT_EQ(score_board().me->score, 2048);
}

TEST_F(RecorderTest, GamesAndRacesRecordedTogetherAreOneTransactionAllOrNothing) {
  const GameRecord g1 = game("g1", "amy", "");
  const RaceRecord r = race();  // zed beats amy
  const GameRecord g3 = game("g3", "amy", "");
  const std::vector<Finished> items = {&g1, &r, &g3};
  // One that fails at its last statement leaves none of them, and no rank.
  recorder_.record_finished(items);  // how many statements they run, on a copy
  const int statements = static_cast<int>(log_.statements.size());
  Recorder fresh(std::make_unique<WatchedDialect>(log_));
  for (const char* id : {"zed", "amy"}) {
    fresh.add_player({.id = id, .name = id, .name_key = id, .created_at = 1}, std::nullopt);
  }
  log_.clear();
  log_.fail_at = statements - 1;
  EXPECT_THROW(fresh.record_finished(items), std::runtime_error);
  log_.fail_at = -1;
  for (const char* id : {"g1", "gz", "ga", "g3"}) {
    EXPECT_FALSE(fresh.find_game(id).has_value()) << id;
  }
  EXPECT_TRUE(fresh.leaderboard({.kind = BoardKind::score, .player_id = "amy"}).entries.empty());
  EXPECT_TRUE(fresh.leaderboard({.kind = BoardKind::rating, .player_id = "amy"}).entries.empty());
  EXPECT_EQ(classic4_rating(*fresh.find_player("zed")), kStartRating);

  log_.clear();
  const std::vector<std::vector<Grant>> granted = fresh.record_finished(items);
  EXPECT_EQ(log_.units, std::vector{SqlTx::write});
  ASSERT_EQ(granted.size(), 3u);
  EXPECT_FALSE(granted[0].empty());  // amy's first game
  EXPECT_FALSE(granted[1].empty());  // zed's first game and first win, in the race
  EXPECT_TRUE(granted[2].empty());   // amy's third, as if recorded after the others
  for (const char* id : {"g1", "gz", "ga", "g3"}) {
    EXPECT_TRUE(fresh.find_game(id).has_value()) << id;
  }
  const Leaderboard board = fresh.leaderboard({.kind = BoardKind::score, .player_id = "amy"});
  EXPECT_EQ(board.entries.size(), 1u);  // a race's games are on no score board
  ASSERT_TRUE(board.me.has_value());
  EXPECT_EQ(board.me->score, 2048);
  const Leaderboard ratings = fresh.leaderboard({.kind = BoardKind::rating, .player_id = "amy"});
  ASSERT_EQ(ratings.entries.size(), 2u);
  EXPECT_EQ(ratings.entries[0].player_id, "zed");
  ASSERT_TRUE(ratings.me.has_value());
  EXPECT_EQ(ratings.me->rank, 2);
  // The same again changes nothing.
  for (const std::vector<Grant>& g : fresh.record_finished(items)) EXPECT_TRUE(g.empty());
  EXPECT_EQ(classic4_rating(*fresh.find_player("zed")), 1516);
}

TEST_F(RecorderTest, ADatabaseOfItsOwnAdoptsNothingAndAsksNothing) {
  recorder_.journal_races({{.id = "race-1", .room = "ROOM"}});
  log_.clear();
  EXPECT_TRUE(recorder_.adopt_races("another-node", "ws://x/ws").empty());
  EXPECT_TRUE(log_.statements.empty());
  EXPECT_EQ(recorder_.active_races().size(), 1u);
}

TEST_F(RecorderTest, TheSoloJournalJoinsItsPiecesUntilTheGameIsRecorded) {
  recorder_.journal({{.player_id = "amy", .game_id = "g1", .moves = "LU"}});
  recorder_.journal({{.player_id = "amy", .game_id = "g1", .moves = "RD", .from = 2}});
  recorder_.journal({{.player_id = "amy", .game_id = "g1", .moves = "xx", .from = 9}});  // a gap
  ASSERT_TRUE(recorder_.find_active("amy").has_value());
  EXPECT_EQ(recorder_.find_active("amy")->moves, "LURD");
  recorder_.record_game(game("g1", "amy", ""));
  EXPECT_FALSE(recorder_.find_active("amy").has_value());
  recorder_.journal({{.player_id = "amy", .game_id = "g1", .moves = "LURDL"}});  // too late
  EXPECT_FALSE(recorder_.find_active("amy").has_value());
}

}  // namespace
}  // namespace tilerace::server
