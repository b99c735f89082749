// The SQLite dialect's statements read through their indexes: none scans a table that grows
// with play (games, players, results, attempts, journals), which would cost more with every
// game recorded.
#include "server/store/sqlite_dialect.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

namespace tilerace::server {
namespace {

// The steps of plan that read a whole table (json_each reads the statement's own argument, a
// list of what is asked for).
std::string full_scans(const std::string& plan) {
  std::istringstream steps(plan);
  std::string scans;
  for (std::string step; std::getline(steps, step);) {
    if (step.starts_with("SCAN ") && step.find(" USING ") == std::string::npos &&
        step.find("CONSTANT ROW") == std::string::npos &&
        step.find("SCAN json_each VIRTUAL TABLE") == std::string::npos) {
      scans.append(step).append("; ");
    }
  }
  return scans;
}

TEST(SqliteDialectPlans, NoStatementScansATableThatGrowsWithPlay) {
  SqliteDialect dialect(":memory:");
  // Scans bounded by what is going on now, not by history: the running races and their
  // racers, the bans, the open reports; the operator's search for a part of a name, which no
  // index serves; a ban taking a player off every board, an operator's rare act that reads
  // the boards' rows once (an index by player would cost every finished game a write); and the
  // rank cache's fill at start, which is meant to read every board row; and keying every
  // name again when the rules of names changed (its one-row version too).
  const std::set<Sql> bounded = {Sql::select_races, Sql::race_room_of, Sql::expired_bans,
                                 Sql::banned_players, Sql::select_reports, Sql::search_players,
                                 Sql::delete_bests, Sql::all_bests,
                                 // keying every name again: at open, when the rules changed
                                 Sql::clear_name_keys, Sql::name_keys_version};
  for (std::size_t i = 0; i < kSqlCount; ++i) {
    const auto statement = static_cast<Sql>(i);
    if (bounded.contains(statement)) continue;
    EXPECT_EQ(full_scans(dialect.plan(statement)), "") << "statement " << i;
  }
  // The three that did: a finished game's journal entry, the sweep's games to analyse, and a
  // profile's daily days.
  EXPECT_NE(dialect.plan(Sql::delete_active).find("SEARCH active_games USING INDEX"),
            std::string::npos);
  EXPECT_NE(dialect.plan(Sql::unanalysed_games).find("USING INDEX games_to_analyse"),
            std::string::npos);
  EXPECT_NE(dialect.plan(Sql::daily_days).find("daily_attempts_by_player"), std::string::npos);
}

TEST(SqliteDialectPlans, EachBoardReadsItsOwnPartialIndexInOrder) {
  SqliteDialect dialect(":memory:");
  // Each index holds only its board's rows (schema 15), so each board's query must say so to
  // be allowed to read it; otherwise it would sort every row of the period itself.
  const std::string scores = dialect.plan(Sql::top_2048);
  EXPECT_NE(scores.find("USING INDEX period_by_score"), std::string::npos) << scores;
  EXPECT_EQ(scores.find("TEMP B-TREE"), std::string::npos) << scores;
  const std::string moves = dialect.plan(Sql::top_fifteen);
  EXPECT_NE(moves.find("USING INDEX period_by_moves"), std::string::npos) << moves;
  EXPECT_EQ(moves.find("TEMP B-TREE"), std::string::npos) << moves;
}

}  // namespace
}  // namespace tilerace::server
