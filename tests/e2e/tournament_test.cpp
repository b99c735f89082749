// Tournaments against the real server (docs/protocol.md, "Tournaments"): scripted players play
// single elimination, Swiss and arena through to the end, over real sockets.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"
#include "tests/e2e/tournament_players.hpp"

namespace tilerace::e2e {
namespace {

TEST(Tournament, SixteenPlayersPlayASingleEliminationToAWinner) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  std::string code;
  auto players =
      field(server, 16, {{"format", "single_elimination"}, {"max_players", 16}, {"time_limit", 60}},
            code);
  const json started = ask(players[0]->racer.ws, {{"type", "start_tournament"}});
  ASSERT_EQ(started["type"], "tournament") << started.dump();
  EXPECT_EQ(started["tournament"]["state"], "running");
  EXPECT_EQ(started["tournament"]["rounds"], 4);
  run(players, Script::better_seed_wins, 60s);

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  ASSERT_GE(final["podium"].size(), 2u);
  EXPECT_EQ(final["podium"][0], players[0]->racer.id);
  EXPECT_EQ(final["podium"][1], players[1]->racer.id);
  int done = 0;
  for (const json& m : final["matches"]) done += m["state"] == "done";
  EXPECT_EQ(done, 15) << "every match was played";
  // The winner played four races, the runner-up four, each first-round loser one: every race
  // recorded and every rating changed once per race.
  expect_one_rating_change_per_race(*players[0], 4);
  expect_one_rating_change_per_race(*players[1], 4);
  for (int i = 8; i < 16; ++i) expect_one_rating_change_per_race(*players[i], 1);
  std::set<std::string> races;
  for (const auto& p : players) {
    for (const json& over : p->race_overs) races.insert(over["code"].get<std::string>());
  }
  EXPECT_EQ(races.size(), 15u) << "a room of its own for each match";
  EXPECT_TRUE(server.wait_for_metric("tilerace_rooms", 0));
}

// A spectator follows the tournament and watches every match's room from the snapshots (each
// loser waits until its room is watched before resigning).
TEST(Tournament, ASwissOfNineRunsThreeRoundsWithOneByeEachAndASpectatorWatchesEveryMatch) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  std::string code;
  auto players = field(server, 9, {{"format", "swiss"}, {"rounds", 3}}, code);
  WsClient spectator(server.port());
  spectator.hello("watcher");
  const json followed =
      spectator.request({{"type", "spectate_tournament"}, {"code", code}, {"rid", 1}});
  ASSERT_EQ(followed["type"], "tournament");
  EXPECT_EQ(followed["tournament"]["spectators"], 1);
  Watched watched;
  std::map<int, std::set<std::string>> watched_in_round;  // round → the rooms watched
  std::string spectator_failure;
  std::thread watching([&] {
    std::map<std::string, int> round_of;  // a racing match's room → its round
    std::set<std::string> asked;
    for (;;) {
      const std::optional<json> m = spectator.next(30s);
      if (!m) {
        spectator_failure = "the spectator's connection closed or went quiet";
        return;
      }
      if ((*m)["type"] == "tournament") {
        const json& t = (*m)["tournament"];
        for (const json& match : t["matches"]) {
          if (match["state"] != "racing" || !match["room"].is_string()) continue;
          const std::string room = match["room"];
          round_of[room] = match["round"];
          if (asked.insert(room).second) spectator.send({{"type", "spectate"}, {"code", room}});
        }
        if (t["state"] == "finished") return;
      } else if ((*m)["type"] == "room") {
        const std::string room = (*m)["room"]["code"];
        EXPECT_EQ((*m)["room"]["tournament"], code);
        watched_in_round[round_of[room]].insert(room);
        watched.add(room);
      }
    }
  });
  EXPECT_EQ(ask(players[0]->racer.ws, {{"type", "start_tournament"}})["type"], "tournament");
  run(players, Script::better_seed_wins, 60s, &watched);
  watching.join();
  EXPECT_EQ(spectator_failure, "");
  std::map<int, std::size_t> rooms_watched;
  for (const auto& [round, rooms] : watched_in_round) rooms_watched[round] = rooms.size();
  EXPECT_EQ(rooms_watched, (std::map<int, std::size_t>{{1, 4}, {2, 4}, {3, 4}}))
      << "the spectator watched each round's four races";

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  std::set<std::string> byes;
  std::map<int, int> matches_in_round;
  std::set<std::pair<std::string, std::string>> met;
  for (const json& m : final["matches"]) {
    if (m["state"] == "bye") {
      EXPECT_TRUE(byes.insert(m["a"].get<std::string>()).second) << "a second bye";
      continue;
    }
    EXPECT_EQ(m["state"], "done");
    ++matches_in_round[m["round"].get<int>()];
    std::string a = m["a"], b = m["b"];
    if (b < a) std::swap(a, b);
    EXPECT_TRUE(met.insert({a, b}).second) << "a rematch";
  }
  EXPECT_EQ(byes.size(), 3u);
  EXPECT_EQ(matches_in_round, (std::map<int, int>{{1, 4}, {2, 4}, {3, 4}}));
  // Every win (a bye is one) is worth 2: the points add up to 2 × (12 matches + 3 byes).
  int points = 0;
  for (const json& p : final["players"]) points += p["points"].get<int>();
  EXPECT_EQ(points, 30);
  EXPECT_EQ(final["players"][0]["id"], players[0]->racer.id) << "racer00 won all three";
  EXPECT_EQ(final["players"][0]["points"], 6);
  EXPECT_EQ(final["podium"].size(), 3u);
}

