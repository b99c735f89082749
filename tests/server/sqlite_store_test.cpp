#include "server/sqlite_store.hpp"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "tests/temp_dir.hpp"

namespace tilerace::server {
namespace {

namespace fs = std::filesystem;

class SqliteStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = std::make_unique<SqliteStore>(file()); }
  void TearDown() override { store_.reset(); }
  fs::path file() const { return dir_.path() / "tilerace.db"; }

  void add(const std::string& id, const std::string& name) {
    store_->add_player({id, name, "hash-" + id, 1000});
  }
  static GameRecord game(const std::string& id, const std::string& player, std::int64_t score,
                         std::int64_t max_tile, int moves, std::int64_t ended_at,
                         engine::Mode mode = engine::Mode::classic) {
    GameRecord g;
    g.id = id;
    g.player_id = player;
    g.config = {mode, 4, mode == engine::Mode::fifteen ? 0 : 2048, 42};
    g.moves = "LURD";
    g.score = score;
    g.max_tile = max_tile;
    g.move_count = moves;
    g.state = mode == engine::Mode::fifteen ? engine::GameState::solved : engine::GameState::over;
    g.ranked = true;
    g.started_at = ended_at - 1000;
    g.ended_at = ended_at;
    return g;
  }
  Leaderboard board(const std::string& me = "", int limit = 10,
                    engine::Mode mode = engine::Mode::classic) {
    return store_->leaderboard({mode, 4, LeaderboardKind::score, limit, me});
  }

  testing::TempDir dir_;  // declared first: outlives the store
  std::unique_ptr<SqliteStore> store_;
};

TEST_F(SqliteStoreTest, PlayersRoundTripAndSurviveReopening) {
  add("p1", "ann");
  store_->add_player({"p1", "someone else", "other", 0});  // same id again: ignored
  auto p = store_->find_player("p1");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->name, "ann");
  EXPECT_EQ(p->token_hash, "hash-p1");
  EXPECT_EQ(p->rating, 1500);
  EXPECT_FALSE(store_->find_player("p2").has_value());
  store_.reset();
  store_ = std::make_unique<SqliteStore>(file());
  EXPECT_EQ(store_->find_player("p1")->name, "ann");
}

TEST_F(SqliteStoreTest, TheFileIsInWalModeWithTheCurrentSchema) {
  SQLite::Database db(file().string());
  EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
  EXPECT_EQ(db.execAndGet("PRAGMA user_version").getInt(), SqliteStore::kSchemaVersion);
  EXPECT_EQ(db.execAndGet("PRAGMA integrity_check").getString(), "ok");
}

TEST_F(SqliteStoreTest, ADatabaseFromANewerVersionIsRefused) {
  store_.reset();
  {
    SQLite::Database db(file().string(), SQLite::OPEN_READWRITE);
    db.exec("PRAGMA user_version = 99");
  }
  EXPECT_THROW(SqliteStore{file()}, std::runtime_error);
}

TEST_F(SqliteStoreTest, GamesAreRecordedOnceAndFoundById) {
  add("p1", "ann");
  const GameRecord g = game("g1", "p1", 1200, 128, 150, 5000);
  store_->record_game(g);
  GameRecord again = g;
  again.score = 1;  // a retry must not change or duplicate anything
  store_->record_game(again);
  const auto found = store_->find_game("g1");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->score, 1200);
  EXPECT_EQ(found->moves, "LURD");
  EXPECT_EQ(found->config.seed, 42u);
  SQLite::Database db(file().string());
  EXPECT_EQ(db.execAndGet("SELECT COUNT(*) FROM games").getInt(), 1);
}

TEST_F(SqliteStoreTest, ScoreBoardKeepsEachPlayersBestAndRanksTiesTogether) {
  for (const char* id : {"a", "b", "c", "d"}) add(id, std::string("name-") + id);
  store_->record_game(game("a1", "a", 500, 64, 90, 1));
  store_->record_game(game("a2", "a", 900, 128, 120, 2));  // a's best
  store_->record_game(game("a3", "a", 700, 128, 100, 3));
  store_->record_game(game("b1", "b", 900, 128, 110, 4));  // beats a: fewer moves
  store_->record_game(game("c1", "c", 900, 128, 120, 5));  // ties a exactly
  store_->record_game(game("d1", "d", 100, 16, 40, 6));
  GameRecord practice = game("d2", "d", 99999, 4096, 10, 7);
  practice.ranked = false;  // explicit seed or undo: not on the board
  store_->record_game(practice);
  GameRecord race = game("d3", "d", 99999, 4096, 10, 8);
  race.room = "ABCDEF";  // race games are not solo results
  store_->record_game(race);

  const Leaderboard top = board("d", 3);
  ASSERT_EQ(top.entries.size(), 3u);
  EXPECT_EQ(top.entries[0].player_id, "b");
  EXPECT_EQ(top.entries[0].rank, 1);
  EXPECT_EQ(top.entries[1].player_id, "a");  // a and c tie; the earlier result lists first
  EXPECT_EQ(top.entries[1].rank, 2);
  EXPECT_EQ(top.entries[1].game_id, "a2");
  EXPECT_EQ(top.entries[2].player_id, "c");
  EXPECT_EQ(top.entries[2].rank, 2);
  EXPECT_EQ(top.entries[2].name, "name-c");
  ASSERT_TRUE(top.me.has_value());  // outside the top 3, still with its rank
  EXPECT_EQ(top.me->player_id, "d");
  EXPECT_EQ(top.me->rank, 4);
  EXPECT_EQ(top.me->score, 100);
  EXPECT_EQ(board("c").me->rank, 2);
  EXPECT_FALSE(board("nobody").me.has_value());
  EXPECT_TRUE(store_->leaderboard({engine::Mode::classic, 5, LeaderboardKind::score, 10, ""})
                  .entries.empty());
}

