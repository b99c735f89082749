// Rooms, races and spectators against the real server (PROTOCOL.md §5–§6).
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {
namespace {

TEST(Race, TwoRacersShareSpawnsAndASpectatorSeesEveryUpdateInOrder) {
  ServerProcess server({"--countdown", "1", "--rate", "100000"});
  Racer a(server.port(), "ann"), b(server.port(), "bob");
  WsClient spectator(server.port());
  spectator.hello("watcher");
  const json room =
      create_room(a, {{"mode", "classic"}, {"size", 4}, {"target", 32}, {"public", true}});
  const std::string code = room["code"];
  EXPECT_EQ(code.size(), 6u);
  EXPECT_EQ(code.find_first_not_of("ABCDEFGHJKLMNPQRSTUVWXYZ23456789"), std::string::npos);
  EXPECT_EQ(room["host"], a.id);
  EXPECT_EQ(room["state"], "waiting");
  const json joined = b.ws.request({{"type", "join_room"}, {"code", code}, {"rid", "j"}});
  EXPECT_EQ(joined["rid"], "j");
  EXPECT_EQ(joined["room"]["players"].size(), 2u);
  EXPECT_EQ(a.ws.until("room")["room"]["players"].size(), 2u);
  spectator.send({{"type", "spectate"}, {"code", code}});
  EXPECT_EQ(spectator.until("room")["room"]["spectators"], 1);

  a.ws.send({{"type", "ready"}, {"ready", true}});
  // A move before race_start is refused.
  b.ws.send({{"type", "move"}, {"dir", "left"}});
  EXPECT_EQ(b.ws.until("error")["code"], "not_started");
  b.ws.send({{"type", "ready"}, {"ready", true}});
  const json countdown = a.ws.until("countdown");
  EXPECT_EQ(countdown["seconds"], 1);
  EXPECT_EQ(countdown["code"], code);
  const json start_a = a.ws.until("race_start", 5s);
  const json start_b = b.ws.until("race_start", 5s);
  const json start_s = spectator.until("race_start", 5s);
  EXPECT_EQ(start_a, start_b);
  EXPECT_EQ(start_a, start_s);
  EXPECT_EQ(start_a["games"][a.id]["board"], start_a["games"][b.id]["board"]) << "same first board";

  // The same moves bring the same spawns for both racers.
  for (int i = 0; i < 6; ++i) {
    const json am = play(a.ws, kDirs[(i * 3) % 4]);
    const json bm = play(b.ws, kDirs[(i * 3) % 4]);
    ASSERT_EQ(am["type"], "moved") << am.dump();
    EXPECT_EQ(am["spawned"], bm["spawned"]) << i;
    EXPECT_EQ(am["board"], bm["board"]) << i;
    EXPECT_EQ(am["score"], bm["score"]) << i;
  }
  // Ann plays on until she reaches 32: reason target, she wins.
  for (int i = 0; i < 2000; ++i) {
    const json m = play(a.ws, kDirs[(i * 7 + i / 3) % 4]);
    ASSERT_EQ(m["type"], "moved") << m.dump();
    if (m["won"] == true) break;
  }
  const json over = a.ws.until("race_over");
  EXPECT_EQ(over["reason"], "target");
  EXPECT_EQ(over["winner"], a.id);
  EXPECT_EQ(over["standings"][0]["player"], a.id);
  EXPECT_EQ(over["ratings"][a.id], fresh_rating_after(true));
  EXPECT_EQ(over["ratings"][b.id], fresh_rating_after(false));
  EXPECT_TRUE(over["replays"].contains(a.id));
  EXPECT_TRUE(over["replays"].contains(b.id));
  EXPECT_EQ(a.ws.until("room")["room"]["state"], "waiting");

  // The spectator saw every changing move of both racers, in each racer's order.
  std::vector<json> seen;
  const json s_over = spectator.until("race_over", 5s, &seen);
  EXPECT_EQ(s_over, over);
  std::map<std::string, int> last_moves;
  int updates = 0;
  for (const json& m : seen) {
    if (m["type"] != "race_update") continue;
    ++updates;
    const std::string who = m["player"];
    EXPECT_EQ(m["moves"].get<int>(), last_moves[who] + 1) << m.dump();
    last_moves[who] = m["moves"];
  }
  EXPECT_EQ(last_moves[a.id], over["standings"][0]["moves"]);
  EXPECT_EQ(last_moves[b.id], over["standings"][1]["moves"]);
  EXPECT_GT(updates, 6);
  // Nobody is ready after a race: a rematch is another round of ready.
  const json after = b.ws.until("room");
  for (const json& p : after["room"]["players"]) EXPECT_EQ(p["ready"], false);
}

TEST(Race, AllOverWithIdenticalPlayIsADraw) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  Racer a(server.port(), "ann"), b(server.port(), "bob");
  const std::string code = create_room(a, {{"size", 3}, {"target", 2048}})["code"];
  b.ws.request({{"type", "join_room"}, {"code", code}});
  start_race({&a, &b});
  // Both play the same moves in turn until their (identical) games are over.
  for (int i = 0; i < 3000; ++i) {
    const json am = play(a.ws, kDirs[(i * 7 + i / 3) % 4]);
    const json bm = play(b.ws, kDirs[(i * 7 + i / 3) % 4]);
    ASSERT_EQ(am["type"], "moved") << am.dump();
    ASSERT_EQ(am["board"], bm["board"]);
    if (am["state"] == "over") break;
  }
  const json over = a.ws.until("race_over", 10s);
  EXPECT_EQ(over["reason"], "all_over");
  EXPECT_TRUE(over["winner"].is_null());
  EXPECT_EQ(over["standings"][0]["score"], over["standings"][1]["score"]);
  EXPECT_EQ(over["ratings"][a.id]["after"], 1500);
}

TEST(Race, ARacerWhoseRoundTripIsLongIsShownSlowToTheOthers) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann");
  Racer b(server.port(), "bob");
  const std::string code = create_room(a, {})["code"];
  b.ws.request({{"type", "join_room"}, {"code", code}});
  start_race({&a, &b});
  const auto ping = [&](int rtt) {
    b.ws.send({{"type", "ping"}, {"rtt", rtt}});
    b.ws.until("pong");
  };
  ping(800);  // at 500 ms or more the room says so
  json room = a.ws.until("room");
  EXPECT_EQ(room["room"]["players"][1]["slow"], true) << room.dump();
  EXPECT_FALSE(room["room"]["players"][0].contains("slow"));
  ping(400);  // between the two bounds: no change, no message
  ping(100);  // below 300 ms: fast again
  room = a.ws.until("room");
  EXPECT_FALSE(room["room"]["players"][1].contains("slow")) << room.dump();
  b.ws.send({{"type", "ping"}, {"rtt", -1}});
  EXPECT_EQ(b.ws.until("error")["field"], "rtt");
}

