// Ghost races with the real binary (docs/protocol.md, "Ghost races"): a recorded run raced
// again, its letters arriving at their recorded times on its seed, watched by spectators,
// changing no rating, and going on across a restart. The runs are written to the store before
// the server starts, with the times chosen here.
#include <gtest/gtest.h>
#include <signal.h>

#include "engine/game.hpp"
#include "protocol/encode.hpp"
#include "protocol/names.hpp"
#include "server/base/unix_time.hpp"
#include "server/rules/daily.hpp"
#include "server/rules/game_record.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/e2e/friend_steps.hpp"

namespace tilerace::e2e {
namespace {

using Clock = std::chrono::steady_clock;

const engine::GameConfig kRunConfig{engine::Mode::classic, 4, 2048, 2026};

// The board a game shows, as the server sends it.
json board_of(const engine::Game& game) {
  return json::parse(protocol::encode_race_update("X", "p", false, game, {}))["board"];
}

// Olga's recorded runs, stored in data before the server starts: "run" (letters changing moves,
// one every `every` ms from 300 ms), "undone" (with an undo) and "daily" (today's daily).
std::string record_runs(const std::filesystem::path& data, std::size_t letters, int every) {
  server::SqliteStore store(data / "tilerace.db");
  store.add_player({"olga", "olga-g", protocol::name_key("olga-g"), 1}, std::nullopt);
  engine::Game game(kRunConfig);
  server::MoveTimes times = std::vector<std::int32_t>{};
  for (int turn = 0; game.history().size() < letters; ++turn) {
    if (game.move(static_cast<engine::Direction>(turn % 4)).changed) {
      times->push_back(300 + every * static_cast<int>(times->size()));
    }
  }
  game.end(engine::GameState::resigned);
  const server::GameRecord run =
      server::game_record(game, "run", "olga", /*ranked=*/true, 1, 2, {}, times);
  store.record_game(run);
  server::GameRecord undone = run;
  undone.id = "undone";
  undone.moves = run.moves.substr(0, 1) + "Z" + run.moves.substr(0, 1);
  undone.times.clear();
  store.record_game(undone);
  server::GameRecord daily = run;
  daily.id = "daily";
  daily.ranked = false;
  daily.daily = server::day_of(server::unix_ms());
  store.record_game(daily);
  return run.moves;
}

// The ghost's race_updates read from ws until n have come (or the deadline passed), each with
// how long after `since` it arrived.
std::vector<std::pair<json, Clock::duration>> ghost_updates(WsClient& ws, std::size_t n,
                                                            Clock::time_point since,
                                                            std::chrono::milliseconds deadline) {
  std::vector<std::pair<json, Clock::duration>> got;
  const auto end = Clock::now() + deadline;
  while (got.size() < n && Clock::now() < end) {
    const auto m =
        ws.next(std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()));
    if (!m) break;
    if ((*m)["type"] == "race_update" && (*m)["player"] == "ghost-run") {
      got.emplace_back(*m, Clock::now() - since);
    }
  }
  return got;
}

TEST(GhostRace, ARecordedRunRacesAgainAtItsRecordedPace) {
  TempDir data;
  const std::string moves = record_runs(data.path(), 10, 150);  // 0.3 s … 1.65 s
  ServerProcess server({"--countdown", "0"}, TILERACE_WEB_ROOT, data.path());
  Racer pia(server.port(), "pia-g"), sam(server.port(), "sam-g");

  // What may not be raced.
  EXPECT_EQ(ask(pia.ws, {{"type", "create_room"}, {"ghost", "nothere"}})["code"], "no_such_game");
  EXPECT_EQ(ask(pia.ws, {{"type", "create_room"}, {"ghost", "daily"}})["code"], "not_allowed");
  EXPECT_EQ(ask(pia.ws, {{"type", "create_room"}, {"ghost", "undone"}})["code"], "not_allowed");
  EXPECT_EQ(ask(pia.ws, {{"type", "create_room"}, {"ghost", "run"}, {"bot", "easy"}})["field"],
            "ghost");
  EXPECT_TRUE(server.wait_for_metric("tilerace_errors_total{code=\"no_such_game\"}", 1));

  // The room takes the run's mode, size and target; the ghost is seated and ready.
  const json room =
      ask(pia.ws, {{"type", "create_room"}, {"ghost", "run"}, {"size", 6}, {"target", 64}})["room"];
  EXPECT_EQ(room["ghost"], "run");
  EXPECT_EQ(room["size"], 4);
  EXPECT_EQ(room["target"], 2048);
  const json seated = pia.ws.until("room")["room"];
  ASSERT_EQ(seated["players"].size(), 2u);
  EXPECT_EQ(seated["players"][1]["id"], "ghost-run");
  EXPECT_EQ(seated["players"][1]["name"], "olga-g (ghost)");
  EXPECT_EQ(seated["players"][1]["ghost"], true);
  const std::string code = room["code"];
  EXPECT_EQ(ask(sam.ws, {{"type", "spectate"}, {"code", code}})["type"], "room");

  pia.ws.send({{"type", "ready"}, {"ready", true}});
  const json start = pia.ws.until("race_start");
  const auto started = Clock::now();
  const json first = board_of(engine::Game(kRunConfig));
  EXPECT_EQ(start["games"][pia.id]["board"], first) << "the run's seed is the race's";
  EXPECT_EQ(start["games"]["ghost-run"]["board"], first);

  // Its first letters come at their recorded times: never early (the server's clock starts
  // before her race_start arrives), late only by the server's timer latency.
  const auto early = ghost_updates(pia.ws, 3, started, 10s);
  ASSERT_EQ(early.size(), 3u);
  for (std::size_t k = 0; k < early.size(); ++k) {
    const auto due = std::chrono::milliseconds(300 + 150 * static_cast<int>(k));
    EXPECT_GE(early[k].second, due - 50ms) << "letter " << k;
    EXPECT_LT(early[k].second, due + 1500ms) << "letter " << k;
    EXPECT_EQ(early[k].first["board"],
              board_of(*engine::replay(kRunConfig, moves.substr(0, k + 1), nullptr, false)));
  }
  // She plays two moves and resigns: the rest of the run plays out at once.
  json mine;
  int played = 0;
  for (int i = 0; played < 2 && i < 8; ++i) {
    mine = play(pia.ws, kDirs[i % 4]);
    played += mine["changed"] == true;
  }
  ASSERT_EQ(played, 2);
  ask(pia.ws, {{"type", "resign"}});
  const json over = pia.ws.until("race_over", 10s);
  EXPECT_EQ(over["reason"], "forfeit");
  EXPECT_EQ(over["winner"], "ghost-run");
  const engine::Game whole = *engine::replay(kRunConfig, moves, nullptr, false);
  EXPECT_EQ(over["ghost"]["game"], "run");
  EXPECT_EQ(over["ghost"]["player"], "olga");
  EXPECT_EQ(over["ghost"]["score"], whole.score());
  EXPECT_EQ(over["ghost"]["margins"][pia.id], mine["score"].get<std::int64_t>() - whole.score());
  EXPECT_EQ(over["ratings"][pia.id]["after"], 1500);
  EXPECT_EQ(over["replays"]["ghost-run"], "run");

  // The spectator saw every letter of the ghost, the last one the run's final board.
  const auto watched = ghost_updates(sam.ws, moves.size(), started, 10s);
  ASSERT_EQ(watched.size(), moves.size());
  EXPECT_EQ(watched.back().first["board"], board_of(whole));
  // Her race game is recorded on the run's seed; a replay of it gives her board.
  const json replay = json::parse(
      http_request(server.port(), "/api/replays/" + over["replays"][pia.id].get<std::string>())
          .body);
  EXPECT_EQ(replay["seed"], std::to_string(kRunConfig.seed));
  const auto hers = engine::replay(kRunConfig, replay["moves"].get<std::string>());
  ASSERT_TRUE(hers.has_value());
  EXPECT_EQ(board_of(*hers), mine["board"]);
  // No rating moved, and nobody joined the rating board.
  const json profile = json::parse(http_request(server.port(), "/api/players/" + pia.id).body);
  EXPECT_EQ(profile["rating"], 1500);
  EXPECT_TRUE(profile["rating_history"].empty()) << profile.dump();
  EXPECT_EQ(profile["races"].size(), 1u) << "her race game is in her history";
}

TEST(GhostRace, AGhostRaceGoesOnAfterARestart) {
  TempDir data;
  // 0.3 s … 17.7 s: the run outlasts a restart under load (its letters due meanwhile play at
  // once when the race comes back; some must be left to come while she watches).
  const std::string moves = record_runs(data.path(), 30, 600);
  std::string id, token, code;
  {
    ServerProcess server({"--countdown", "0"}, TILERACE_WEB_ROOT, data.path());
    Racer pia(server.port(), "pia-r");
    id = pia.id;
    token = pia.token;
    code = ask(pia.ws, {{"type", "create_room"}, {"ghost", "run"}})["room"]["code"];
    pia.ws.send({{"type", "ready"}, {"ready", true}});
    const auto started = Clock::now();
    pia.ws.until("race_start");
    ASSERT_EQ(ghost_updates(pia.ws, 3, started, 10s).size(), 3u);
    ASSERT_EQ(server.stop(SIGTERM), 0);  // the journal keeps the race
  }
  ServerProcess server({"--countdown", "0"}, TILERACE_WEB_ROOT, data.path());
  json welcome;
  Racer pia(server.port(), id, token, welcome);
  const json state = pia.ws.until("race_state");
  EXPECT_EQ(state["code"], code);
  ASSERT_TRUE(state["games"].contains("ghost-run")) << state.dump();
  EXPECT_GE(state["games"]["ghost-run"]["moves"], 3);
  // The ghost goes on with its run; when she resigns, it plays the rest.
  const auto more = ghost_updates(pia.ws, 1, Clock::now(), 10s);
  ASSERT_EQ(more.size(), 1u);
  ask(pia.ws, {{"type", "resign"}});
  const json over = pia.ws.until("race_over", 10s);
  EXPECT_EQ(over["ghost"]["score"], engine::replay(kRunConfig, moves, nullptr, false)->score());
  EXPECT_EQ(over["winner"], "ghost-run");
}

}  // namespace
}  // namespace tilerace::e2e
