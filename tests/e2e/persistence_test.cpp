// Durability with the real binary on each store (a SQLite file, a PostgreSQL database): restarts
// (SIGTERM and kill -9), leaderboards over WebSocket and HTTP, replays re-run through the engine.
#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <map>

#include "engine/game.hpp"
#include "protocol/period.hpp"
#include "tests/e2e/backend.hpp"
#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {
namespace {

class Persistence : public BackendTest {};
TILERACE_BOTH_BACKENDS(Persistence);

const std::array<std::string, 4> kDirs{"up", "down", "left", "right"};

// Plays the current game with a fixed pattern until it is over; returns the final `moved`.
json play_to_over(WsClient& ws) {
  json last;
  for (int i = 0; i < 5000; ++i) {
    last = ws.request({{"type", "move"}, {"dir", kDirs[(i * 7 + i / 3) % 4]}});
    if (last["type"] != "moved" || last["state"] == "over") break;
  }
  return last;
}

// Re-runs a replay document through the engine and checks it reproduces its own result.
void expect_replay_reproduces(const json& replay) {
  const auto mode = engine::mode_from_string(replay["mode"].get<std::string>());
  ASSERT_TRUE(mode.has_value());
  const engine::GameConfig config{*mode, replay["size"], replay["target"],
                                  std::stoull(replay["seed"].get<std::string>())};
  engine::ReplayError error;
  const auto game = engine::replay(config, replay["moves"].get<std::string>(), &error);
  ASSERT_TRUE(game.has_value()) << error.reason << " at " << error.position;
  EXPECT_EQ(game->score(), replay["score"]);
  EXPECT_EQ(game->max_tile(), replay["max_tile"]);
  EXPECT_EQ(engine::to_string(game->state()), replay["state"]);
}

TEST_P(Persistence, EverythingSurvivesASigtermRestart) {
  TempDir data;
  std::string token, finished_id, active_id, player_id;
  json finished_over, active_last;
  {
    ServerProcess server(args({"--rate", "100000"}), TILERACE_WEB_ROOT, data.path());
    WsClient client(server.port());
    const json welcome = client.hello("keeper");
    token = welcome["token"];
    player_id = welcome["player"]["id"];
    finished_id =
        client.request({{"type", "new_game"}, {"size", 3}, {"target", 2048}})["game"]["id"];
    finished_over = play_to_over(client);
    ASSERT_EQ(finished_over["state"], "over");
    active_id = client.request({{"type", "new_game"}, {"size", 4}})["game"]["id"];
    for (const char* d : {"left", "up", "right", "down", "left", "up"}) {
      active_last = client.request({{"type", "move"}, {"dir", d}});
    }
    // A running game's replay is never served: its seed must stay secret.
    EXPECT_EQ(http_request(server.port(), "/api/replays/" + active_id).status, 404);
    EXPECT_EQ(server.stop(SIGTERM), 0);
  }
  ServerProcess server(args({}), TILERACE_WEB_ROOT, data.path());
  WsClient client(server.port());
  const json welcome = client.request({{"type", "hello"}, {"name", "x"}, {"token", token}});
  EXPECT_EQ(welcome["resumed"], true);
  EXPECT_EQ(welcome["player"]["id"], player_id);
  EXPECT_EQ(welcome["player"]["name"], "keeper");
  const json game = client.expect("game");
  EXPECT_EQ(game["game"]["id"], active_id);
  EXPECT_EQ(game["game"]["board"], active_last["board"]);
  EXPECT_EQ(game["game"]["score"], active_last["score"]);
  EXPECT_EQ(game["game"]["moves"], active_last["moves"]);
  EXPECT_EQ(client.request(
                {{"type", "move"}, {"dir", "right"}, {"at_move", active_last["moves"]}})["type"],
            "moved");

  const json board = client.request({{"type", "leaderboard"},
                                     {"mode", "classic"},
                                     {"size", 3},
                                     {"kind", "score"},
                                     {"rid", "lb"}});
  EXPECT_EQ(board["rid"], "lb");
  ASSERT_EQ(board["entries"].size(), 1u);
  EXPECT_EQ(board["entries"][0]["game"], finished_id);
  EXPECT_EQ(board["entries"][0]["score"], finished_over["score"]);
  EXPECT_EQ(board["entries"][0]["rank"], 1);
  EXPECT_EQ(board["me"]["player"], player_id);
  const HttpResult http =
      http_request(server.port(), "/api/leaderboard?mode=classic&size=3&kind=score&limit=10");
  EXPECT_EQ(http.status, 200);
  EXPECT_EQ(json::parse(http.body)["entries"], board["entries"]);
  EXPECT_EQ(http_request(server.port(), "/api/leaderboard?size=9").status, 400);

  // The result is also on the boards of its UTC day and ISO week, readable by name later on.
  EXPECT_EQ(board["period"], "all-time");
  const std::int64_t ended_at = board["entries"][0]["at"];
  for (const auto kind : {protocol::PeriodKind::day, protocol::PeriodKind::week}) {
    const std::string name = protocol::to_string(protocol::period_containing(kind, ended_at));
    const json named = client.request(
        {{"type", "leaderboard"}, {"mode", "classic"}, {"size", 3}, {"period", name}});
    EXPECT_EQ(named["period"], name);
    EXPECT_EQ(named["entries"], board["entries"]);
    EXPECT_EQ(named["me"]["rank"], 1);
    const HttpResult by_http =
        http_request(server.port(), "/api/leaderboard?mode=classic&size=3&period=" + name);
    EXPECT_EQ(by_http.status, 200);
    EXPECT_EQ(json::parse(by_http.body)["entries"], board["entries"]);
    // "day" and "week" answer the current one, named (today is the result's day or later).
    const json current =
        client.request({{"type", "leaderboard"},
                        {"size", 3},
                        {"period", kind == protocol::PeriodKind::day ? "day" : "week"}});
    const auto answered = protocol::period_from_string(current["period"].get<std::string>());
    ASSERT_TRUE(answered.has_value()) << current.dump();
    EXPECT_EQ(answered->kind, kind);
    EXPECT_GE(to_string(*answered), name);
  }
  const json before =
      client.request({{"type", "leaderboard"}, {"size", 3}, {"period", "2020-W53"}});
  EXPECT_EQ(before["entries"], json::array());
  EXPECT_EQ(before["me"], nullptr);
  const HttpResult bad_period = http_request(server.port(), "/api/leaderboard?period=2025-W53");
  EXPECT_EQ(bad_period.status, 400);
  EXPECT_EQ(json::parse(bad_period.body)["field"], "period");

  const HttpResult replay = http_request(server.port(), "/api/replays/" + finished_id);
  ASSERT_EQ(replay.status, 200);
  const json r = json::parse(replay.body);
  EXPECT_EQ(r["id"], finished_id);
  EXPECT_EQ(r["player"], (json{{"id", player_id}, {"name", "keeper"}}));
  EXPECT_EQ(r["score"], finished_over["score"]);
  expect_replay_reproduces(r);
}

TEST_P(Persistence, KillNineDuringFiftyGamesLosesNoAcknowledgedResultOrToken) {
  TempDir data;
  constexpr int kPlayers = 50;
  std::vector<std::string> tokens;
  std::map<std::string, json> acknowledged;  // game id → its final moved
  std::map<int, json> running;               // player index → the last moved of a live game
  {
    // Fifty players from one address: over the default per-address cap.
    ServerProcess server(args({"--rate", "100000", "--max-connections-per-ip", "0"}),
                         TILERACE_WEB_ROOT, data.path());
    std::vector<std::unique_ptr<WsClient>> clients;
    std::vector<std::string> game_ids;
    for (int i = 0; i < kPlayers; ++i) {
      clients.push_back(std::make_unique<WsClient>(server.port()));
      tokens.push_back(clients.back()->hello(std::string("p").append(std::to_string(i)))["token"]);
      game_ids.push_back(
          clients.back()->request({{"type", "new_game"}, {"size", 3}})["game"]["id"]);
    }
    // Round-robin moves on every connection until about half the games are over, then crash.
    std::vector<bool> done(kPlayers, false);
    for (int round = 0; round < 2000 && static_cast<int>(acknowledged.size()) < kPlayers / 2;
         ++round) {
      for (int i = 0; i < kPlayers; ++i) {
        if (done[i]) continue;
        const json m = clients[i]->request(
            {{"type", "move"}, {"dir", kDirs[(round * 7 + i + round / 3) % 4]}});
        ASSERT_EQ(m["type"], "moved");
        running[i] = m;
        if (m["state"] == "over") {
          done[i] = true;
          acknowledged[game_ids[i]] = m;
          running.erase(i);
        }
      }
      if (round == 5) {
        // Journaled from here on in pieces: a pass has taken the first moves of every game.
        const double flushes = server.metric("tilerace_journal_flushes_total");
        ASSERT_TRUE(server.wait_for_metric("tilerace_journal_flushes_total", flushes + 2, 5s));
      }
    }
    ASSERT_GE(acknowledged.size(), static_cast<std::size_t>(kPlayers / 2));
    ASSERT_LT(acknowledged.size(), static_cast<std::size_t>(kPlayers));
    // The journal is written once a second. Two more passes from now means one began after
    // the last move, so every move is on disk and each running game must come back exactly.
    const double flushes = server.metric("tilerace_journal_flushes_total");
    ASSERT_TRUE(server.wait_for_metric("tilerace_journal_flushes_total", flushes + 2, 5s));
    EXPECT_EQ(server.stop(SIGKILL), 128 + SIGKILL);
  }
  if (!postgres()) {
    SQLite::Database db((data.path() / "tilerace.db").string(), SQLite::OPEN_READWRITE);
    EXPECT_EQ(db.execAndGet("PRAGMA integrity_check").getString(), "ok");
  }
  EXPECT_EQ(query("SELECT COUNT(*) FROM players WHERE id NOT LIKE 'bot-%'", data.path()), kPlayers);
  EXPECT_EQ(query("SELECT COUNT(*) - COUNT(DISTINCT id) FROM games", data.path()), 0);
  ServerProcess server(args({}), TILERACE_WEB_ROOT, data.path());
  for (const auto& [id, moved] : acknowledged) {
    const HttpResult r = http_request(server.port(), "/api/replays/" + id);
    ASSERT_EQ(r.status, 200) << id;
    const json replay = json::parse(r.body);
    EXPECT_EQ(replay["score"], moved["score"]);
    expect_replay_reproduces(replay);
  }
  for (int i = 0; i < kPlayers; ++i) {
    WsClient client(server.port());
    EXPECT_EQ(client.request({{"type", "hello"}, {"name", "p"}, {"token", tokens[i]}})["resumed"],
              true);
    if (!running.contains(i)) continue;
    // A running game comes back exactly as last acknowledged (journaled in pieces over
    // several passes, joined again).
    const json game = client.expect("game")["game"];
    EXPECT_EQ(game["board"], running[i]["board"]) << i;
    EXPECT_EQ(game["score"], running[i]["score"]) << i;
    EXPECT_EQ(game["moves"], running[i]["moves"]) << i;
  }
}

TEST_P(Persistence, RaceResultsAndRatingsSurviveARestart) {
  TempDir data;
  std::string a_id, b_id, a_token, b_game;
  {
    ServerProcess server(args({"--countdown", "0"}), TILERACE_WEB_ROOT, data.path());
    WsClient a(server.port()), b(server.port());
    const json wa = a.hello("ann");
    a_id = wa["player"]["id"];
    a_token = wa["token"];
    b_id = b.hello("bob")["player"]["id"];
    const std::string code = a.request({{"type", "create_room"}})["room"]["code"];
    b.request({{"type", "join_room"}, {"code", code}});
    a.send({{"type", "ready"}});
    b.send({{"type", "ready"}});
    a.until("race_start");
    b.until("race_start");
    b.send({{"type", "leave_room"}});  // Bob walks away: Ann wins by forfeit
    const json over = a.until("race_over");
    EXPECT_EQ(over["reason"], "forfeit");
    EXPECT_EQ(over["winner"], a_id);
    b_game = over["replays"][b_id];
    EXPECT_EQ(server.stop(SIGTERM), 0);
  }
  ServerProcess server(args({}), TILERACE_WEB_ROOT, data.path());
  // Two fresh players after one race: provisional, listed only on request.
  EXPECT_TRUE(
      json::parse(http_request(server.port(), "/api/leaderboard?kind=rating").body)["entries"]
          .empty());
  const HttpResult http = http_request(server.port(), "/api/leaderboard?kind=rating&provisional=1");
  ASSERT_EQ(http.status, 200);
  const json board = json::parse(http.body);
  EXPECT_EQ(board["variant"], "classic-4");
  ASSERT_EQ(board["entries"].size(), 2u);
  const json won = fresh_rating_after(true);
  EXPECT_EQ(board["entries"][0], (json{{"rank", 1},
                                       {"player", a_id},
                                       {"name", "ann"},
                                       {"rating", won["after"]},
                                       {"rd", won["rd"]},
                                       {"provisional", true},
                                       {"wins", 1},
                                       {"losses", 0}}));
  EXPECT_EQ(board["entries"][1]["rating"], fresh_rating_after(false)["after"]);
  EXPECT_EQ(board["entries"][1]["losses"], 1);
  EXPECT_EQ(http_request(server.port(), "/api/replays/" + b_game).status, 200);
  WsClient a(server.port());
  a.request({{"type", "hello"}, {"name", "ann"}, {"token", a_token}});
  const json mine = a.request({{"type", "leaderboard"}, {"kind", "rating"}, {"limit", 1}});
  EXPECT_EQ(mine["me"]["rating"], won["after"]);
  EXPECT_EQ(mine["me"]["listed"], false) << "provisional: not on the board asked";
}

}  // namespace
}  // namespace tilerace::e2e