// A player away when their match starts has the grace to come, and loses it unplayed after.
TEST(Tournament, APlayerAbsentWhenTheirMatchStartsForfeitsAfterTheGrace) {
  ServerProcess server({"--countdown", "0", "--rate", "100000", "--grace", "2"});
  std::string code;
  auto players = field(server, 4, {{"format", "single_elimination"}}, code);
  const Scripted::Saved absent = players[3]->saved();
  players[3].reset();  // racer03 (the fourth seed, racer00's first opponent) goes away
  ASSERT_TRUE(server.wait_for_metric("tilerace_players", 3)) << "the server saw it go";
  EXPECT_EQ(ask(players[0]->racer.ws, {{"type", "start_tournament"}})["type"], "tournament");
  players.pop_back();
  run(players, Script::better_seed_wins, 30s);
  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  EXPECT_EQ(final["podium"][0], players[0]->racer.id);
  const json& first = final["matches"][0];  // seeds 1 and 4
  EXPECT_EQ(first["state"], "done");
  EXPECT_EQ(first["winner"], players[0]->racer.id);
  // racer00 raced only the final; racer01 and racer02 their semifinal, and racer01 the final.
  expect_one_rating_change_per_race(*players[0], 1);
  expect_one_rating_change_per_race(*players[1], 2);
  expect_one_rating_change_per_race(*players[2], 1);
  // The walkover is a result: racer00 was told, in the room they waited in (no race, no
  // rating change), and racer03 is told when they come back.
  ASSERT_EQ(players[0]->walkovers.size(), 1u);
  const json& walkover = players[0]->walkovers[0];
  EXPECT_EQ(walkover["winner"], players[0]->racer.id);
  ASSERT_EQ(walkover["standings"].size(), 2u);
  EXPECT_EQ(walkover["standings"][1]["player"], absent.id);
  EXPECT_EQ(walkover["standings"][1]["state"], "forfeited");
  EXPECT_EQ(walkover["ratings"][absent.id]["before"], walkover["ratings"][absent.id]["after"]);
  EXPECT_EQ(walkover["replays"], json::object());
  json welcome;
  Scripted back(server.port(), absent, welcome);
  const json told = back.racer.ws.until("race_over");
  EXPECT_EQ(told["reason"], "walkover");
  EXPECT_EQ(told["winner"], players[0]->racer.id);
}

// n players in an arena of 60 s whose races last up to 30 s (and options), started by its host:
// the snapshot that answered the start.
json start_arena(ServerProcess& server, std::vector<std::unique_ptr<Scripted>>& players, int n,
                 json options = json::object()) {
  options.update({{"format", "arena"}, {"duration", 60}, {"time_limit", 30}});
  std::string code;
  players = field(server, n, options, code);
  const json started = ask(players[0]->racer.ws, {{"type", "start_tournament"}});
  EXPECT_EQ(started["type"], "tournament") << started.dump();
  return started.value("tournament", json::object());
}

