// Racing the computer against the real server: the bot plays only legal moves at its pace,
// spectators see it like anyone, the race ends by the usual rules without touching ratings,
// it goes on after a restart, and quick match falls back to it after the wait.
#include <gtest/gtest.h>
#include <signal.h>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {
namespace {

TEST(BotRace, TheComputerRacesToTheTargetAndNoRatingChanges) {
  ServerProcess server({"--countdown", "0", "--bot-moves-per-second", "40"});
  Racer ann(server.port(), "ann");
  WsClient spectator(server.port());
  spectator.hello("watcher");
  // The reply lists the creator; the computer's seat follows as a room update.
  EXPECT_EQ(create_room(ann, {{"bot", "easy"}, {"target", 64}, {"public", true}})["players"].size(),
            1u);
  const json room = ann.ws.until("room")["room"];
  ASSERT_EQ(room["players"].size(), 2u);
  EXPECT_EQ(room["host"], ann.id);
  EXPECT_EQ(room["players"][1]["id"], "bot-easy");
  EXPECT_EQ(room["players"][1]["name"], "Computer (easy)");
  EXPECT_EQ(room["players"][1]["ready"], true);
  spectator.send({{"type", "spectate"}, {"code", room["code"]}});
  spectator.until("room");
  start_race({&ann});

  // Every update of the bot is one more legal move; the race ends when it reaches 64.
  std::vector<json> seen;
  const json over = spectator.until("race_over", 30s, &seen);
  int last_moves = 0;
  for (const json& m : seen) {
    if (m["type"] != "race_update" || m["player"] != "bot-easy") continue;
    EXPECT_EQ(m["moves"], last_moves + 1) << m.dump();
    last_moves = m["moves"];
  }
  EXPECT_GT(last_moves, 10);
  EXPECT_EQ(over["reason"], "target");
  EXPECT_EQ(over["winner"], "bot-easy");
  for (const auto& [id, r] : over["ratings"].items()) EXPECT_EQ(r["before"], r["after"]) << id;
  EXPECT_EQ(ann.ws.until("race_over")["winner"], "bot-easy");
  // Ann's record against the computer: one loss to easy.
  ann.ws.send({{"type", "bot_record"}, {"rid", "r"}});
  const json record = ann.ws.until("bot_record");
  EXPECT_EQ(record["type"], "bot_record") << record.dump();
  EXPECT_EQ(record["rid"], "r");
  EXPECT_EQ(record["records"]["easy"], (json{{"wins", 0}, {"losses", 1}, {"draws", 0}}));
  EXPECT_EQ(record["records"]["hard"], (json{{"wins", 0}, {"losses", 0}, {"draws", 0}}));
  // Nobody entered the rating leaderboard, and the bot's game replays under its name.
  WsClient reader(server.port());
  reader.hello("reader");
  const json board =
      reader.request({{"type", "leaderboard"}, {"kind", "rating"}, {"provisional", true}});
  EXPECT_EQ(board["type"], "leaderboard");
  EXPECT_EQ(board["entries"].size(), 0u) << board.dump();
  const json replay = json::parse(
      http_request(server.port(), "/api/replays/" + over["replays"]["bot-easy"].get<std::string>())
          .body);
  EXPECT_EQ(replay["player"]["name"], "Computer (easy)");
  EXPECT_EQ(replay["score"], over["standings"][0]["score"]);
}

TEST(BotRace, OnlyClassicFourByFourAndKnownStrengths) {
  ServerProcess server({"--countdown", "0"});
  Racer ann(server.port(), "ann");
  for (const json& options :
       {json{{"type", "create_room"}, {"bot", "impossible"}},
        json{{"type", "create_room"}, {"bot", "hard"}, {"size", 5}},
        json{{"type", "create_room"}, {"bot", "hard"}, {"mode", "fifteen"}}}) {
    const json e = ann.ws.request(options);
    EXPECT_EQ(e["type"], "error") << options.dump();
    EXPECT_EQ(e["code"], "bad_field");
    EXPECT_EQ(e["field"], "bot");
  }
  // The room is left to the computer alone: it closes.
  const json room = create_room(ann, {{"bot", "medium"}});
  EXPECT_EQ(ann.ws.until("room")["room"]["players"].size(), 2u);
  EXPECT_EQ(ann.ws.request({{"type", "leave_room"}})["type"], "left");
  EXPECT_EQ(ann.ws.request({{"type", "join_room"}, {"code", room["code"]}})["code"],
            "no_such_room");
}

TEST(BotRace, ARaceAgainstTheComputerGoesOnAfterARestart) {
  TempDir data;
  std::string token, code;
  int bot_moves = 0;
  {
    ServerProcess server({"--countdown", "0", "--bot-moves-per-second", "20"}, TILERACE_WEB_ROOT,
                         data.path());
    Racer ann(server.port(), "ann");
    token = ann.token;
    code = create_room(ann, {{"bot", "hard"}})["code"];
    start_race({&ann});
    for (int i = 0; i < 5; ++i) bot_moves = ann.ws.until("race_update")["moves"];
    ::kill(server.pid(), SIGTERM);
    EXPECT_EQ(server.stop(SIGTERM), 0);
  }
  ServerProcess server({"--countdown", "0", "--bot-moves-per-second", "20"}, TILERACE_WEB_ROOT,
                       data.path());
  EXPECT_TRUE(server.wait_for_log("1 races restored from the journal"));
  WsClient back(server.port());
  EXPECT_EQ(back.request({{"type", "hello"}, {"name", "ann"}, {"token", token}})["resumed"], true);
  const json state = back.until("race_state");
  EXPECT_EQ(state["code"], code);
  EXPECT_GE(state["games"]["bot-hard"]["moves"].get<int>(), bot_moves);
  // The computer plays on from where it was.
  const json next = back.until("race_update");
  EXPECT_EQ(next["player"], "bot-hard");
  EXPECT_EQ(next["moves"], state["games"]["bot-hard"]["moves"].get<int>() + 1);
}

TEST(BotRace, QuickMatchFallsBackToTheComputerAfterTheWait) {
  ServerProcess server({"--countdown", "0", "--quick-match-bot-after", "1"});
  Racer ann(server.port(), "ann");
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(ann.ws.request({{"type", "quick_match"}, {"mode", "classic"}, {"size", 4}})["type"],
            "queued");
  // Alone for a second: a public room with the computer, and the race starts by itself.
  std::vector<json> seen;
  const json start = ann.ws.until("race_start", 10s, &seen);
  EXPECT_GE(std::chrono::steady_clock::now() - asked, 1s);
  EXPECT_TRUE(start["games"].contains("bot-medium")) << start.dump();
  EXPECT_TRUE(start["games"].contains(ann.id));
  // One `room` announces it, both seats in it and ready, as a match between people is.
  std::vector<json> rooms;
  for (const json& m : seen) {
    if (m["type"] == "room") rooms.push_back(m["room"]);
  }
  ASSERT_EQ(rooms.size(), 1u) << json(rooms).dump();
  const json& room = rooms.front();
  EXPECT_EQ(room["public"], true);
  EXPECT_EQ(room["host"], ann.id);
  ASSERT_EQ(room["players"].size(), 2u);
  EXPECT_EQ(room["players"][0]["id"], ann.id);
  EXPECT_EQ(room["players"][1]["id"], "bot-medium");
  for (const json& p : room["players"]) EXPECT_EQ(p["ready"], true);
  EXPECT_EQ(ann.ws.until("race_update")["player"], "bot-medium");
}

}  // namespace
}  // namespace tilerace::e2e
