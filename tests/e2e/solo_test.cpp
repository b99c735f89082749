// Solo play against the real server: every `moved` is checked against the engine running the
// same seed locally, for every mode.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/game.hpp"
#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {
namespace {

json board_of(const engine::Game& g) {
  json rows = json::array();
  for (int r = 0; r < g.size(); ++r) {
    json row = json::array();
    for (int c = 0; c < g.size(); ++c) row.push_back(g.cell(r, c));
    rows.push_back(row);
  }
  return rows;
}

void expect_moved_matches(const json& moved, const engine::Game& local,
                          const engine::MoveOutcome& out) {
  ASSERT_EQ(moved["type"], "moved") << moved.dump();
  EXPECT_EQ(moved["changed"], out.changed);
  EXPECT_EQ(moved["board"], board_of(local));
  EXPECT_EQ(moved["score"], local.score());
  EXPECT_EQ(moved["moves"], local.moves());
  EXPECT_EQ(moved["max_tile"], local.max_tile());
  EXPECT_EQ(moved["state"], engine::to_string(local.state()));
  EXPECT_EQ(moved["won"], local.won());
  EXPECT_EQ(moved["gained"], out.gained);
  ASSERT_EQ(moved["motions"].size(), out.motions.size());
  for (std::size_t i = 0; i < out.motions.size(); ++i) {
    const auto& m = out.motions[i];
    EXPECT_EQ(moved["motions"][i], (json{{"from", {m.from.row, m.from.col}},
                                         {"to", {m.to.row, m.to.col}},
                                         {"value", m.value},
                                         {"merged", m.merged}}));
  }
  ASSERT_EQ(moved["spawned"].size(), out.spawned.size());
  for (std::size_t i = 0; i < out.spawned.size(); ++i) {
    EXPECT_EQ(moved["spawned"][i], (json{{"at", {out.spawned[i].at.row, out.spawned[i].at.col}},
                                         {"value", out.spawned[i].value}}));
  }
}

TEST(Solo, FullClassicGameToOverMatchesTheEngineMoveByMove) {
  ServerProcess server({"--rate", "100000"});
  WsClient client(server.port());
  client.hello("solo");
  const json game = client.request(
      {{"type", "new_game"}, {"size", 3}, {"target", 1024}, {"seed", "12345"}, {"rid", "ng"}});
  ASSERT_EQ(game["type"], "game");
  EXPECT_EQ(game["rid"], "ng");
  EXPECT_EQ(game["game"]["ranked"], false);  // explicit seed: practice game
  engine::Game local({engine::Mode::classic, 3, 1024, 12345});
  EXPECT_EQ(game["game"]["board"], board_of(local));

  const std::array<std::string, 4> dirs{"up", "down", "left", "right"};
  engine::MoveOutcome out;
  int sent = 0;
  while (local.state() == engine::GameState::playing && sent < 5000) {
    const int d = (sent * 7 + sent / 3) % 4;
    local.move(static_cast<engine::Direction>(d), out);
    const json moved = client.request({{"type", "move"}, {"dir", dirs[d]}, {"rid", sent}});
    EXPECT_EQ(moved["rid"], sent);
    expect_moved_matches(moved, local, out);
    if (HasFatalFailure()) return;
    ++sent;
  }
  ASSERT_EQ(local.state(), engine::GameState::over);
  // A finished game stays current: moves get game_over, the snapshot still shows it.
  const json after = client.request({{"type", "move"}, {"dir", "left"}});
  EXPECT_EQ(after["code"], "game_over");
  EXPECT_EQ(server.metric("tilerace_games_finished_total"), 1);
  // Its replay keeps when each move letter was played, from the game's start, in order.
  const json replay = json::parse(
      http_request(server.port(), "/api/replays/" + game["game"]["id"].get<std::string>()).body);
  ASSERT_EQ(replay["times"].size(), replay["moves"].get<std::string>().size());
  EXPECT_TRUE(std::is_sorted(replay["times"].begin(), replay["times"].end()));
  EXPECT_GE(replay["times"][0].get<std::int64_t>(), 0);
}

class SoloModes : public ::testing::TestWithParam<engine::Mode> {};

TEST_P(SoloModes, EveryModePlaysAsTheEngineSays) {
  ServerProcess server({"--rate", "100000"});
  WsClient client(server.port());
  client.hello("modes");
  const engine::Mode mode = GetParam();
  const int size = mode == engine::Mode::fifteen ? 4 : 5;
  const json game = client.request(
      {{"type", "new_game"}, {"mode", engine::to_string(mode)}, {"size", size}, {"seed", "777"}});
  ASSERT_EQ(game["type"], "game") << game.dump();
  engine::Game local({mode, size, mode == engine::Mode::fifteen ? 0 : 2048, 777});
  EXPECT_EQ(game["game"]["board"], board_of(local));
  EXPECT_EQ(game["game"]["mode"], engine::to_string(mode));
  const std::array<std::string, 4> dirs{"up", "down", "left", "right"};
  engine::MoveOutcome out;
  for (int i = 0; i < 200 && local.state() == engine::GameState::playing; ++i) {
    const int d = (i * 5 + i / 4) % 4;
    local.move(static_cast<engine::Direction>(d), out);
    expect_moved_matches(client.request({{"type", "move"}, {"dir", dirs[d]}}), local, out);
    if (HasFatalFailure()) return;
  }
  if (mode == engine::Mode::fifteen && local.state() == engine::GameState::playing) {
    // A slide of several tiles: the blank is somewhere; slide from its row's far end.
    int blank_r = 0, blank_c = 0;
    for (int r = 0; r < size; ++r)
      for (int c = 0; c < size; ++c)
        if (local.cell(r, c) == 0) blank_r = r, blank_c = c;
    const engine::Cell far{blank_r, blank_c < size / 2 ? size - 1 : 0};
    local.slide(far, out);
    const json moved = client.request({{"type", "slide"}, {"cell", {far.row, far.col}}});
    expect_moved_matches(moved, local, out);
    EXPECT_GE(moved["motions"].size(), 2u);
  }
}

INSTANTIATE_TEST_SUITE_P(AllModes, SoloModes,
                         ::testing::Values(engine::Mode::classic, engine::Mode::fixed_obstacle,
                                           engine::Mode::moving_obstacle, engine::Mode::fifteen),
                         [](const auto& info) {
                           std::string n(engine::to_string(info.param));
                           std::erase(n, '-');
                           return n;
                         });

TEST(Solo, UndoResignStaleAndNewGameRules) {
  ServerProcess server;
  WsClient client(server.port());
  client.hello("rules");
  EXPECT_EQ(client.request({{"type", "move"}, {"dir", "left"}})["code"], "no_game");
  EXPECT_EQ(client.request({{"type", "undo"}})["code"], "no_game");
  const json first = client.request({{"type", "new_game"}, {"seed", "5"}});
  const json start_board = first["game"]["board"];
  EXPECT_EQ(client.request({{"type", "undo"}})["code"], "not_allowed");  // nothing to undo
  EXPECT_EQ(client.request({{"type", "slide"}, {"cell", {0, 0}}})["code"], "not_allowed");

  json moved;
  for (const char* d : {"left", "right", "up", "down"}) {
    moved = client.request({{"type", "move"}, {"dir", d}});
    if (moved["changed"] == true) break;
  }
  ASSERT_EQ(moved["moves"], 1);
  // at_move that disagrees: nothing applied, error then snapshot.
  const json stale = client.request({{"type", "move"}, {"dir", "up"}, {"at_move", 0}, {"rid", 4}});
  EXPECT_EQ(stale["code"], "stale");
  EXPECT_EQ(stale["rid"], 4);
  const json snapshot = client.expect("game");
  EXPECT_EQ(snapshot["game"]["moves"], 1);
  EXPECT_EQ(snapshot["game"]["board"], moved["board"]);

  const json undone = client.request({{"type", "undo"}});
  EXPECT_EQ(undone["type"], "game");
  EXPECT_EQ(undone["game"]["board"], start_board);
  EXPECT_EQ(undone["game"]["moves"], 0);
  EXPECT_EQ(undone["game"]["score"], 0);
  EXPECT_EQ(undone["game"]["undos"], 1);
  EXPECT_EQ(undone["game"]["ranked"], false);

  // A new game while one is active resigns the old one; then resign the new one.
  const json second = client.request({{"type", "new_game"}});
  EXPECT_NE(second["game"]["id"], first["game"]["id"]);
  EXPECT_EQ(second["game"]["ranked"], true);
  EXPECT_TRUE(server.wait_for_metric("tilerace_games_finished_total", 1));
  const json resigned = client.request({{"type", "resign"}});
  EXPECT_EQ(resigned["game"]["state"], "resigned");
  EXPECT_EQ(client.request({{"type", "move"}, {"dir", "up"}})["code"], "game_over");
  EXPECT_EQ(client.request({{"type", "resign"}})["code"], "game_over");
  EXPECT_EQ(client.request({{"type", "undo"}})["code"], "game_over");
}

}  // namespace
}  // namespace tilerace::e2e