TEST(Race, ADisconnectedRacerForfeitsAfterTheGrace) {
  ServerProcess server({"--countdown", "0", "--grace", "1"});
  Racer a(server.port(), "ann");
  auto b = std::make_unique<Racer>(server.port(), "bob");
  const std::string b_id = b->id;
  const std::string code = create_room(a, {})["code"];
  b->ws.request({{"type", "join_room"}, {"code", code}});
  start_race({&a, b.get()});
  b.reset();                             // gone without a word
  const json away = a.ws.until("room");  // the next room is the one announcing Bob away
  EXPECT_EQ(away["room"]["players"][1]["connected"], false);
  EXPECT_EQ(away["room"]["grace"], 1);  // the seconds Bob keeps his place (our addition)
  std::vector<json> seen;
  const json over = a.ws.until("race_over", 10s, &seen);
  EXPECT_EQ(over["reason"], "forfeit");
  EXPECT_EQ(over["winner"], a.id);
  EXPECT_EQ(over["standings"][1]["state"], "forfeited");
  bool forfeited_update = false;
  for (const json& m : seen)
    forfeited_update |=
        m["type"] == "race_update" && m["player"] == b_id && m["state"] == "forfeited";
  EXPECT_TRUE(forfeited_update);
}

TEST(Race, ReconnectingInsideTheGraceContinuesTheSameGame) {
  ServerProcess server({"--countdown", "0", "--grace", "30"});
  Racer a(server.port(), "ann");
  std::string token;
  json last;
  std::string code;
  {
    Racer b(server.port(), "bob");
    token = b.token;
    code = create_room(a, {})["code"];
    b.ws.request({{"type", "join_room"}, {"code", code}});
    start_race({&a, &b});
    for (const char* d : {"left", "up", "right", "down"}) last = play(b.ws, d);
  }
  WsClient back(server.port());
  EXPECT_EQ(back.request({{"type", "hello"}, {"name", "bob"}, {"token", token}})["resumed"], true);
  const json room = back.until("room");
  EXPECT_EQ(room["room"]["code"], code);
  EXPECT_EQ(room["room"]["state"], "racing");
  const json state = back.until("race_state");
  const std::string bob = room["room"]["players"][1]["id"];
  EXPECT_EQ(state["games"][bob]["board"], last["board"]);
  EXPECT_EQ(state["games"][bob]["moves"], last["moves"]);
  EXPECT_GT(state["remaining_ms"].get<int>(), 250000);
  const json moved = back.request({{"type", "move"}, {"dir", "right"}, {"at_move", last["moves"]}});
  EXPECT_EQ(moved["type"], "moved");
  json seen = a.ws.until("room");  // first: Bob away
  if (seen["room"]["players"][1]["connected"] == false) seen = a.ws.until("room");
  EXPECT_EQ(seen["room"]["players"][1]["connected"], true);
}

