// Cluster mode with the real binary: two or three nodes sharing a real PostgreSQL and a real
// redis-server (both started by the tests on free loopback ports). One world: tokens and
// leaderboards everywhere, rooms found and joined through any node, quick match across nodes,
// a dead node's races adopted by a survivor and finished there, Redis going away and coming
// back.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <map>
#include <set>

#include "tests/e2e/cluster_nodes.hpp"
#include "tests/e2e/shared_world.hpp"

namespace tilerace::e2e {
namespace {

TEST_F(Cluster, TokensAndLeaderboardsAreTheSameOnEveryNode) {
  const auto a = node("a");
  const auto b = node("b");
  WsClient on_a(a->port());
  const json ann = on_a.hello("ann");
  finish_a_ranked_game(on_a);
  const json board =
      json::parse(http_request(a->port(), "/api/leaderboard?mode=classic&size=3&kind=score").body);
  ASSERT_EQ(board["entries"].size(), 1u);
  // ann's token works on b, and b ranks her result as a does.
  EXPECT_EQ(rank_becomes(b->port(), ann, 1), 1);
  EXPECT_EQ(json::parse(http_request(b->port(), "/api/leaderboard?mode=classic&size=3&kind=score")
                            .body)["entries"],
            board["entries"]);
}

// Nodes on different hosts: a page served by one opens its socket on another (an invite link
// redirected there). Each node allows the origins of the others' public URLs, as heard in the
// directory, and no one else's.
TEST_F(Cluster, EachNodeLetsThePagesOfTheOtherNodesOpenSockets) {
  auto a = node("a");
  auto b = node("b", {"--public-url", "ws://127.0.0.2:4444/ws"});
  const auto upgrade = [&](const std::string& origin) {
    return http_request(a->port(), "/ws", "GET",
                        {{"Upgrade", "websocket"},
                         {"Connection", "Upgrade"},
                         {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
                         {"Sec-WebSocket-Version", "13"},
                         {"Origin", origin}})
        .status;
  };
  EXPECT_TRUE(testing::eventually([&] { return upgrade("http://127.0.0.2:4444") == 101; }, 10s));
  EXPECT_EQ(upgrade("http://127.0.0.3:4444"), 403);
  EXPECT_EQ(upgrade("https://evil.example"), 403);
}

TEST_F(Cluster, ARoomOnOneNodeIsListedJoinedAndSpectatedThroughAnother) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  const std::string code = create_room(ann, {{"size", 4}, {"public", true}})["code"];
  WsClient lobby(b->port());
  lobby.hello("lobby");
  ASSERT_TRUE(eventually_listed(lobby, code, true));
  const json via_http = json::parse(http_request(b->port(), "/api/rooms").body);
  EXPECT_EQ(via_http["rooms"].size(), 1u);

  // bob joins through b: redirected to a, where he repeats the request.
  Racer bob_on_b(b->port(), "bob");
  const json redirect = bob_on_b.ws.request({{"type", "join_room"}, {"code", code}, {"rid", 1}});
  ASSERT_EQ(redirect["type"], "redirect") << redirect.dump();
  EXPECT_EQ(redirect["code"], code);
  EXPECT_EQ(redirect["reason"], "join_room");
  EXPECT_EQ(redirect["rid"], 1);
  ASSERT_EQ(port_of(redirect["url"]), a->port());
  const auto bob = follow(bob_on_b, port_of(redirect["url"]));
  ASSERT_EQ(bob->ws.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  ann.ws.until("room");

  // A spectator comes the same way.
  WsClient watcher_on_b(b->port());
  const json watcher_welcome = watcher_on_b.hello("watcher");
  const json to_a = watcher_on_b.request({{"type", "spectate"}, {"code", code}});
  ASSERT_EQ(to_a["type"], "redirect") << to_a.dump();
  EXPECT_EQ(to_a["reason"], "spectate");
  WsClient watcher(port_of(to_a["url"]));
  watcher.request({{"type", "hello"}, {"name", "w"}, {"token", watcher_welcome["token"]}});
  ASSERT_EQ(watcher.request({{"type", "spectate"}, {"code", code}})["type"], "room");

  // Identical starting boards for both racers; the spectator sees every move, in order.
  const std::vector<json> starts = start_race({&ann, bob.get()});
  EXPECT_EQ(starts[0]["games"], starts[1]["games"]);
  int moves = 0;
  for (int i = 0; i < 12; ++i) {
    if (play(ann.ws, kDirs[i % 4])["changed"] == true) ++moves;
  }
  int seen = 0;
  for (int i = 0; i < moves; ++i) {
    const json update = watcher.until("race_update");
    if (update["player"] != ann.id) continue;
    EXPECT_EQ(update["moves"], ++seen);
  }
  EXPECT_EQ(seen, moves);
  EXPECT_GE(b->metric("tilerace_redirects_total"), 2);
}

TEST_F(Cluster, ANodeStoppedWithSigtermLeavesTheDirectoryBeforeItGoes) {
  auto a = node("a");
  const auto b = node("b");
  std::string code;
  {
    Racer ann(a->port(), "ann");
    code = create_room(ann, {{"size", 4}, {"public", true}})["code"];
  }
  WsClient lobby(b->port());
  lobby.hello("lobby");
  ASSERT_TRUE(eventually_listed(lobby, code, true));
  EXPECT_EQ(a->stop(SIGTERM), 0);
  // At once, not when a's lease would have run out: nobody is sent to a stopped node.
  EXPECT_EQ(lobby.request({{"type", "join_room"}, {"code", code}})["code"], "no_such_room");
  EXPECT_TRUE(eventually_listed(lobby, code, false));
}

TEST_F(Cluster, QuickMatchPairsPlayersOnDifferentNodesIntoOneRace) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  ASSERT_EQ(ann.ws.request({{"type", "quick_match"}, {"mode", "classic"}, {"size", 4}})["type"],
            "queued");
  Racer bob(b->port(), "bob");
  const json room = bob.ws.request({{"type", "quick_match"}, {"mode", "classic"}, {"size", 4}});
  ASSERT_EQ(room["type"], "room") << room.dump();
  ASSERT_EQ(room["room"]["players"].size(), 2u);
  const std::string code = room["room"]["code"];
  // ann's node sends her to b, where she is expected: hello is all it takes.
  const json redirect = ann.ws.until("redirect");
  EXPECT_EQ(redirect["reason"], "quick_match");
  EXPECT_EQ(redirect["code"], code);
  ASSERT_EQ(port_of(redirect["url"]), b->port());
  const auto ann_on_b = follow(ann, b->port());
  const json ann_start = ann_on_b->ws.until("race_start");
  const json bob_start = bob.ws.until("race_start");
  EXPECT_EQ(ann_start["code"], code);
  EXPECT_EQ(bob_start["code"], code);
  EXPECT_EQ(ann_start["games"], bob_start["games"]);
}

// One race on a node about to die, as its racers and spectator saw it.
struct Doomed {
  std::unique_ptr<Racer> ann, bob;
  std::unique_ptr<WsClient> spectator;
  std::string code;
  json last_board;  // both racers played the same moves: one board for both
  int moves = 0;    // each racer's, acknowledged
};

TEST_F(Cluster, WhenANodeDiesASurvivorAdoptsItsRacesAndTheyFinish) {
  // Every client comes from 127.0.0.1, as behind a balancer.
  const std::vector<std::string> open{"--rooms-per-ip", "0", "--max-connections-per-ip", "0"};
  auto a = node("a", open);
  const auto b = node("b", open);
  const auto c = node("c", open);
  constexpr int kRaces = 20;
  std::vector<Doomed> races(kRaces);
  // Race i: two racers, a spectator, the same three moves each.
  const auto start = [&](int i) {
    Doomed& d = races[i];
    d.ann = std::make_unique<Racer>(a->port(), "ann" + std::to_string(i));
    d.bob = std::make_unique<Racer>(a->port(), "bob" + std::to_string(i));
    d.code = create_room(*d.ann, {{"size", 4}, {"public", true}, {"time_limit", 600}})["code"];
    ASSERT_EQ(d.bob->ws.request({{"type", "join_room"}, {"code", d.code}})["type"], "room");
    d.spectator = std::make_unique<WsClient>(a->port());
    d.spectator->hello("watcher" + std::to_string(i));
    d.spectator->send({{"type", "spectate"}, {"code", d.code}});
    ASSERT_EQ(d.spectator->until("room")["room"]["code"], d.code);
    start_race({d.ann.get(), d.bob.get()});
    for (const char* dir : {"left", "up", "right"}) {
      const json am = play(d.ann->ws, dir);
      const json bm = play(d.bob->ws, dir);
      ASSERT_EQ(am["type"], "moved") << am.dump();
      EXPECT_EQ(am["board"], bm["board"]);
      d.last_board = am["board"];
      d.moves = am["moves"];
    }
  };
  for (int i = 0; i + 1 < kRaces; ++i) ASSERT_NO_FATAL_FAILURE(start(i));
  // Those are in the store's journal (a journals once a second); then one more move each,
  // acknowledged, and a last race that is not a second old when a dies at once: what they
  // were told is only in the move journal (Redis) and in the young race's first write.
  ASSERT_TRUE(testing::eventually(
      [&] { return query("SELECT count(*) FROM active_races") == kRaces - 1; }, 5s));
  for (int i = 0; i + 1 < kRaces; ++i) {
    Doomed& d = races[i];
    const json am = play(d.ann->ws, "down");
    const json bm = play(d.bob->ws, "down");
    ASSERT_EQ(am["type"], "moved") << am.dump();
    EXPECT_EQ(am["board"], bm["board"]);
    d.last_board = am["board"];
    d.moves = am["moves"];
  }
  ASSERT_NO_FATAL_FAILURE(start(kRaces - 1));
  a->stop(SIGKILL);
  // The first race's racers are back at once, before anyone noticed a is gone.
  json early_a, early_b;
  auto early_ann = come_back(*races[0].ann, c->port(), early_a);
  auto early_bob = come_back(*races[0].bob, c->port(), early_b);
  EXPECT_EQ(early_a["games"][races[0].ann->id]["board"], races[0].last_board);
  early_ann.reset();
  early_bob.reset();
  // One survivor adopts each race, exactly once.
  ASSERT_TRUE(testing::eventually(
      [&] { return query("SELECT count(*) FROM active_races WHERE node IN ('b', 'c')") == kRaces; },
      15s));
  EXPECT_EQ(query("SELECT count(*) FROM active_races"), kRaces);
  WsClient lobby(b->port());
  lobby.hello("lobby");
  for (Doomed& d : races) ASSERT_TRUE(eventually_listed(lobby, d.code, true)) << d.code;
  // Every rebuilt game is where its journal's last check says it was.
  EXPECT_EQ(b->metric("tilerace_adoption_mismatches_total"), 0);
  EXPECT_EQ(c->metric("tilerace_adoption_mismatches_total"), 0);

  for (Doomed& d : races) {
    // The racers come back through the balancer, each to the adopting node, and find their
    // game as it was acknowledged.
    json state_a, state_b;
    auto ann = come_back(*d.ann, b->port(), state_a);
    auto bob = come_back(*d.bob, b->port(), state_b);
    EXPECT_EQ(state_a["code"], d.code);
    EXPECT_EQ(state_a["games"][d.ann->id]["board"], d.last_board);
    EXPECT_EQ(state_b["games"][d.bob->id]["board"], d.last_board);
    EXPECT_EQ(state_a["games"][d.ann->id]["moves"], d.moves);
    // The race goes on from there: the same move still brings the same spawn to both.
    const json am = play(ann->ws, "left");
    const json bm = play(bob->ws, "left");
    ASSERT_EQ(am["type"], "moved") << am.dump();
    EXPECT_EQ(am["board"], bm["board"]);
    // A spectator finds it too (redirected if need be) and sees the end.
    WsClient spectator(b->port());
    spectator.hello("watcher-" + d.code);
    json spectated = spectator.request({{"type", "spectate"}, {"code", d.code}});
    std::unique_ptr<WsClient> moved_spectator;
    WsClient* watching = &spectator;
    if (spectated["type"] == "redirect") {
      moved_spectator = std::make_unique<WsClient>(port_of(spectated["url"]));
      moved_spectator->hello("watcher2-" + d.code);
      watching = moved_spectator.get();
      spectated = watching->request({{"type", "spectate"}, {"code", d.code}});
    }
    EXPECT_EQ(spectated["room"]["state"], "racing") << spectated.dump();
    bob->ws.send({{"type", "resign"}});
    const json over = ann->ws.until("race_over");
    EXPECT_EQ(over["reason"], "forfeit");
    EXPECT_EQ(over["winner"], d.ann->id);
    EXPECT_EQ(watching->until("race_over"), over);
    // Ann's replay holds her moves from before and after the node died.
    const json replay = json::parse(
        http_request(b->port(), "/api/replays/" + over["replays"][d.ann->id].get<std::string>())
            .body);
    EXPECT_EQ(replay["moves"].get<std::string>().size(), am["moves"].get<std::size_t>());
  }
  // Every result recorded once, with its rating change; nothing aborted, nothing left over.
  ASSERT_TRUE(
      testing::eventually([&] { return query("SELECT count(*) FROM races") == kRaces; }, 5s));
  EXPECT_EQ(query("SELECT count(*) FROM races WHERE reason = 'aborted'"), 0);
  EXPECT_EQ(query("SELECT SUM(races) FROM players"), 2 * kRaces);
  EXPECT_EQ(query("SELECT count(*) FROM active_races"), 0);
}

TEST_F(Cluster, AMoveUnansweredWhenItsNodeDiedIsEverywhereOrNowhereAndAtMoveResyncs) {
  auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  const std::string code = race(ann, bob, {{"time_limit", 600}});
  json last;
  for (const char* dir : {"left", "up"}) {
    last = play(ann.ws, dir);
    ASSERT_EQ(last["type"], "moved") << last.dump();
  }
  const int known = last["moves"];
  // A move is on its way (or in the journal, or applied and unanswered) when a dies.
  ann.ws.send({{"type", "move"}, {"dir", "right"}, {"at_move", known}});
  a->stop(SIGKILL);
  json state_a, state_b;
  const auto ann_back = come_back(ann, b->port(), state_a);
  const auto bob_back = come_back(bob, b->port(), state_b);
  const json& mine = state_a["games"][ann.id];
  // Everyone sees the same game of ann's: the move is in it for all, or for none.
  EXPECT_EQ(state_b["games"][ann.id], mine);
  const int now = mine["moves"];
  EXPECT_TRUE(now == known || now == known + 1) << now;
  // The client still thinks it made `known` moves: at_move resynchronises it.
  ann_back->ws.send({{"type", "move"}, {"dir", "down"}, {"at_move", known}});
  const json answer = ann_back->ws.until(now == known ? "moved" : "error");
  if (now == known + 1) {
    EXPECT_EQ(answer["code"], "stale");
    EXPECT_EQ(ann_back->ws.until("game")["game"]["moves"], now);
  } else {
    EXPECT_EQ(answer["moves"], known + 1);
  }
}

TEST_F(Cluster, AnAdopterThatDiesLetsGoAndTwoNodesDyingInTurnLoseNoRace) {
  std::map<std::string, std::unique_ptr<ServerProcess>> nodes;
  for (const char* n : {"a", "b", "c"}) nodes[n] = node(n);
  Racer ann(nodes["a"]->port(), "ann");
  Racer bob(nodes["a"]->port(), "bob");
  const std::string code = race(ann, bob, {{"time_limit", 600}});
  // One move that changes the board (on some starting boards "left" moves nothing).
  json last;
  for (const char* dir : {"left", "up", "right", "down"}) {
    last = play(ann.ws, dir);
    ASSERT_EQ(last["type"], "moved");
    if (last["changed"] == true) break;
  }
  ASSERT_TRUE(testing::eventually(
      [&] { return query("SELECT count(*) FROM active_racers WHERE length(moves) = 1") == 1; },
      5s));
  // A node claimed a's races and died before it adopted them: its claim is leased (4 s).
  const std::string ghost = "redis-cli -p " + std::to_string(redis_.port()) +
                            " SET tilerace:adopting:a ghost PX 4000 > /dev/null";
  ASSERT_EQ(std::system(ghost.c_str()), 0);
  nodes["a"]->stop(SIGKILL);
  nodes.erase("a");
  const auto adopter = [&] {
    std::string name;
    testing::eventually(
        [&] {
          for (const auto& [n, process] : nodes) {
            if (query("SELECT count(*) FROM active_races WHERE node = '" + n + "'") == 1) {
              name = n;
            }
          }
          return !name.empty();
        },
        15s);
    return name;
  };
  const std::string first = adopter();
  ASSERT_FALSE(first.empty()) << "nobody adopted a's race after the ghost's claim ran out";
  // The adopter dies too: the last node adopts the race from it.
  nodes[first]->stop(SIGKILL);
  nodes.erase(first);
  const std::string second = adopter();
  ASSERT_EQ(second, nodes.begin()->first);
  EXPECT_EQ(query("SELECT count(*) FROM active_races"), 1);
  json state;
  const auto ann_back = come_back(ann, nodes[second]->port(), state);
  const auto bob_back = come_back(bob, nodes[second]->port(), state);
  EXPECT_EQ(state["code"], code);
  EXPECT_EQ(state["games"][ann.id]["board"], last["board"]);
  bob_back->ws.send({{"type", "resign"}});
  EXPECT_EQ(ann_back->ws.until("race_over")["winner"], ann.id);
  ASSERT_TRUE(testing::eventually([&] { return query("SELECT count(*) FROM races") == 1; }, 5s));
  EXPECT_EQ(query("SELECT SUM(races) FROM players"), 2);
  EXPECT_EQ(query("SELECT count(*) FROM active_races"), 0);
}

TEST_F(Cluster, ASoloGameOfADeadNodeGoesOnFromTheStoresJournalOnAnotherNode) {
  auto a = node("a");
  const auto b = node("b");
  WsClient solo(a->port());
  const json welcome = solo.hello("soloist");
  ASSERT_EQ(solo.request({{"type", "new_game"}, {"size", 4}})["type"], "game");
  json last;
  for (const char* dir : {"left", "up", "right", "down", "left"}) {
    last = solo.request({{"type", "move"}, {"dir", dir}});
    ASSERT_EQ(last["type"], "moved") << last.dump();
  }
  // a journals solo games once a second: wait for this one's moves, then a dies.
  const std::string id = welcome["player"]["id"];
  ASSERT_TRUE(testing::eventually(
      [&] { return journaled_solo_moves(id) == last["moves"].get<int>(); }, 5s));
  a->stop(SIGKILL);
  WsClient back(b->port());
  const json again = back.request({{"type", "hello"}, {"name", "x"}, {"token", welcome["token"]}});
  EXPECT_EQ(again["resumed"], true);
  const json game = back.expect("game");
  EXPECT_EQ(game["game"]["board"], last["board"]);
  EXPECT_EQ(game["game"]["moves"], last["moves"]);
  EXPECT_EQ(back.request({{"type", "move"}, {"dir", "up"}, {"at_move", last["moves"]}})["type"],
            "moved");
}

TEST_F(Cluster, ARaceComesBackWithItsNodeAfterARollingRestart) {
  auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  const std::string code = race(ann, bob);
  const json last = play(ann.ws, "left");
  ASSERT_EQ(last["type"], "moved");
  EXPECT_EQ(a->stop(SIGTERM), 0);
  a = node("a");  // the same name: its race is its own again after its first heartbeat
  json state;
  const auto back = come_back(ann, a->port(), state);
  EXPECT_EQ(state["code"], code);
  EXPECT_EQ(state["games"][ann.id]["board"], last["board"]);
  EXPECT_EQ(query("SELECT count(*) FROM active_races WHERE node = 'a'"), 1);
  // And the race is found through b too.
  WsClient lobby(b->port());
  lobby.hello("lobby");
  EXPECT_EQ(lobby.request({{"type", "join_room"}, {"code", code}})["type"], "redirect");
}

TEST_F(Cluster, RedisGoingAwayMidRaceStopsOnlyCrossNodeFeaturesUntilItReturns) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  const std::string code = race(ann, bob);

