// The solo rules as a core: each test gives a game, a message and a time, and reads the
// effects and the game that result. Nothing is sent, recorded or counted here.
#include "server/rules/solo_rules.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tilerace::server {
namespace {

using engine::Direction;

// The `type` of each reply, in order.
std::vector<std::string> types(const SoloEffects& fx) {
  std::vector<std::string> out;
  for (const std::string& r : fx.replies) out.push_back(nlohmann::json::parse(r).at("type"));
  return out;
}

SoloGame classic(std::uint64_t seed = 7, std::int64_t target = 2048) {
  return solo_start({.config = {engine::Mode::classic, 4, target, 0}}, "g1", seed, 1'000);
}

protocol::Move move(Direction d, std::optional<std::int32_t> at = std::nullopt) { return {d, at}; }

// A direction that changes game's board (every board still playing has one).
Direction changing(const engine::Game& game) {
  for (Direction d : {Direction::left, Direction::right, Direction::up, Direction::down}) {
    engine::Game probe = game;
    engine::MoveOutcome out;
    probe.move(d, out);
    if (out.changed) return d;
  }
  ADD_FAILURE() << "no move changes the board";
  return Direction::left;
}

TEST(SoloRules, WithoutAGameEveryMessageIsNoGame) {
  const SoloEffects fx = solo_turn(nullptr, "p1", move(Direction::left), {}, 5'000);
  EXPECT_EQ(fx.error, protocol::ErrorCode::no_game);
  EXPECT_EQ(types(fx), std::vector<std::string>{"error"});
  EXPECT_FALSE(fx.finished.has_value());
  EXPECT_FALSE(fx.changed);
}

TEST(SoloRules, AMoveThatChangesTheBoardIsAnsweredMovedAndMarksTheJournal) {
  SoloGame solo = classic();
  const Direction d = changing(solo.game);
  const SoloEffects fx = solo_turn(&solo, "p1", move(d, 0), 7, 5'000);
  EXPECT_EQ(types(fx), std::vector<std::string>{"moved"});
  EXPECT_EQ(nlohmann::json::parse(fx.replies[0]).at("rid"), 7);
  EXPECT_TRUE(fx.moved);
  EXPECT_TRUE(fx.changed);
  EXPECT_EQ(fx.before, 0u);
  EXPECT_EQ(solo.game.history().size(), 1u);
  EXPECT_FALSE(fx.finished.has_value());
}

TEST(SoloRules, AStaleMoveIsRefusedWithASnapshotAndChangesNothing) {
  SoloGame solo = classic();
  const SoloEffects fx = solo_turn(&solo, "p1", move(Direction::left, 5), {}, 5'000);
  EXPECT_EQ(fx.error, protocol::ErrorCode::stale);
  EXPECT_EQ(types(fx), (std::vector<std::string>{"error", "game"}));
  EXPECT_FALSE(fx.changed);
  EXPECT_TRUE(solo.game.history().empty());
}

TEST(SoloRules, UndoTakesAMoveBackOrSaysThereIsNothingToUndo) {
  SoloGame solo = classic();
  EXPECT_EQ(solo_turn(&solo, "p1", protocol::Undo{}, {}, 5'000).error,
            protocol::ErrorCode::not_allowed);
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 5'000);
  const SoloEffects fx = solo_turn(&solo, "p1", protocol::Undo{}, {}, 6'000);
  EXPECT_EQ(types(fx), std::vector<std::string>{"game"});
  EXPECT_TRUE(fx.changed);
  EXPECT_FALSE(solo.ranked());  // an undo unranks the game
}

TEST(SoloRules, ResigningFinishesTheGameAtTheTimeGiven) {
  SoloGame solo = classic();
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 5'000);
  const SoloEffects fx = solo_turn(&solo, "p1", protocol::Resign{}, {}, 9'000);
  ASSERT_TRUE(fx.finished.has_value());
  EXPECT_EQ(fx.finished->state, engine::GameState::resigned);
  EXPECT_EQ(fx.finished->player_id, "p1");
  EXPECT_EQ(fx.finished->id, "g1");
  EXPECT_EQ(fx.finished->started_at, 1'000);
  EXPECT_EQ(fx.finished->ended_at, 9'000);
  EXPECT_EQ(fx.finished->moves, solo.game.history());
  EXPECT_TRUE(fx.finished->ranked);
  EXPECT_EQ(fx.before, 1u);
  // An ended game takes nothing more.
  EXPECT_EQ(solo_turn(&solo, "p1", move(Direction::left), {}, 9'500).error,
            protocol::ErrorCode::game_over);
}

TEST(SoloRules, TheMoveThatReachesTheTargetFinishesAndCanBeTakenBack) {
  SoloGame solo = classic(7, 8);  // a tiny target: reached within a few dozen moves
  SoloEffects fx;
  for (int i = 0; i < 500 && !fx.finished; ++i) {
    fx = solo_turn(&solo, "p1", move(changing(solo.game)), {}, 5'000 + i);
  }
  ASSERT_TRUE(fx.finished.has_value());
  EXPECT_NE(fx.finished->state, engine::GameState::playing);
  EXPECT_EQ(types(fx), std::vector<std::string>{"moved"});
  // The record failed: the game goes back to before that move, playing again.
  const std::string history = solo.game.history();
  solo.journaled = history.size();
  ASSERT_TRUE(take_back(solo, fx.before));
  EXPECT_EQ(solo.game.state(), engine::GameState::playing);
  EXPECT_EQ(solo.game.history(), history.substr(0, fx.before));
  EXPECT_EQ(solo.journaled, 0u);  // the journal is rewritten whole
}

TEST(SoloRules, ANewGameUsesTheSeedGivenUnlessItNamesItsOwn) {
  EXPECT_EQ(classic(99).game.config().seed, 99u);
  const SoloGame chosen = solo_start(
      {.config = {engine::Mode::classic, 4, 2048, 5}, .explicit_seed = true}, "g2", 99, 0);
  EXPECT_EQ(chosen.game.config().seed, 5u);
  EXPECT_FALSE(chosen.ranked());
}

TEST(SoloRules, ReplacingAGameRecordsItResignedUnlessItHadEnded) {
  SoloGame solo = classic();
  const auto ended = solo_replaced(solo, "p1", 3'000);
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->state, engine::GameState::resigned);
  EXPECT_EQ(ended->ended_at, 3'000);
  solo_turn(&solo, "p1", protocol::Resign{}, {}, 4'000);
  EXPECT_FALSE(solo_replaced(solo, "p1", 5'000).has_value());
}

TEST(SoloRules, EveryMoveLetterKeepsItsTimeFromTheStartUndoIncluded) {
  SoloGame solo = classic();  // started at 1'000
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 1'100);
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 1'350);
  solo_turn(&solo, "p1", protocol::Undo{}, {}, 2'000);
  ASSERT_EQ(solo.game.history().size(), 3u);  // two moves and a Z
  EXPECT_EQ(solo.times, (std::vector<std::int32_t>{100, 350, 1'000}));
  const SoloEffects fx = solo_turn(&solo, "p1", protocol::Resign{}, {}, 2'500);
  ASSERT_TRUE(fx.finished);
  EXPECT_EQ(fx.finished->times, (std::vector<std::int32_t>{100, 350, 1'000}));
  // Taken back, the times go with the moves; a game whose times are unknown records none.
  ASSERT_TRUE(take_back(solo, 1));
  EXPECT_EQ(solo.times, (std::vector<std::int32_t>{100}));
  solo.times.reset();
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 3'000);
  EXPECT_TRUE(solo_turn(&solo, "p1", protocol::Resign{}, {}, 3'100).finished->times.empty());
}

TEST(SoloRules, ADailyGameHasNoUndoAndEndsWithItsDay) {
  SoloGame solo = classic();
  solo.daily = "1970-01-01";
  solo.daily_ranked = true;
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 2'000);
  const SoloEffects undo = solo_turn(&solo, "p1", protocol::Undo{}, {}, 3'000);
  EXPECT_EQ(undo.error, protocol::ErrorCode::not_allowed);
  // The next day: the message is not played, the attempt ends as it stood.
  const auto moves = solo.game.moves();
  const SoloEffects late = solo_turn(&solo, "p1", move(changing(solo.game)), {}, 86'400'000);
  EXPECT_EQ(late.error, protocol::ErrorCode::game_over);
  ASSERT_TRUE(late.finished);
  EXPECT_EQ(late.finished->state, engine::GameState::resigned);
  EXPECT_EQ(late.finished->move_count, moves);
  EXPECT_EQ(late.finished->daily, "1970-01-01");
  EXPECT_TRUE(late.finished->ranked);
  EXPECT_EQ(late.finished->ended_at, 86'399'999) << "at its day's last millisecond";
  EXPECT_EQ(nlohmann::json::parse(late.replies.back())["game"]["day_over"], true);
}

// Signing in after the day (solo_day_over, on the clock given): the attempt ends as it stood,
// marked day_over, with its times, and is never handed back as playing; a game of today, or
// one not daily, is left as it is.
TEST(SoloRules, ADailyOpenAfterItsDayEndsAsItStoodWithItsTimes) {
  SoloGame solo = classic();
  solo.daily = "1970-01-01";
  solo.daily_ranked = true;
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 2'000);
  solo_turn(&solo, "p1", move(changing(solo.game)), {}, 5'000);
  EXPECT_FALSE(solo_day_over(solo, "p1", 86'399'999).has_value()) << "still its day";
  const std::optional<GameRecord> ended = solo_day_over(solo, "p1", 86'400'000);
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->state, engine::GameState::resigned);
  EXPECT_EQ(ended->ended_at, 86'399'999);
  EXPECT_EQ(ended->times, (std::vector<std::int32_t>{1'000, 4'000}));
  EXPECT_TRUE(solo.day_over);
  const nlohmann::json shown = nlohmann::json::parse(solo_snapshot(solo, {}))["game"];
  EXPECT_EQ(shown["state"], "resigned");
  EXPECT_EQ(shown["day_over"], true);
  EXPECT_FALSE(solo_day_over(solo, "p1", 90'000'000).has_value()) << "ended once";
  SoloGame plain = classic();
  EXPECT_FALSE(solo_day_over(plain, "p1", 90'000'000).has_value());
  // Taken back (its record failed): playing again, no longer marked.
  ASSERT_TRUE(take_back(solo, solo.game.history().size()));
  EXPECT_FALSE(solo.day_over);
}

}  // namespace
}  // namespace tilerace::server