TEST(Race, QuickMatchPairsAndCancelWorks) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann"), b(server.port(), "bob"), c(server.port(), "cid");
  EXPECT_EQ(a.ws.request({{"type", "quick_match"}, {"mode", "classic"}, {"size", 5}})["type"],
            "queued");
  EXPECT_EQ(c.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  EXPECT_EQ(c.ws.request({{"type", "cancel_match"}})["type"], "match_cancelled");
  b.ws.send({{"type", "quick_match"}, {"mode", "classic"}, {"size", 5}});
  const json start_a = a.ws.until("race_start");
  const json start_b = b.ws.until("race_start");
  EXPECT_EQ(start_a, start_b);
  EXPECT_EQ(start_a["games"][a.id]["size"], 5);
  EXPECT_TRUE(start_a["games"].contains(b.id));
  // Cid cancelled: a fourth player is queued, not paired with him.
  Racer d(server.port(), "dee");
  EXPECT_EQ(d.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
}

TEST(Race, QuickMatchTellsNobodyUntilBothAreInTheRoomAndSpectatingLeavesTheQueue) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann"), b(server.port(), "bob"), c(server.port(), "cid");
  EXPECT_EQ(a.ws.request({{"type", "quick_match"}})["type"], "queued");
  // The first room either of them hears of already holds both.
  const json b_room = b.ws.request({{"type", "quick_match"}, {"rid", 7}});
  EXPECT_EQ(b_room["type"], "room");
  EXPECT_EQ(b_room["rid"], 7);
  EXPECT_EQ(b_room["room"]["players"].size(), 2u);
  const json a_room = a.ws.expect("room");
  EXPECT_EQ(a_room["room"]["players"].size(), 2u);
  EXPECT_EQ(a_room["room"]["code"], b_room["room"]["code"]);
  EXPECT_EQ(a.ws.until("race_start")["games"].size(), 2u);

  // Cid queues, then spectates that race: he is out of the queue, so Dee is not paired.
  EXPECT_EQ(c.ws.request({{"type", "quick_match"}})["type"], "queued");
  c.ws.send({{"type", "spectate"}, {"code", a_room["room"]["code"]}});
  EXPECT_EQ(c.ws.until("room")["room"]["spectators"], 1);
  Racer d(server.port(), "dee");
  EXPECT_EQ(d.ws.request({{"type", "quick_match"}})["type"], "queued");
}

