// Tournament TV against the real server (docs/protocol.md, "Tournament TV"): one connection
// that follows a tournament gets the race stream of its running matches — every match of a
// round up to eight, the eight with the best-rated racers beyond that, switched as they end —
// and the players between their own matches see the same.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"
#include "tests/e2e/tournament_players.hpp"

namespace tilerace::e2e {
namespace {

bool race_stream(const json& m) {
  const std::string type = m["type"];
  return type == "race_start" || type == "race_state" || type == "race_update" ||
         type == "race_over";
}

// What one connection following a tournament saw of its matches.
struct Follower {
  std::map<std::string, int> round_of;                // a match's room → its round
  std::map<std::string, std::set<std::string>> seen;  // room → the stream's message types
  std::vector<std::string> order;                     // rooms, in the order they were first seen
  std::size_t followed_at_first_end = 0;              // rooms seen when the first race_over came
  std::vector<std::string> first_matches;             // the first snapshot's racing rooms, in order
  std::string failure;
};

// Reads what spectator gets until the tournament is over. A room counts as watched (its loser
// may resign) once its stream has begun here and a snapshot has shown it racing (so its round
// is known) — and, with gate_at, only once gate_at rooms have begun, so that nothing ends
// before the first rooms followed are all known.
void follow(WsClient& spectator, Follower& f, Watched& watched, std::size_t gate_at = 0) {
  std::set<std::string> released;
  const auto release = [&] {
    if (f.order.size() < gate_at) return;
    for (const std::string& room : f.order) {
      if (f.round_of.count(room) != 0 && released.insert(room).second) watched.add(room);
    }
  };
  for (;;) {
    const std::optional<json> m = spectator.next(30s);
    if (!m) {
      f.failure = "the spectator's connection closed or went quiet";
      return;
    }
    if ((*m)["type"] == "tournament") {
      const json& t = (*m)["tournament"];
      std::vector<std::string> racing;
      for (const json& match : t["matches"]) {
        if (match["state"] != "racing" || !match["room"].is_string()) continue;
        racing.push_back(match["room"]);
        f.round_of.emplace(match["room"], match["round"].get<int>());
      }
      if (f.first_matches.empty()) f.first_matches = racing;
      if (t["state"] == "finished") return;
      release();
      continue;
    }
    if (!race_stream(*m)) continue;
    const std::string room = (*m)["code"];
    if ((*m)["type"] == "race_over" && f.followed_at_first_end == 0) {
      f.followed_at_first_end = f.order.size();
    }
    if (f.seen[room].insert((*m)["type"].get<std::string>()).second && f.seen[room].size() == 1) {
      f.order.push_back(room);
    }
    release();
  }
}

// A spectator connection follows the tournament of code, its host starts it, and the players
// play it out (losers resigning once the spectator watches their room: follow's gate_at): what
// the spectator saw.
Follower watch_it_played(ServerProcess& server, std::vector<std::unique_ptr<Scripted>>& players,
                         const std::string& code, std::size_t gate_at,
                         std::chrono::seconds deadline) {
  WsClient spectator(server.port());
  spectator.hello("watcher");
  const json followed =
      spectator.request({{"type", "spectate_tournament"}, {"code", code}, {"rid", 1}});
  EXPECT_EQ(followed["type"], "tournament") << followed.dump();
  Watched watched;
  Follower f;
  std::thread watching([&] { follow(spectator, f, watched, gate_at); });
  EXPECT_EQ(ask(players[0]->racer.ws, {{"type", "start_tournament"}})["type"], "tournament");
  run(players, Script::better_seed_wins, deadline, &watched);
  watching.join();
  return f;
}

// Eight players, one spectator connection: every round-1 match's race stream (its start or
// state, the loser's resigning update, the race_over), then round 2's and the final's, with
// no `spectate` of any room.
TEST(TournamentTv, ASpectatorOfAnEightPlayerKnockoutSeesEveryMatchOfEachRound) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  std::string code;
  auto players = field(server, 8, {{"format", "single_elimination"}, {"time_limit", 60}}, code);
  const Follower f = watch_it_played(server, players, code, 0, 60s);
  ASSERT_EQ(f.failure, "");
  std::map<int, int> updates_in_round, overs_in_round;
  for (const auto& [room, types] : f.seen) {
    updates_in_round[f.round_of.at(room)] += types.count("race_update");
    overs_in_round[f.round_of.at(room)] += types.count("race_over");
  }
  EXPECT_EQ(updates_in_round, (std::map<int, int>{{1, 4}, {2, 2}, {3, 1}}));
  EXPECT_EQ(overs_in_round, (std::map<int, int>{{1, 4}, {2, 2}, {3, 1}}));
  // Between their own matches the players watched the others: racer00, out of round 1 first
  // or not, saw at least one other match's stream before the final.
  std::size_t watched_by_players = 0;
  for (const auto& p : players) watched_by_players += p->watched.size();
  EXPECT_GT(watched_by_players, 0u);
  for (const auto& p : players) EXPECT_EQ(p->watched.count(p->room), 0u) << "their own room";
}

// Forty players in a Swiss: twenty matches a round, of which the spectator follows eight at a
// time — the first eight paired (everyone's rating is equal) — and as each ends, the next.
TEST(TournamentTv, ASpectatorOfAFortyPlayerSwissFollowsEightMatchesAtATime) {
  ServerProcess server({"--countdown", "0", "--rate", "100000", "--max-connections-per-ip", "0"});
  std::string code;
  auto players = field(server, 40, {{"format", "swiss"}, {"rounds", 1}, {"max_players", 40}}, code);
  const Follower f = watch_it_played(server, players, code, 8, 90s);
  ASSERT_EQ(f.failure, "");
  // Nothing ended before the spectator had its first eight: had a ninth been followed, its
  // stream would have come before the first race_over.
  EXPECT_EQ(f.followed_at_first_end, 8u);
  ASSERT_GE(f.order.size(), 8u);
  ASSERT_EQ(f.first_matches.size(), 20u);
  EXPECT_EQ(std::set<std::string>(f.order.begin(), f.order.begin() + 8),
            std::set<std::string>(f.first_matches.begin(), f.first_matches.begin() + 8))
      << "equal ratings: the first matches paired";
  EXPECT_EQ(f.order.size(), 20u) << "each match followed in turn as others ended";
  for (const auto& [room, types] : f.seen) EXPECT_EQ(types.count("race_over"), 1u) << room;
}

}  // namespace
}  // namespace tilerace::e2e
