// Tournaments in a cluster (real nodes, PostgreSQL and Redis): players connected to another
// node join through redirects and play on the tournament's node; when that node is killed
// mid-round, a survivor adopts the tournament with its running race, players coming back
// through the other survivor are sent to it (racing or between matches), and it finishes.
#include <gtest/gtest.h>
#include <signal.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/e2e/cluster_nodes.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"
#include "tests/e2e/tournament_players.hpp"

namespace tilerace::e2e {
namespace {

using TournamentCluster = Cluster;

TEST_F(TournamentCluster, PlayersOnAnotherNodeJoinByRedirectAndASurvivorAdoptsItMidRound) {
  const std::vector<std::string> open{"--max-connections-per-ip", "0", "--grace", "60"};
  auto a = node("a", open);
  const auto b = node("b", open);
  const auto c = node("c", open);
  // racer00 hosts on a; the others are on b, and are sent to a to join.
  std::vector<std::unique_ptr<Scripted>> players;
  players.push_back(std::make_unique<Scripted>(a->port(), 0));
  const json created = players[0]->racer.ws.request(
      {{"type", "create_tournament"}, {"format", "single_elimination"}, {"time_limit", 300}});
  ASSERT_EQ(created["type"], "tournament") << created.dump();
  const std::string code = created["tournament"]["code"];
  for (int i = 1; i < 4; ++i) {
    Scripted on_b(b->port(), i);
    const json redirect = on_b.racer.ws.request({{"type", "join_tournament"}, {"code", code}});
    ASSERT_EQ(redirect["type"], "redirect") << redirect.dump();
    EXPECT_EQ(redirect["reason"], "join_tournament");
    EXPECT_EQ(redirect["code"], code);
    EXPECT_EQ(port_of(redirect["url"]), a->port());
    json welcome;
    players.push_back(std::make_unique<Scripted>(a->port(), on_b.saved(), welcome));
    EXPECT_EQ(welcome["resumed"], true);
    const json joined = players[i]->racer.ws.request({{"type", "join_tournament"}, {"code", code}});
    ASSERT_EQ(joined["type"], "tournament") << joined.dump();
  }
  WsClient stranger(b->port());
  stranger.hello("stranger");
  EXPECT_EQ(ask(stranger, {{"type", "spectate_tournament"}, {"code", code}})["reason"],
            "spectate_tournament");
  EXPECT_EQ(ask(stranger, {{"type", "join_tournament"}, {"code", "ZZZZZZ"}})["code"],
            "no_such_tournament");

  // Seeds 1–4 (racer00–racer03) and 2–3 (racer01–racer02). racer03 resigns; 2–3 plays on.
  const json started = ask(players[0]->racer.ws, {{"type", "start_tournament"}});
  ASSERT_EQ(started["tournament"]["state"], "running") << started.dump();
  const std::string racing_room = started["tournament"]["matches"][1]["room"];
  for (const auto& p : players) p->racer.ws.until("race_start");
  players[3]->racer.ws.send({{"type", "resign"}});
  for (int i : {0, 3}) players[i]->race_overs.push_back(players[i]->racer.ws.until("race_over"));
  json last_board;
  for (const char* dir : {"left", "up", "right"}) {
    const json m1 = play(players[1]->racer.ws, dir);
    const json m2 = play(players[2]->racer.ws, dir);
    ASSERT_EQ(m1["type"], "moved") << m1.dump();
    EXPECT_EQ(m2["board"], m1["board"]);
    last_board = m1["board"];
  }
  // Journaled (once a second): the tournament with 1–4 decided, the race of 2–3.
  ASSERT_TRUE(testing::eventually(
      [&] {
        return query(fmt::format("SELECT count(*) FROM tournaments WHERE code = '{}' AND "
                                 "document LIKE '%\"done\"%'",
                                 code)) == 1 &&
               query("SELECT count(*) FROM active_races") == 1;
      },
      5s));
  std::vector<Scripted::Saved> saved;
  for (const auto& p : players) saved.push_back(p->saved());
  a->stop(SIGKILL);
  players.clear();

  // b or c adopts the race and the tournament.
  std::string adopter;
  ASSERT_TRUE(testing::eventually(
      [&] {
        for (const char* n : {"b", "c"}) {
          if (query(fmt::format("SELECT count(*) FROM tournaments WHERE code = '{}' AND node = "
                                "'{}' AND epoch = 2",
                                code, n)) == 1 &&
              query(fmt::format("SELECT count(*) FROM active_races WHERE node = '{}'", n)) == 1) {
            adopter = n;
          }
        }
        return !adopter.empty();
      },
      15s));
  ServerProcess& there = adopter == "b" ? *b : *c;
  ServerProcess& elsewhere = adopter == "b" ? *c : *b;
  // Everyone comes back through the other survivor and is sent on: the racers to their race,
  // the others to their tournament.
  for (const Scripted::Saved& s : saved) {
    json welcome;
    Scripted first(elsewhere.port(), s, welcome);
    EXPECT_EQ(welcome["resumed"], true);
    const json redirect = first.racer.ws.until("redirect", 10s);
    EXPECT_EQ(redirect["reason"], "resume");
    EXPECT_EQ(port_of(redirect["url"]), there.port()) << redirect.dump();
    players.push_back(std::make_unique<Scripted>(there.port(), s, welcome));
    EXPECT_EQ(welcome["resumed"], true);
  }
  const json back = players[1]->racer.ws.until("tournament", 10s)["tournament"];
  EXPECT_EQ(back["state"], "running");
  EXPECT_EQ(back["matches"][0]["winner"], players[0]->racer.id);
  EXPECT_EQ(back["matches"][1]["room"], racing_room);
  const json state = players[1]->racer.ws.until("race_state");
  EXPECT_EQ(state["code"], racing_room);
  EXPECT_EQ(state["games"][players[1]->racer.id]["board"], last_board);
  // A spectator finds it on its new node (redirected there from the other).
  const json followed = ask(stranger, {{"type", "spectate_tournament"}, {"code", code}});
  if (adopter == "b") {
    EXPECT_EQ(followed["type"], "tournament") << followed.dump();
  } else {
    EXPECT_EQ(port_of(followed["url"]), there.port()) << followed.dump();
  }
  players[2]->racer.ws.send({{"type", "resign"}});
  run(players, Script::better_seed_wins, 60s);

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  ASSERT_GE(final["podium"].size(), 2u) << final.dump();
  EXPECT_EQ(final["podium"][0], players[0]->racer.id);
  EXPECT_EQ(final["podium"][1], players[1]->racer.id);
  expect_one_rating_change_per_race(*players[0], 2);
  expect_one_rating_change_per_race(*players[1], 2);
  expect_one_rating_change_per_race(*players[2], 1);
  expect_one_rating_change_per_race(*players[3], 1);
  EXPECT_EQ(query("SELECT count(*) FROM races"), 3);
  ASSERT_TRUE(testing::eventually(
      [&] {
        return query(fmt::format(
                   "SELECT count(*) FROM tournaments WHERE code = '{}' AND state = 'finished'",
                   code)) == 1;
      },
      5s));
}

}  // namespace
}  // namespace tilerace::e2e