// Many players quick-match and create rooms at once, some both at once: nobody ends up in two
// rooms, everyone in a room was told so, and at most one is left waiting.
TEST(Race, ConcurrentQuickMatchesAndRoomCreationsStrandNobody) {
  constexpr int kPlayers = 24;
  ServerProcess server(
      {"--countdown", "0", "--max-connections-per-ip", "0", "--rooms-per-ip", "0"});
  std::vector<std::unique_ptr<Racer>> players;
  for (int i = 0; i < kPlayers; ++i) {
    std::string name = "p";  // appended, not "p" + …: GCC 12's -Wrestrict misfires on that
    name += std::to_string(i);
    players.push_back(std::make_unique<Racer>(server.port(), name));
  }
  // Every player sends at once; every third also creates a room right behind its quick match.
  for (int i = 0; i < kPlayers; ++i) {
    players[i]->ws.send({{"type", "quick_match"}, {"rid", "qm"}});
    if (i % 3 == 0) players[i]->ws.send({{"type", "create_room"}, {"public", true}, {"rid", "cr"}});
  }
  // Each player's direct replies, and every room it heard of holding it.
  std::vector<std::string> told(kPlayers);  // the last room code a player heard it is in
  int queued = 0;
  for (int i = 0; i < kPlayers; ++i) {
    Racer& p = *players[i];
    const int expected = i % 3 == 0 ? 2 : 1;
    bool was_queued = false;
    for (int replies = 0; replies < expected;) {
      const auto m = p.ws.next();
      ASSERT_TRUE(m.has_value()) << "player " << i;
      const bool direct = m->contains("rid");
      if ((*m)["type"] == "room") {
        for (const json& member : (*m)["room"]["players"]) {
          if (member["id"] == p.id) told[i] = (*m)["room"]["code"];
        }
      } else if ((*m)["type"] == "queued") {
        was_queued = true;
      } else if ((*m)["type"] == "error") {
        EXPECT_EQ((*m)["code"], "already_in_room") << m->dump();
      }
      replies += direct;
    }
    queued += was_queued;
  }
  // Every handler has run by now (each answered its sender): the rooms are settled.
  const json rooms = json::parse(http_request(server.port(), "/api/rooms").body)["rooms"];
  std::map<std::string, std::string> room_of;  // player id → the room listing them
  for (const json& room : rooms) {
    for (const json& member : room["players"]) {
      const std::string id = member["id"];
      EXPECT_EQ(room_of.count(id), 0u) << id << " is in two rooms";
      room_of[id] = room["code"];
    }
  }
  int waiting = 0;
  for (int i = 0; i < kPlayers; ++i) {
    Racer& p = *players[i];
    const auto it = room_of.find(p.id);
    if (it == room_of.end()) {
      ++waiting;  // still in the queue: never told of a room
      EXPECT_EQ(told[i], "") << "player " << i << " was told of a room it is not in";
      continue;
    }
    // In a room: it was told so, by a `room` already read or one still on its way.
    if (told[i] != it->second) {
      const json late = p.ws.until("room");
      EXPECT_EQ(late["room"]["code"], it->second) << "player " << i;
    }
  }
  EXPECT_LE(waiting, 1);
  EXPECT_GT(queued, 0);
}

