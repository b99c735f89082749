// Tournaments across a restart with the real binary on each store (SQLite, PostgreSQL): SIGTERM
// in the middle of a round, and everything comes back and finishes — the results decided
// before, the matches racing (in their rooms, with their moves; one with a player away), the
// match whose race had not begun (opened again), and every rating changed once per match.
#include <gtest/gtest.h>
#include <signal.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tests/e2e/backend.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"
#include "tests/e2e/tournament_players.hpp"

namespace tilerace::e2e {
namespace {

class TournamentRestart : public BackendTest {};
TILERACE_BOTH_BACKENDS(TournamentRestart);

// A countdown long enough that the semifinal opened just before SIGTERM has not begun.
const std::vector<std::string> kServerArgs{"--countdown", "5", "--rate", "100000", "--grace", "60"};

// The match of round in the tournament snapshot t that player id plays.
json match_of(const json& t, const std::string& id, int round = 1) {
  for (const json& m : t["matches"]) {
    if (m["round"] == round && (m["a"] == id || m["b"] == id)) return m;
  }
  ADD_FAILURE() << "no match in round " << round << " for " << id;
  return json::object();
}

// Eight players, seeded by joining order: the first round is 1–8, 4–5, 2–7 and 3–6
// (racer00–racer07, racer03–racer04, racer01–racer06, racer02–racer05). At SIGTERM 1–8 and
// 4–5 are decided, 2–7 is racing with moves played, 3–6 waits for racer05 (away since before
// the start) and the semifinal racer00–racer03 is in its countdown: those two open again.
TEST_P(TournamentRestart, SigtermMidRoundAndTheTournamentComesBackAndFinishes) {
  TempDir data;
  std::vector<Scripted::Saved> saved(8);
  std::string code, racing_room, waiting_room, semifinal_room;
  std::map<std::string, json> moved;  // racer01's and racer06's last acknowledged move
  {
    ServerProcess server(args(kServerArgs), TILERACE_WEB_ROOT, data.path());
    std::vector<std::unique_ptr<Scripted>> before =
        field(server, 8, {{"format", "single_elimination"}, {"time_limit", 300}}, code);
    // racer05 goes away (its token kept).
    saved[5] = before[5]->saved();
    before[5].reset();
    ASSERT_TRUE(server.wait_for_metric("tilerace_players", 7));
    const json started = ask(before[0]->racer.ws, {{"type", "start_tournament"}});
    ASSERT_EQ(started["tournament"]["state"], "running") << started.dump();
    racing_room = match_of(started["tournament"], before[1]->racer.id)["room"];
    waiting_room = match_of(started["tournament"], before[2]->racer.id)["room"];
    ASSERT_FALSE(racing_room.empty());
    ASSERT_FALSE(waiting_room.empty());
    // The losers of 1–8 and 4–5 resign; 2–7 plays three moves each.
    for (int i : {0, 7, 3, 4, 1, 6}) before[i]->racer.ws.until("race_start", 10s);
    for (int loser : {7, 4}) {
      before[loser]->racer.ws.send({{"type", "resign"}});
      before[loser]->race_overs.push_back(before[loser]->racer.ws.until("race_over"));
    }
    for (int winner : {0, 3}) {
      before[winner]->race_overs.push_back(before[winner]->racer.ws.until("race_over"));
    }
    for (int i = 0; i < 3; ++i) {
      for (int r : {1, 6}) {
        const json m = play(before[r]->racer.ws, kDirs[i % 4]);
        ASSERT_EQ(m["type"], "moved") << m.dump();
        moved[before[r]->racer.id] = m;
      }
    }
    // The semifinal opens: its countdown has begun when its room is announced.
    semifinal_room = before[0]->racer.ws.until("room")["room"]["code"];
    EXPECT_EQ(before[3]->racer.ws.until("room")["room"]["code"], semifinal_room);
    ::kill(server.pid(), SIGTERM);
    for (int i : {0, 1, 2, 3, 4, 6, 7}) {
      EXPECT_EQ(before[i]->racer.ws.until("shutdown")["type"], "shutdown");
      EXPECT_EQ(before[i]->racer.ws.wait_closed(), 1001);
      saved[i] = before[i]->saved();
    }
    EXPECT_EQ(server.stop(SIGTERM), 0);
  }

  ServerProcess server(args(kServerArgs), TILERACE_WEB_ROOT, data.path());
  EXPECT_TRUE(server.wait_for_log("1 races restored from the journal"));
  EXPECT_TRUE(server.wait_for_log("1 tournaments restored from the journal"));
  std::vector<std::unique_ptr<Scripted>> players;
  for (const Scripted::Saved& s : saved) {
    json welcome;
    players.push_back(std::make_unique<Scripted>(server.port(), s, welcome));
    EXPECT_EQ(welcome["resumed"], true) << welcome.dump();
  }
  // Every member gets the snapshot as they come back: the decided results kept, 2–7 in the
  // room it raced in, 3–6 and the semifinal each in a new room.
  const json back = players[1]->racer.ws.until("tournament")["tournament"];
  EXPECT_EQ(back["state"], "running");
  EXPECT_EQ(match_of(back, players[0]->racer.id)["winner"], players[0]->racer.id);
  EXPECT_EQ(match_of(back, players[3]->racer.id)["winner"], players[3]->racer.id);
  EXPECT_EQ(match_of(back, players[1]->racer.id)["room"], racing_room);
  EXPECT_EQ(match_of(back, players[1]->racer.id)["state"], "racing");
  for (const auto& [reopened, before_room] :
       {std::pair{match_of(back, players[2]->racer.id), waiting_room},
        std::pair{match_of(back, players[0]->racer.id, 2), semifinal_room}}) {
    EXPECT_EQ(reopened["state"], "racing");
    EXPECT_TRUE(reopened["room"].is_string());
    EXPECT_NE(reopened["room"], before_room);
  }
  // The racing match goes on from its acknowledged moves; its loser resigns.
  for (int r : {1, 6}) {
    const json state = players[r]->racer.ws.until("race_state");
    EXPECT_EQ(state["code"], racing_room);
    players[r]->room = racing_room;  // its `room` came before
    EXPECT_EQ(state["games"][players[r]->racer.id]["board"],
              moved.at(players[r]->racer.id)["board"]);
  }
  players[6]->racer.ws.send({{"type", "resign"}});
  run(players, Script::better_seed_wins, 90s);

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  // The winner, the runner-up, and the semifinals' losers sharing third.
  ASSERT_EQ(final["podium"].size(), 4u) << final.dump();
  EXPECT_EQ(final["podium"][0], players[0]->racer.id);
  EXPECT_EQ(final["podium"][1], players[1]->racer.id);
  EXPECT_EQ((std::set<std::string>{final["podium"][2], final["podium"][3]}),
            (std::set<std::string>{players[2]->racer.id, players[3]->racer.id}));
  int done = 0;
  for (const json& m : final["matches"]) done += m["state"] == "done";
  EXPECT_EQ(done, 7);
  // Every match raced once, before or after the restart, each rating moved once per race.
  expect_one_rating_change_per_race(*players[0], 3);
  expect_one_rating_change_per_race(*players[1], 3);
  expect_one_rating_change_per_race(*players[2], 2);
  expect_one_rating_change_per_race(*players[3], 2);
  for (int i : {4, 5, 6, 7}) expect_one_rating_change_per_race(*players[i], 1);
}

}  // namespace
}  // namespace tilerace::e2e
