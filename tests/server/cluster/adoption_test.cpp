// The pure steps of an adoption: a race from the store's journal brought up to what the move
// journal holds (merge_moves), and its rebuilt games checked against the journal (mismatches).
#include "server/cluster/adoption.hpp"

#include <gtest/gtest.h>

#include "server/rules/game_check.hpp"

namespace tilerace::server {
namespace {

ActiveRaceRecord race_of(std::vector<std::string> moves) {
  ActiveRaceRecord race;
  race.id = "r1";
  for (std::size_t i = 0; i < moves.size(); ++i) {
    std::string player = "p";
    player += std::to_string(i);
    race.racers.push_back({player, "g", moves[i], engine::GameState::playing, false});
  }
  return race;
}

TEST(MergeMoves, TheMoveJournalExtendsWhatContinuesTheStoresMoves) {
  ActiveRaceRecord race = race_of({"LU", "LU", "LU", "", "LUR"});
  merge_moves(race, {std::string("LURD"),  // two moves the store had not yet
                     std::string("LU!"),   // resigned after the store's last pass
                     std::nullopt,         // nothing in the move journal
                     std::string("RR"),    // a young race: the store had no moves yet
                     std::string("LU")});  // behind the store (it missed a move): the store's
  EXPECT_EQ(race.racers[0].moves, "LURD");
  EXPECT_EQ(race.racers[0].state, engine::GameState::playing);
  EXPECT_EQ(race.racers[1].moves, "LU");
  EXPECT_EQ(race.racers[1].state, engine::GameState::resigned);
  EXPECT_EQ(race.racers[2].moves, "LU");
  EXPECT_EQ(race.racers[3].moves, "RR");
  EXPECT_EQ(race.racers[4].moves, "LUR");
}

TEST(MergeMoves, AMoveJournalThatDoesNotContinueTheStoresIsIgnored) {
  ActiveRaceRecord race = race_of({"LUR", "LU"});
  merge_moves(race, {std::string("LDRD"), std::string("UL!")});
  EXPECT_EQ(race.racers[0].moves, "LUR");
  EXPECT_EQ(race.racers[1].moves, "LU");
  EXPECT_EQ(race.racers[1].state, engine::GameState::playing);
  merge_moves(race, {});  // fewer entries than racers: nothing changes
  EXPECT_EQ(race.racers[0].moves, "LUR");
}

TEST(Mismatches, ARebuiltGameIsComparedWithTheCheckOfItsMoveCount) {
  engine::Game game({engine::Mode::classic, 4, 2048, 77}, false);
  for (const auto d : {engine::Direction::left, engine::Direction::up, engine::Direction::right}) {
    game.move(d);
  }
  const std::string check = game_check(game);
  EXPECT_EQ(mismatches({check, check}, {check, std::nullopt}), 0u);
  EXPECT_EQ(mismatches({check, check}, {check, check}), 0u);
  // The same move count, another board or score: a mismatch.
  std::string wrong = check;
  wrong.back() = wrong.back() == '0' ? '1' : '0';
  EXPECT_EQ(mismatches({check, check}, {check, wrong}), 1u);
  // A check of another move count is not compared (those moves were not taken), nor a racer
  // without a rebuilt game.
  EXPECT_EQ(mismatches({check}, {"99:0:0000000000000000", wrong}), 0u);
}

}  // namespace
}  // namespace tilerace::server