TEST_F(SqliteStoreTest, FifteenBoardRanksFewestMovesAndOnlySolvedGames) {
  add("a", "ann");
  add("b", "bob");
  store_->record_game(game("a1", "a", 80, 0, 80, 1, engine::Mode::fifteen));
  store_->record_game(game("b1", "b", 60, 0, 60, 2, engine::Mode::fifteen));
  GameRecord gave_up = game("a2", "a", 5, 0, 5, 3, engine::Mode::fifteen);
  gave_up.state = engine::GameState::resigned;
  store_->record_game(gave_up);
  const Leaderboard top = board("a", 10, engine::Mode::fifteen);
  ASSERT_EQ(top.entries.size(), 2u);
  EXPECT_EQ(top.entries[0].player_id, "b");
  EXPECT_EQ(top.entries[1].moves, 80);
  EXPECT_EQ(top.me->rank, 2);
}

TEST_F(SqliteStoreTest, RacesUpdateRatingsOnceAndFeedTheRatingBoard) {
  add("a", "ann");
  add("b", "bob");
  add("c", "cid");  // never raced: not on the rating board
  RaceRecord race;
  race.id = "r1";
  race.room = "ABCDEF";
  race.reason = "target";
  race.winner = "a";
  race.result = "{}";
  race.games = {game("ga", "a", 300, 32, 40, 9), game("gb", "b", 200, 16, 40, 9)};
  race.games[0].room = race.games[1].room = "ABCDEF";
  race.ratings = {{"a", 1500, 1516, true, false}, {"b", 1500, 1484, false, true}};
  race.ended_at = 9;
  store_->record_race(race);
  store_->record_race(race);  // idempotent
  EXPECT_EQ(store_->find_player("a")->rating, 1516);
  EXPECT_EQ(store_->find_player("a")->wins, 1);
  EXPECT_EQ(store_->find_player("b")->losses, 1);
  EXPECT_TRUE(store_->find_game("gb").has_value());
  const Leaderboard ratings =
      store_->leaderboard({engine::Mode::classic, 4, LeaderboardKind::rating, 10, "b"});
  ASSERT_EQ(ratings.entries.size(), 2u);
  EXPECT_EQ(ratings.entries[0].player_id, "a");
  EXPECT_EQ(ratings.entries[0].rating, 1516);
  EXPECT_EQ(ratings.me->rank, 2);
  EXPECT_EQ(ratings.me->losses, 1);
  EXPECT_TRUE(board().entries.empty());  // race games never reach the score board
}

TEST_F(SqliteStoreTest, TheJournalKeepsTheLatestMovesUntilTheGameIsRecorded) {
  add("p", "ann");
  ActiveGameRecord a{"p", "g1", {engine::Mode::classic, 4, 2048, 7}, false, "LU", 100};
  store_->journal({a});
  a.moves = "LUR";
  store_->journal({a});
  auto found = store_->find_active("p");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->moves, "LUR");
  EXPECT_EQ(found->config.seed, 7u);
  store_->record_game(game("g1", "p", 8, 8, 3, 200));
  EXPECT_FALSE(store_->find_active("p").has_value());
  store_->journal({a});  // a late journal write of a finished game is ignored
  EXPECT_FALSE(store_->find_active("p").has_value());
}

TEST_F(SqliteStoreTest, TheJournalTakesASoloGameInPieces) {
  add("p", "ann");
  ActiveGameRecord a{"p", "g1", {engine::Mode::classic, 4, 2048, 7}, false, "LU", 100, 0};
  store_->journal({a});
  store_->journal({{"p", "g1", a.config, false, "RD", 100, 2}});
  store_->journal({{"p", "g1", a.config, false, "Z", 100, 4}});
  EXPECT_EQ(store_->find_active("p")->moves, "LURDZ");
  // A piece of another game, or one that does not continue the entry, is not joined.
  store_->journal({{"p", "g0", a.config, false, "LL", 100, 5}});
  store_->journal({{"p", "g1", a.config, false, "UU", 100, 9}});
  EXPECT_EQ(store_->find_active("p")->moves, "LURDZ");
  // A whole entry replaces the pieces: a new game starts from nothing.
  store_->journal({{"p", "g2", a.config, false, "D", 300, 0}});
  auto found = store_->find_active("p");
  EXPECT_EQ(found->game_id, "g2");
  EXPECT_EQ(found->moves, "D");
  store_->journal({{"p", "g2", a.config, false, "L", 300, 1}});
  EXPECT_EQ(store_->find_active("p")->moves, "DL");
  // Recording the game drops the entry and its pieces; a late whole entry of it changes nothing.
  store_->record_game(game("g2", "p", 8, 8, 2, 400));
  EXPECT_FALSE(store_->find_active("p").has_value());
  store_->journal({{"p", "g3", a.config, false, "U", 500, 0}});
  store_->journal({{"p", "g3", a.config, false, "R", 500, 1}});
  store_->journal({{"p", "g2", a.config, false, "DL", 300, 0}});
  EXPECT_EQ(store_->find_active("p")->moves, "UR");
}

}  // namespace
}  // namespace tilerace::server
