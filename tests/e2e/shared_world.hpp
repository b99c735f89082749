#pragma once
// Steps of the tests where several nodes share one world (one database, maybe one Redis):
// a finished ranked game, and a rank as another node comes to see it.
#include <gtest/gtest.h>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {

// Plays a new ranked 3×3 game on ws to its end; returns the final `moved`.
inline json finish_a_ranked_game(WsClient& ws) {
  EXPECT_EQ(ws.request({{"type", "new_game"}, {"size", 3}})["type"], "game");
  json last;
  for (int i = 0; i < 5000; ++i) {
    last = ws.request({{"type", "move"}, {"dir", kDirs[(i * 7 + i / 3) % 4]}});
    if (last["type"] != "moved" || last["state"] == "over") break;
  }
  EXPECT_EQ(last["state"], "over");
  return last;
}

// The `me` rank player_token's player gets from the server on port, once it equals expected
// (a node hears of another's results through the database, a moment after they commit).
inline json rank_becomes(std::uint16_t port, const json& welcome, const json& expected) {
  WsClient ws(port);
  const json again =
      ws.request({{"type", "hello"}, {"name", "again"}, {"token", welcome["token"]}});
  EXPECT_EQ(again["resumed"], true);  // tokens are valid on every node
  EXPECT_EQ(again["player"]["id"], welcome["player"]["id"]);
  const json query{{"type", "leaderboard"}, {"mode", "classic"}, {"size", 3}, {"kind", "score"}};
  json rank;
  testing::eventually(
      [&] {
        rank = ws.request(query)["me"]["rank"];
        return rank == expected;
      },
      5s);
  return rank;
}

}  // namespace tilerace::e2e