// Six players for 60 s: everyone is paired at the start and again as their races end, never
// twice in a row against the same player, and the points are the results' (streaks doubled).
TEST(Tournament, AnArenaOfSixRunsForItsMinuteAndCountsItsPoints) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  std::vector<std::unique_ptr<Scripted>> players;
  const json started = start_arena(server, players, 6);
  EXPECT_EQ(started["matches"].size(), 3u) << "everyone paired at the start";
  EXPECT_TRUE(started["ends_at"].is_number());
  run(players, Script::race_the_clock, 120s);

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  std::map<std::string, int> points, wins_in_a_row;
  std::map<std::string, std::string> last_opponent;
  int matches = 0;
  for (const json& m : final["matches"]) {  // in the order they were paired
    ASSERT_EQ(m["state"], "done");
    ++matches;
    const std::string a = m["a"], b = m["b"];
    EXPECT_NE(last_opponent[a], b) << "a rematch straight away";
    last_opponent[a] = b;
    last_opponent[b] = a;
    for (const std::string& p : {a, b}) {
      const bool won = m["winner"] == p;
      const int base = won ? 2 : m["draw"].get<bool>() ? 1 : 0;
      points[p] += wins_in_a_row[p] >= 2 ? 2 * base : base;
      wins_in_a_row[p] = won ? wins_in_a_row[p] + 1 : 0;
    }
  }
  EXPECT_GE(matches, 5) << "pairings again as the first races ended";
  for (const json& p : final["players"]) {
    EXPECT_EQ(p["points"], points[p["id"].get<std::string>()]) << p.dump();
  }
}

// Each player's points as the snapshot's matches add them up (in pairing order): a win 2, a draw
// 1, a loss 0; in an arena, doubled on a streak (two wins in a row).
std::map<std::string, int> points_of(const json& tournament) {
  const bool arena = tournament["format"] == "arena";
  std::map<std::string, int> points, wins_in_a_row;
  for (const json& m : tournament["matches"]) {
    if (m["state"] == "bye") points[m["a"].get<std::string>()] += 2;
    if (m["state"] != "done") continue;
    for (const auto& [p, result] : m["results"].items()) {
      const int base = result == "win" ? 2 : result == "draw" ? 1 : 0;
      points[p] += arena && wins_in_a_row[p] >= 2 ? 2 * base : base;
      wins_in_a_row[p] = result == "win" ? wins_in_a_row[p] + 1 : 0;
    }
  }
  return points;
}

// Every match's results in the final snapshot are what its race's places made them (first
// alone a win, last a loss, between a draw), as the racers' race_over gave the places.
void expect_results_as_raced(const std::vector<std::unique_ptr<Scripted>>& players,
                             const json& final) {
  std::map<std::string, json> overs;  // room → its race_over
  for (const auto& p : players) {
    for (const json& over : p->race_overs) overs[over["code"].get<std::string>()] = over;
  }
  std::multiset<std::string> raced, shown;
  for (const auto& [room, over] : overs) {
    int last = 1, first = 0;
    for (const json& s : over["standings"]) {
      last = std::max(last, s["place"].get<int>());
      first += s["place"] == 1;
    }
    json results = json::object();
    for (const json& s : over["standings"]) {
      const int place = s["place"];
      results[s["player"].get<std::string>()] = place == 1      ? (first == 1 ? "win" : "draw")
                                                : place == last ? "loss"
                                                                : "draw";
    }
    raced.insert(results.dump());
  }
  for (const json& m : final["matches"]) {
    if (m["state"] == "done") shown.insert(m["results"].dump());
  }
  EXPECT_EQ(shown, raced);
}

