// Ghost races (docs/protocol.md, "Ghost races"): the ghost plays a recorded run's letters at
// their recorded times on the injected clock, on the run's seed; a ghost race changes no rating.
#include <gtest/gtest.h>

#include <memory>

#include "server/rules/ghost_run.hpp"
#include "tests/server/rules/race_rules.hpp"

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;
using namespace testing;

// The board a game shows, as a race_update carries it.
json board_of(const engine::Game& game) {
  return json::parse(protocol::encode_race_update("X", "p", false, game, {}))["board"];
}

// A recorded classic 4x4 run of `letters` changing moves on seed 42, without times.
GhostRun recorded_run(std::size_t letters) {
  GhostRun run{.game_id = "0123456789abcdef",
               .player_id = "owner",
               .name = "Olga",
               .rating = {{1620, 80, 0.06}, 1},
               .config = {engine::Mode::classic, 4, 2048, 42}};
  engine::Game game(run.config, /*undo=*/false);
  for (int turn = 0; run.moves.size() < letters; ++turn) {
    if (game.move(static_cast<engine::Direction>(turn % 4)).changed) {
      run.moves = game.history();
    }
  }
  return run;
}

// The run's game after its first k letters.
engine::Game after(const GhostRun& run, std::size_t k) {
  return *engine::replay(run.config, run.moves.substr(0, k), nullptr, /*undo=*/false);
}

struct GhostFixture : ::testing::Test {
  Metrics metrics;
  Owner owner;
  Member a{"a"};
  GhostRun run = recorded_run(6);

  Rules make() {
    protocol::RoomOptions o = options();
    o.target = run.config.target;
    return Rules(
        RaceState("GHOST1", o, with_server_clocks({3, 10}), std::make_shared<const GhostRun>(run)),
        owner, metrics);
  }
  // a joins, the ghost takes its seat, a is ready: the race starts at t0 + 3 s.
  Rules racing() {
    Rules race = make();
    race.join(a.player, *a.out, {});
    race.seat_ghost();
    race.set_ready(*a.player, true, *a.out, {}, t0);
    race.tick(t0 + 3s);
    return race;
  }
  // The ghost's race_updates among msgs.
  std::vector<json> ghost_updates(const std::vector<json>& msgs) {
    std::vector<json> out;
    for (const json& m : msgs) {
      if (m["type"] == "race_update" && m["player"] == ghost_player_id(run.game_id)) {
        out.push_back(m);
      }
    }
    return out;
  }
};

TEST_F(GhostFixture, TheGhostIsARacerAlwaysReadyNeverHost) {
  Rules race = make();
  race.join(a.player, *a.out, {});
  race.seat_ghost();
  const json room = a.out->take().back()["room"];
  EXPECT_EQ(room["ghost"], run.game_id);
  EXPECT_EQ(room["host"], "a");
  ASSERT_EQ(room["players"].size(), 2u);
  EXPECT_EQ(room["players"][1]["id"], "ghost-0123456789abcdef");
  EXPECT_EQ(room["players"][1]["name"], "Olga (ghost)");
  EXPECT_EQ(room["players"][1]["ready"], true);
  EXPECT_EQ(room["players"][1]["ghost"], true);
  EXPECT_FALSE(room["players"][0].contains("ghost"));
  // Her ready starts the countdown: the ghost is ready already.
  race.set_ready(*a.player, true, *a.out, {}, t0);
  EXPECT_EQ(a.out->take().back()["type"], "countdown");
  // The last person out closes the room: the ghost keeps nobody's room open.
  race.leave(*a.player, *a.out, {}, t0 + 1s);
  EXPECT_TRUE(race.closed());
}