TEST(Race, EightRacersAndASpectatorJoiningMidRace) {
  ServerProcess server({"--countdown", "0"});
  std::vector<std::unique_ptr<Racer>> racers;
  for (int i = 0; i < 8; ++i) {
    std::string name = "racer ";  // appended, not "r" + …: GCC 12 bug 105651 warns on that
    name += std::to_string(i);
    racers.push_back(std::make_unique<Racer>(server.port(), name));
  }
  const std::string code = create_room(*racers[0], {{"max_players", 8}})["code"];
  for (int i = 1; i < 8; ++i)
    EXPECT_EQ(racers[i]->ws.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  Racer ninth(server.port(), "late");
  EXPECT_EQ(ninth.ws.request({{"type", "join_room"}, {"code", code}})["code"], "room_full");
  std::vector<Racer*> all;
  for (auto& r : racers) all.push_back(r.get());
  const auto starts = start_race(all);
  EXPECT_EQ(starts[0]["games"].size(), 8u);
  for (const auto& s : starts) EXPECT_EQ(s, starts[0]);
  json boards = json::object();
  for (auto& r : racers) {
    json m = play(r->ws, "left");
    if (m["changed"] == false) m = play(r->ws, "right");
    ASSERT_EQ(m["changed"], true);
    boards[r->id] = m["board"];
  }
  EXPECT_EQ(ninth.ws.request({{"type", "join_room"}, {"code", code}})["code"], "race_running");
  WsClient late(server.port());
  late.hello("late watcher");
  late.send({{"type", "spectate"}, {"code", code}});
  EXPECT_EQ(late.until("room")["room"]["state"], "racing");
  const json state = late.until("race_state");
  EXPECT_EQ(state["games"].size(), 8u);
  for (auto& r : racers) EXPECT_EQ(state["games"][r->id]["board"], boards[r->id]);
  EXPECT_EQ(late.request({{"type", "move"}, {"dir", "up"}})["code"], "not_a_player");
}

TEST(Race, PrivateRoomsAreNotListed) {
  ServerProcess server;
  Racer a(server.port(), "ann"), b(server.port(), "bob");
  const std::string secret = create_room(a, {{"public", false}})["code"];
  const std::string open =
      create_room(b, {{"public", true}, {"mode", "fifteen"}, {"size", 3}})["code"];
  const json rooms = a.ws.request({{"type", "list_rooms"}, {"rid", 1}});
  EXPECT_EQ(rooms["rid"], 1);
  ASSERT_EQ(rooms["rooms"].size(), 1u);
  EXPECT_EQ(rooms["rooms"][0]["code"], open);
  EXPECT_EQ(rooms["rooms"][0]["mode"], "fifteen");
  EXPECT_EQ(rooms["rooms"][0]["players"][0]["name"], "bob");
  const HttpResult http = http_request(server.port(), "/api/rooms");
  EXPECT_EQ(http.status, 200);
  EXPECT_EQ(json::parse(http.body), json({{"type", "rooms"}, {"rooms", rooms["rooms"]}}));
  EXPECT_FALSE(rooms["rooms"][0]["players"][0].contains("board"));  // no race yet
  // A private room can still be spectated by code.
  WsClient watcher(server.port());
  watcher.hello("w");
  EXPECT_EQ(watcher.request({{"type", "spectate"}, {"code", secret}})["room"]["code"], secret);
  EXPECT_EQ(watcher.request({{"type", "stop_spectating"}})["type"], "stopped");
}

TEST(Race, ErrorsAndTheHostHandOver) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann"), b(server.port(), "bob");
  EXPECT_EQ(a.ws.request({{"type", "join_room"}, {"code", "ABCDEF"}})["code"], "no_such_room");
  EXPECT_EQ(a.ws.request({{"type", "join_room"}, {"code", "ABC10O"}})["field"], "code");
  EXPECT_EQ(a.ws.request({{"type", "leave_room"}})["code"], "not_in_room");
  EXPECT_EQ(a.ws.request({{"type", "ready"}})["code"], "not_in_room");
  const std::string code = create_room(a, {})["code"];
  EXPECT_EQ(a.ws.request({{"type", "create_room"}})["code"], "already_in_room");
  EXPECT_EQ(a.ws.request({{"type", "new_game"}})["code"], "already_in_room");
  EXPECT_EQ(a.ws.request({{"type", "move"}, {"dir", "up"}})["code"], "not_started");
  // lower case codes are accepted
  std::string lower = code;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(ch));
  EXPECT_EQ(b.ws.request({{"type", "join_room"}, {"code", lower}})["type"], "room");
  EXPECT_EQ(b.ws.request({{"type", "join_room"}, {"code", code}})["code"], "already_in_room");
  EXPECT_EQ(a.ws.until("room")["room"]["players"].size(), 2u);  // Bob's arrival
  // The host leaves: Bob becomes host. Then Bob leaves: the room is gone.
  EXPECT_EQ(a.ws.request({{"type", "leave_room"}, {"rid", 5}}),
            (json{{"type", "left"}, {"code", code}, {"rid", 5}}));
  EXPECT_EQ(b.ws.until("room")["room"]["host"], b.id);
  EXPECT_EQ(b.ws.request({{"type", "leave_room"}})["type"], "left");
  EXPECT_EQ(a.ws.request({{"type", "join_room"}, {"code", code}})["code"], "no_such_room");
  // In a race: undo is not allowed.
  const std::string code2 = create_room(a, {})["code"];
  b.ws.request({{"type", "join_room"}, {"code", code2}});
  start_race({&a, &b});
  a.ws.send({{"type", "undo"}});  // room broadcasts may arrive first: wait for the error
  EXPECT_EQ(a.ws.until("error")["code"], "not_allowed");
}