// Rooms of up to four: seven players race all against all in a room of four and one of three
// each round; the best of each room wins it (the others resign: they share last place and
// lose), and the points are the rooms' results.
TEST(Tournament, ASwissOfSevenInRoomsOfFourRacesAllAgainstAll) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  std::string code;
  auto players = field(server, 7, {{"format", "swiss"}, {"rounds", 2}, {"room_size", 4}}, code);
  EXPECT_EQ(players[0]->racer.ws.request({{"type", "start_tournament"}, {"rid", "go"}})["type"],
            "tournament");
  run(players, Script::better_seed_wins, 60s);

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  EXPECT_EQ(final["room_size"], 4);
  std::map<int, std::multiset<std::size_t>> rooms;  // round → its rooms' sizes
  std::map<int, std::set<std::string>> seated;      // round → who raced in it
  for (const json& m : final["matches"]) {
    ASSERT_EQ(m["state"], "done") << "no byes in rooms";
    const int round = m["round"];
    rooms[round].insert(m["players"].size());
    for (const json& p : m["players"]) {
      EXPECT_TRUE(seated[round].insert(p.get<std::string>()).second) << "twice in a round";
    }
    int wins = 0;
    for (const auto& [p, result] : m["results"].items()) {
      if (result != "win") continue;
      ++wins;
      EXPECT_EQ(m["winner"], p);
    }
    EXPECT_EQ(wins, 1) << m.dump();
  }
  const std::multiset<std::size_t> four_and_three = {3, 4};
  EXPECT_EQ(rooms,
            (std::map<int, std::multiset<std::size_t>>{{1, four_and_three}, {2, four_and_three}}));
  const std::map<std::string, int> points = points_of(final);
  int total = 0;
  for (const json& p : final["players"]) {
    EXPECT_EQ(p["points"], points.count(p["id"]) ? points.at(p["id"]) : 0) << p.dump();
    total += p["points"].get<int>();
  }
  EXPECT_EQ(total, 2 * 2 * 2) << "one win a room";
  EXPECT_EQ(final["podium"][0], players[0]->racer.id) << "racer00 won both rooms";
  expect_results_as_raced(players, final);
  // Each race's race_over gives places: the winner first, the resigned sharing the last.
  for (const auto& p : players) {
    expect_one_rating_change_per_race(*p, 2);
    for (const json& over : p->race_overs) {
      const json& standings = over["standings"];
      EXPECT_EQ(standings[0]["place"], 1);
      for (std::size_t i = 1; i < standings.size(); ++i) EXPECT_EQ(standings[i]["place"], 2);
    }
  }
}

// A room of three whose third player is away past the grace: the other two race it, and the
// absent one, out of the match, is last below them (so the second of the two draws it).
TEST(Tournament, ARoomRacesWithoutAPlayerAwayPastTheGrace) {
  ServerProcess server({"--countdown", "0", "--rate", "100000", "--grace", "2"});
  std::string code;
  auto players = field(server, 6, {{"format", "swiss"}, {"rounds", 1}, {"room_size", 3}}, code);
  const std::string away = players[5]->racer.id;
  players[5].reset();  // racer05 goes away
  ASSERT_TRUE(server.wait_for_metric("tilerace_players", 5)) << "the server saw it go";
  EXPECT_EQ(ask(players[0]->racer.ws, {{"type", "start_tournament"}})["type"], "tournament");
  players.pop_back();
  run(players, Script::better_seed_wins, 30s);

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  ASSERT_EQ(final["matches"].size(), 2u);
  const json& second = final["matches"][1];
  EXPECT_EQ(second["players"], (json{players[3]->racer.id, players[4]->racer.id, away}));
  EXPECT_EQ(second["results"],
            (json{{players[3]->racer.id, "win"}, {players[4]->racer.id, "draw"}, {away, "loss"}}));
  ASSERT_EQ(players[3]->race_overs.size(), 1u);
  EXPECT_EQ(players[3]->race_overs[0]["standings"].size(), 2u) << "raced by the two there";
  expect_one_rating_change_per_race(*players[3], 1);
  expect_one_rating_change_per_race(*players[4], 1);
}

// An arena of five in rooms of three for its minute: rooms of three and two at the start, the
// rooms' places scored (first 2, last 0, between 1, doubled on a streak).
TEST(Tournament, AnArenaInRoomsOfThreeScoresByPlace) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  std::vector<std::unique_ptr<Scripted>> players;
  const json started = start_arena(server, players, 5, {{"room_size", 3}});
  std::multiset<std::size_t> sizes;
  for (const json& m : started["matches"]) sizes.insert(m["players"].size());
  EXPECT_EQ(sizes, (std::multiset<std::size_t>{2, 3})) << "everyone seated at the start";
  run(players, Script::race_the_clock, 120s);

  const json& final = players[0]->last;
  EXPECT_EQ(final["state"], "finished");
  int matches = 0;
  for (const json& m : final["matches"]) {
    ASSERT_EQ(m["state"], "done");
    ++matches;
  }
  EXPECT_GE(matches, 3) << "rooms again as the first races ended";
  expect_results_as_raced(players, final);
  const std::map<std::string, int> points = points_of(final);
  for (const json& p : final["players"]) {
    EXPECT_EQ(p["points"], points.count(p["id"]) ? points.at(p["id"]) : 0) << p.dump();
  }
}