TEST_F(GhostFixture, TheGhostPlaysTheRunAtItsRecordedTimesOnItsSeed) {
  run.times = {500, 900, 900, 2000, 2500, 4000};
  Rules race = make();
  race.join(a.player, *a.out, {});
  race.seat_ghost();
  auto watcher = std::make_shared<FakeParticipant>();
  ASSERT_TRUE(race.add_spectator(watcher, {}, t0));
  race.set_ready(*a.player, true, *a.out, {}, t0);
  race.tick(t0 + 3s);
  const json start = a.out->take().back();
  ASSERT_EQ(start["type"], "race_start");
  // Everyone starts from the run's first board: its seed is the race's.
  const json first = board_of(engine::Game(run.config, false));
  EXPECT_EQ(start["games"]["a"]["board"], first);
  EXPECT_EQ(start["games"]["ghost-0123456789abcdef"]["board"], first);
  watcher->take();

  EXPECT_EQ(race.next_deadline(), t0 + 3s + 500ms);
  race.tick(t0 + 3s + 499ms);
  EXPECT_TRUE(a.out->take().empty());
  race.tick(t0 + 3s + 500ms);
  std::vector<json> got = ghost_updates(a.out->take());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["board"], board_of(after(run, 1)));
  // Two letters played at the same moment come at that moment, one update each.
  EXPECT_EQ(race.next_deadline(), t0 + 3s + 900ms);
  race.tick(t0 + 3s + 900ms);
  EXPECT_EQ(ghost_updates(a.out->take()).size(), 2u);
  race.tick(t0 + 3s + 10s);
  got = ghost_updates(a.out->take());
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got.back()["board"], board_of(after(run, 6)));
  // Spectators see the ghost like any racer.
  EXPECT_EQ(ghost_updates(watcher->take()).size(), 6u);
  // The run is over; the race goes on to its time limit while she plays.
  EXPECT_EQ(race.next_deadline(), t0 + 3s + 60s);
  EXPECT_FALSE(race.take_result().has_value());
}

TEST_F(GhostFixture, ARunWithoutTimesIsPlayedAtTheSteadyPace) {
  Rules race = racing();
  a.out->take();
  EXPECT_EQ(race.next_deadline(), t0 + 3s + kGhostPace);
  race.tick(t0 + 3s + kGhostPace);
  EXPECT_EQ(ghost_updates(a.out->take()).size(), 1u);
  EXPECT_EQ(race.next_deadline(), t0 + 3s + 2 * kGhostPace);
}

TEST_F(GhostFixture, WhenNobodyIsLeftTheRunPlaysOutAndTheResultSaysByHowMuch) {
  // The last letter is due after the time limit: it is never played.
  run.times = {500, 900, 900, 2000, 2500, 70'000};
  Rules race = racing();
  race.tick(t0 + 3s + 1s);
  a.out->take();
  race.play(*a.player, *a.out, protocol::Resign{}, {}, t0 + 3s + 1s);
  EXPECT_EQ(ghost_updates(a.out->take()).size(), 2u);  // the letters due by the limit, at once
  std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->record.reason, "forfeit");
  EXPECT_EQ(result->record.winner, "ghost-0123456789abcdef");
  // Her game is recorded; the run is not recorded again; nobody's rating moves.
  ASSERT_EQ(result->record.games.size(), 1u);
  EXPECT_EQ(result->record.games[0].player_id, "a");
  EXPECT_EQ(result->record.games[0].config.seed, 42u);
  EXPECT_TRUE(result->record.ratings.empty());
  EXPECT_TRUE(result->record.against_bots.empty());
  race.recorded(*result, {});
  const std::vector<json> got = a.out->take();
  ASSERT_EQ(got.at(0)["type"], "race_over");
  const json& over = got[0];
  const std::int64_t ghost_score = after(run, 5).score();
  EXPECT_EQ(over["ghost"]["game"], run.game_id);
  EXPECT_EQ(over["ghost"]["player"], "owner");
  EXPECT_EQ(over["ghost"]["name"], "Olga");
  EXPECT_EQ(over["ghost"]["score"], ghost_score);
  EXPECT_EQ(over["ghost"]["margins"]["a"], 0 - ghost_score);
  EXPECT_EQ(over["ratings"]["a"]["before"], over["ratings"]["a"]["after"]);
  EXPECT_EQ(over["replays"]["ghost-0123456789abcdef"], run.game_id);
  EXPECT_EQ(rating_of(*a.player), 1500);
  // Back to waiting: the ghost is ready for a rematch.
  EXPECT_EQ(got.back()["room"]["players"][1]["ready"], true);
}

