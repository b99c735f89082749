#pragma once
// Racers for end-to-end race tests: a connection with its player id and token, and the steps
// every race test takes (create a room, ready up, play a move past others' broadcasts).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {

inline const std::array<std::string, 4> kDirs{"up", "down", "left", "right"};

struct Racer {
  // A new player called name.
  Racer(std::uint16_t port, std::string name) : ws(port) {
    const json w = ws.hello(name);
    id = w["player"]["id"];
    token = w["token"];
  }
  // The player with token, back on a new connection; welcome is their welcome.
  Racer(std::uint16_t port, const std::string& id_, const std::string& token_, json& welcome)
      : ws(port), id(id_), token(token_) {
    welcome = ws.request({{"type", "hello"}, {"name", "back"}, {"token", token}});
  }
  // A player signed in by the hello given (a bot's: {"type":"hello","bot_token":…}).
  struct Hello {
    json message;
  };
  Racer(std::uint16_t port, const Hello& hello) : ws(port) {
    const json w = ws.request(hello.message);
    EXPECT_EQ(w["type"], "welcome") << w.dump();
    id = w["player"]["id"];
    token = w["token"];
  }
  WsClient ws;
  std::string id;
  std::string token;
};

inline json create_room(Racer& host, json options) {
  options["type"] = "create_room";
  const json room = host.ws.request(options);
  EXPECT_EQ(room["type"], "room") << room.dump();
  return room["room"];
}

// Sends a move and returns its `moved` (or the error it caused), skipping other racers'
// race_updates that arrive in between.
inline json play(WsClient& ws, const std::string& dir) {
  ws.send({{"type", "move"}, {"dir", dir}});
  for (;;) {
    const auto m = ws.next();
    if (!m) return json::object();
    if ((*m)["type"] == "moved" || (*m)["type"] == "error") return *m;
  }
}

// Everyone readies up; returns each racer's race_start.
inline std::vector<json> start_race(std::vector<Racer*> racers) {
  for (Racer* r : racers) r->ws.send({{"type", "ready"}, {"ready", true}});
  std::vector<json> starts;
  for (Racer* r : racers) starts.push_back(r->ws.until("race_start"));
  return starts;
}

}  // namespace tilerace::e2e
