#pragma once
// The steps friends tests share: two players becoming friends, and waiting for a friend's
// presence to say what is expected.
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {

// Sends message with a rid (its own, or "ask") and returns the answer carrying that rid,
// skipping the pushes (presence, friend_update, room…) that arrive before it.
inline json ask(WsClient& ws, json message) {
  if (!message.contains("rid")) message["rid"] = "ask";
  ws.send(message);
  for (;;) {
    const auto m = ws.next();
    if (!m) {
      ADD_FAILURE() << "no answer to " << message.dump();
      return json::object();
    }
    if (m->contains("rid") && (*m)["rid"] == message["rid"]) return *m;
  }
}

// a asks b by id, b accepts; both have read their friend_update. (b's ping first: a node
// answers a player's next message only once other nodes can reach them.)
inline void befriend(Racer& a, Racer& b) {
  ask(b.ws, {{"type", "ping"}});
  ask(a.ws, {{"type", "friend_request"}, {"player", b.id}});
  EXPECT_EQ(b.ws.until("friend_update")["relation"], "incoming");
  EXPECT_EQ(ask(b.ws, {{"type", "friend_accept"}, {"player", a.id}})["relation"], "friend");
  EXPECT_EQ(a.ws.until("friend_update")["relation"], "friend");
}

// Makes one move that changes the board in a fresh solo game: tries the directions in turn
// (an opening tile at an edge makes a move towards it change nothing: `moved` with changed
// false, which counts no move); the test fails if none changes it.
inline void make_a_move(WsClient& ws) {
  for (const char* dir : {"left", "up", "right", "down"}) {
    if (play(ws, dir).value("changed", false)) return;
  }
  ADD_FAILURE() << "no move changed the board";
}

// Reads ws until a presence of player with status (and code, and with, when given) arrives;
// returns it, or an empty object (and the test fails) when none did within the deadline.
inline json wait_presence(WsClient& ws, const std::string& player, const std::string& status,
                          const std::string& code = "", const json& with = nullptr,
                          std::chrono::milliseconds deadline = 10s) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < end) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    const auto m = ws.next(left);
    if (!m) break;
    if ((*m)["type"] != "presence" || (*m)["player"] != player || (*m)["status"] != status) {
      continue;
    }
    if (!code.empty() && (*m).value("code", "") != code) continue;
    if (!with.is_null() && (*m).value("with", json::array()) != with) continue;
    return *m;
  }
  ADD_FAILURE() << "no presence " << status << " " << code << " of " << player;
  return json::object();
}

}  // namespace tilerace::e2e