  redis_.stop();
  ASSERT_TRUE(testing::eventually(
      [&] {
        const json h = json::parse(http_request(a->port(), "/healthz").body);
        return h["status"] == "degraded" && h["redis"] == "unreachable";
      },
      10s));
  // The race goes on and is recorded.
  for (int i = 0; i < 6; ++i) ASSERT_EQ(play(ann.ws, kDirs[i % 4])["type"], "moved");
  bob.ws.send({{"type", "resign"}});
  const json over = ann.ws.until("race_over");
  EXPECT_EQ(over["winner"], ann.id);
  EXPECT_EQ(query("SELECT count(*) FROM races WHERE reason = 'forfeit' OR reason = 'all_over'"), 1);
  // What needs Redis says so.
  WsClient lobby(b->port());
  lobby.hello("lobby");
  const json refused = lobby.request({{"type", "list_rooms"}});
  EXPECT_EQ(refused["code"], "unavailable") << refused.dump();
  EXPECT_EQ(lobby.request({{"type", "join_room"}, {"code", code}})["code"], "unavailable");
  EXPECT_EQ(http_request(b->port(), "/api/rooms").status, 503);

  // Redis comes back (empty): the nodes find it by themselves and cross-node joins work again.
  redis_.start();
  ASSERT_TRUE(health_says(b->port(), "ok"));
  ASSERT_TRUE(testing::eventually(
      [&] {
        const json r = lobby.request({{"type", "join_room"}, {"code", code}});
        return r["type"] == "redirect" && port_of(r["url"]) == a->port();
      },
      10s));
}

// Quick match's fallback to the computer takes the player out of the shared queue first: the
// player races the computer on their node, and a player arriving on another node afterwards
// is not paired with them.
TEST_F(Cluster, QuickMatchFallsBackToTheComputerAndLeavesTheSharedQueue) {
  const auto a = node("a", {"--quick-match-bot-after", "1"});
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  EXPECT_EQ(ann.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  const json start = ann.ws.until("race_start", 10s);
  EXPECT_TRUE(start["games"].contains("bot-medium")) << start.dump();
  Racer bob(b->port(), "bob");
  EXPECT_EQ(bob.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  EXPECT_EQ(ann.ws.until("race_update")["player"], "bot-medium");
}

}  // namespace
}  // namespace tilerace::e2e