TEST(Race, TheMoveCapOptionLimitsMovesPerSecond) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann"), b(server.port(), "bob");
  const json room = create_room(a, {{"max_moves_per_second", 2}});
  EXPECT_EQ(room["max_moves_per_second"], 2);
  b.ws.request({{"type", "join_room"}, {"code", room["code"]}});
  start_race({&a, &b});
  for (int i = 0; i < 6; ++i) a.ws.send({{"type", "move"}, {"dir", kDirs[i % 4]}, {"rid", i}});
  int moved = 0, limited = 0;
  for (int i = 0; i < 6; ++i) {
    json m = a.ws.next().value_or(json::object());
    while (m["type"] == "room") m = a.ws.next().value_or(json::object());  // broadcasts
    EXPECT_EQ(m["rid"], i);
    moved += m["type"] == "moved";
    limited += m.value("code", "") == "rate_limited";
  }
  EXPECT_GE(moved, 2);  // the first second's allowance
  EXPECT_GE(limited, 3);
  EXPECT_EQ(moved + limited, 6);
}

TEST(Race, EmotesReachTheRoomAndItsSpectatorsFromTheFixedSetOnly) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann"), b(server.port(), "bob");
  WsClient spectator(server.port());
  spectator.hello("watcher");
  const json outside = a.ws.request({{"type", "emote"}, {"emote", "gg"}});
  EXPECT_EQ(outside.value("code", ""), "not_in_room");
  const std::string code = create_room(a, {})["code"];
  b.ws.request({{"type", "join_room"}, {"code", code}});
  spectator.send({{"type", "spectate"}, {"code", code}});
  spectator.until("room");
  // (Other messages, such as the room update for the spectator, may come first.)
  b.ws.send({{"type", "emote"}, {"emote", "you are bad"}});
  const json bad = b.ws.until("error");
  EXPECT_EQ(bad["code"], "bad_field");
  EXPECT_EQ(bad["field"], "emote");
  b.ws.send({{"type", "emote"}, {"emote", "hi"}, {"rid", 5}});
  const json mine = b.ws.until("emote");
  EXPECT_EQ(mine["rid"], 5);
  for (WsClient* ws : {&a.ws, &spectator}) {
    const json seen = ws->until("emote");
    EXPECT_EQ(seen["player"], b.id);
    EXPECT_EQ(seen["emote"], "hi");
  }
  b.ws.send({{"type", "emote"}, {"emote", "wow"}});
  EXPECT_EQ(b.ws.until("error")["code"], "rate_limited");
  // A spectator cannot send one.
  spectator.send({{"type", "emote"}, {"emote", "gg"}});
  EXPECT_EQ(spectator.until("error")["code"], "not_in_room");
}