TEST_F(GhostFixture, ARematchRacesTheSameRunAgain) {
  Rules race = racing();
  race.play(*a.player, *a.out, protocol::Resign{}, {}, t0 + 4s);
  race.recorded(*race.take_result(), {});
  a.out->take();
  race.set_ready(*a.player, true, *a.out, {}, t0 + 10s);
  race.tick(t0 + 13s);
  const json start = a.out->take().back();
  ASSERT_EQ(start["type"], "race_start");
  EXPECT_EQ(start["games"]["ghost-0123456789abcdef"]["board"],
            board_of(engine::Game(run.config, false)));
  EXPECT_EQ(race.next_deadline(), t0 + 13s + kGhostPace);
}

TEST_F(GhostFixture, ARestoredGhostRaceCatchesUpWithItsRun) {
  run.times = {500, 900, 900, 2000, 2500, 4000};
  Rules race = racing();
  race.tick(t0 + 3s + 1s);
  std::optional<ActiveRaceRecord> record = race.active_record(t0 + 3s + 1s);
  ASSERT_TRUE(record.has_value());
  ASSERT_EQ(record->racers.size(), 2u);
  EXPECT_EQ(record->racers[1].player_id, "ghost-0123456789abcdef");
  EXPECT_EQ(record->racers[1].moves, run.moves.substr(0, 3));
  // The journal kept only its first letter: the rest due by then is played at once.
  record->racers[1].moves = run.moves.substr(0, 1);
  const Time later = t0 + 100h;
  Owner other;
  std::optional<Rules> back = Rules::restore(*record, {a.player, nullptr}, {3, 10}, metrics, other,
                                             later, std::make_shared<const GhostRun>(run));
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->summary().players.size(), 2u);
  EXPECT_TRUE(back->summary().players[1].ghost);
  EXPECT_EQ(back->active_record(later)->racers[1].moves, run.moves.substr(0, 3));
  // 1 s of the race had gone: the next letter (at 2 s) is 1 s away.
  EXPECT_EQ(back->next_deadline(), later + 1s);
  back->tick(later + 1s);
  EXPECT_EQ(back->active_record(later + 1s)->racers[1].moves, run.moves.substr(0, 4));
}

TEST(GhostRun, WhichGamesMayBeRaced) {
  GameRecord game{.id = "g", .player_id = "p", .moves = "LURD"};
  EXPECT_FALSE(ghost_refusal(game, "2026-11-25").has_value());
  game.daily = "2026-11-24";
  EXPECT_FALSE(ghost_refusal(game, "2026-11-25").has_value());  // its day is over
  game.daily = "2026-11-25";
  const auto today = ghost_refusal(game, "2026-11-25");
  ASSERT_TRUE(today.has_value());
  EXPECT_EQ(today->code, protocol::ErrorCode::not_allowed);
  game.daily.clear();
  game.moves = "LUZD";
  EXPECT_TRUE(ghost_refusal(game, "2026-11-25").has_value());  // undone: a race has no undo
}

TEST(GhostRun, TheGhostsIdNamesTheRun) {
  EXPECT_EQ(ghost_player_id("abc"), "ghost-abc");
  EXPECT_EQ(ghost_of_player_id("ghost-abc"), "abc");
  EXPECT_EQ(ghost_of_player_id("ghost-"), std::nullopt);
  EXPECT_EQ(ghost_of_player_id("bot-hard"), std::nullopt);
  GhostRun run{.moves = "LUR"};
  EXPECT_EQ(run.due(0), kGhostPace);
  EXPECT_EQ(run.due(2), 3 * kGhostPace);
  run.times = {5, 6, 7};
  EXPECT_EQ(run.due(2), 7ms);
}

}  // namespace
}  // namespace tilerace::server