TEST(Tournament, BadRequestsGetClearErrorsAndChangeNothing) {
  ServerProcess server({"--countdown", "0"});
  Racer host(server.port(), "hosting"), other(server.port(), "another"),
      late(server.port(), "latest");
  const auto error_of = [](WsClient& ws, const json& m) { return ask(ws, m)["code"]; };
  EXPECT_EQ(error_of(host.ws, {{"type", "create_tournament"}, {"format", "ladder"}}), "bad_field");
  EXPECT_EQ(error_of(host.ws, {{"type", "create_tournament"}, {"format", "swiss"}, {"rounds", 0}}),
            "bad_field");
  EXPECT_EQ(
      error_of(host.ws, {{"type", "create_tournament"}, {"format", "arena"}, {"starts", 1000}}),
      "bad_field")
      << "a start in the past";
  EXPECT_EQ(error_of(host.ws, {{"type", "create_tournament"},
                               {"format", "single_elimination"},
                               {"max_players", 257}}),
            "bad_field");
  EXPECT_EQ(error_of(other.ws, {{"type", "join_tournament"}, {"code", "ZZZZZZ"}}),
            "no_such_tournament");
  EXPECT_EQ(error_of(other.ws, {{"type", "leave_tournament"}}), "not_in_tournament");
  EXPECT_EQ(error_of(other.ws, {{"type", "start_tournament"}}), "not_in_tournament");
  const json created = host.ws.request(
      {{"type", "create_tournament"}, {"format", "single_elimination"}, {"max_players", 2}});
  const std::string code = created["tournament"]["code"];
  EXPECT_EQ(error_of(host.ws, {{"type", "start_tournament"}}), "not_allowed") << "alone";
  EXPECT_EQ(error_of(host.ws, {{"type", "join_tournament"}, {"code", code}}),
            "already_in_tournament");
  EXPECT_EQ(other.ws.request({{"type", "join_tournament"}, {"code", code}})["type"], "tournament");
  EXPECT_EQ(host.ws.until("tournament")["tournament"]["players"].size(), 2u);
  EXPECT_EQ(error_of(late.ws, {{"type", "join_tournament"}, {"code", code}}), "tournament_full");
  EXPECT_EQ(error_of(other.ws, {{"type", "start_tournament"}}), "not_allowed") << "not the host";
  // Leaving before the start, and coming back.
  EXPECT_EQ(ask(other.ws, {{"type", "leave_tournament"}})["tournament"]["players"].size(), 1u);
  EXPECT_EQ(ask(other.ws, {{"type", "join_tournament"}, {"code", code}})["type"], "tournament");
  EXPECT_EQ(ask(host.ws, {{"type", "start_tournament"}})["tournament"]["state"], "running");
  EXPECT_EQ(error_of(late.ws, {{"type", "join_tournament"}, {"code", code}}), "tournament_started");
  // The match room is the tournament's: no ready, no kick.
  const json room = other.ws.until("room");
  EXPECT_EQ(room["room"]["tournament"], code);
  host.ws.send({{"type", "kick"}, {"player", other.id}});
  EXPECT_EQ(host.ws.until("error")["code"], "not_allowed");
}

// --tournaments-per-player-hour: a player's creations beyond it are refused (rate_limited), as
// the per-address room limit refuses rooms; another player may still create.
TEST(Tournament, APlayerCreatesNoMoreTournamentsAnHourThanTheLimit) {
  ServerProcess server({"--tournaments-per-player-hour", "2"});
  Racer ann(server.port(), "ann-t"), bob(server.port(), "bob-t");
  const json create{{"type", "create_tournament"}, {"format", "swiss"}};
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(ask(ann.ws, create)["type"], "tournament") << i;
    ASSERT_EQ(ask(ann.ws, {{"type", "leave_tournament"}})["type"], "tournament") << i;
  }
  const json refused = ask(ann.ws, create);
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "rate_limited");
  EXPECT_EQ(ask(bob.ws, create)["type"], "tournament");
}

}  // namespace
}  // namespace tilerace::e2e