// While a race runs, the rooms list carries each racer's board as it stands (the lobby draws
// them as miniature live boards).
TEST(Race, TheRoomsListShowsEachRacersBoardWhileARaceRuns) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann"), b(server.port(), "bob");
  const std::string code = create_room(a, {{"size", 5}, {"public", true}})["code"];
  b.ws.request({{"type", "join_room"}, {"code", code}});
  start_race({&a, &b});
  json moved;
  for (const char* dir : {"left", "up", "right", "down"}) {
    moved = play(a.ws, dir);
    if (moved["changed"] == true) break;
  }
  WsClient lobby(server.port());
  lobby.hello("lobby");
  const json rooms = lobby.request({{"type", "list_rooms"}});
  ASSERT_EQ(rooms["rooms"].size(), 1u);
  const json& room = rooms["rooms"][0];
  EXPECT_EQ(room["state"], "racing");
  ASSERT_EQ(room["players"].size(), 2u);
  for (const json& p : room["players"]) {
    ASSERT_TRUE(p.contains("board")) << p;
    EXPECT_EQ(p["board"].size(), 5u);
    EXPECT_EQ(p["board"][0].size(), 5u);
    if (p["id"] == a.id) {
      EXPECT_EQ(p["board"], moved["board"]);
      EXPECT_EQ(p["score"], moved["score"]);
    }
  }
  EXPECT_EQ(json::parse(http_request(server.port(), "/api/rooms").body)["rooms"], rooms["rooms"]);
}

// A player's profile: three won races make three points of rating history, rising, and three
// recent races, each won, whose games replay; an unknown player is 404.
TEST(Race, TheProfileShowsRatingHistoryAndRecentRacesWithReplays) {
  ServerProcess server({"--countdown", "0"});
  Racer a(server.port(), "ann");
  std::string last_rival;
  for (int n = 0; n < 3; ++n) {
    Racer b(server.port(), "bob" + std::to_string(n));
    last_rival = b.id;
    const std::string code = create_room(a, {})["code"];
    b.ws.request({{"type", "join_room"}, {"code", code}});
    start_race({&a, &b});
    b.ws.send({{"type", "leave_room"}});
    EXPECT_EQ(a.ws.until("race_over")["winner"], a.id);
    a.ws.send({{"type", "leave_room"}});
    a.ws.until("left");
  }
  const HttpResult r = http_request(server.port(), "/api/players/" + a.id);
  EXPECT_EQ(r.status, 200);
  const json p = json::parse(r.body);
  EXPECT_EQ(p["name"], "ann");
  EXPECT_EQ(p["wins"], 3);
  ASSERT_EQ(p["rating_history"].size(), 3u);
  int last = 1500;
  for (const json& point : p["rating_history"]) {
    EXPECT_GT(point["rating"].get<int>(), last);
    last = point["rating"];
  }
  EXPECT_EQ(p["rating"], last);
  ASSERT_EQ(p["races"].size(), 3u);
  for (const json& race : p["races"]) {
    EXPECT_EQ(race["outcome"], "won");
    const auto replay =
        http_request(server.port(), "/api/replays/" + race["game"].get<std::string>());
    EXPECT_EQ(replay.status, 200);
  }
  EXPECT_EQ(http_request(server.port(), "/api/players/nobody").status, 404);
  // The other side of the last race lost it.
  const json loser = json::parse(http_request(server.port(), "/api/players/" + last_rival).body);
  ASSERT_EQ(loser["races"].size(), 1u);
  EXPECT_EQ(loser["races"][0]["outcome"], "lost");
}

}  // namespace
}  // namespace tilerace::e2e
