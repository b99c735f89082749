// A race follows its racers off a node cut from them (server/cluster/race_release.hpp), with
// the real binary: node a's players reach it through a TcpRelay that is cut mid-race while a
// keeps its lease. Racers coming back through b find their race there, not a redirect to a;
// every move a answered is in it. A race whose other racer still answers on a stays there.
#include <gtest/gtest.h>

#include <map>
#include <thread>

#include "tests/e2e/cluster_nodes.hpp"
#include "tests/tcp_relay.hpp"

namespace tilerace::e2e {
namespace {

using tilerace::testing::TcpRelay;

char letter(const std::string& dir) { return static_cast<char>(std::toupper(dir[0])); }

// The next `room` for code on racer's connection, skipping what comes before it; a redirect
// instead fails the test.
void expect_room(Racer& racer, const std::string& code) {
  for (;;) {
    const std::optional<json> m = racer.ws.next(5s);
    ASSERT_TRUE(m.has_value()) << "no room within 5 s";
    ASSERT_NE((*m)["type"], "redirect") << m->dump();
    if ((*m)["type"] == "room") {
      EXPECT_EQ((*m)["room"]["code"], code);
      return;
    }
  }
}

TEST_F(Cluster, ARaceFollowsItsRacersOffANodeCutFromThem) {
  const auto a = node("a");
  const auto b = node("b");
  TcpRelay door(a->port());  // how ann and bob reach a
  Racer ann(door.port(), "ann");
  Racer bob(door.port(), "bob");
  const std::string code = race(ann, bob, {{"size", 8}, {"time_limit", 600}});
  // A spectator on a, not behind the door: a sends it where the race went.
  WsClient watcher(a->port());
  watcher.hello("watcher");
  watcher.send({{"type", "spectate"}, {"code", code}});
  ASSERT_EQ(watcher.until("room")["room"]["code"], code);
  std::map<std::string, std::string> answered;  // racer → the moves a answered, in order
  for (int i = 0; i < 4; ++i) {
    for (Racer* r : {&ann, &bob}) {
      const std::string& dir = kDirs[i % 4];
      const json m = play(r->ws, dir);
      ASSERT_EQ(m["type"], "moved") << m.dump();
      if (m["changed"] == true) answered[r->id] += letter(dir);
    }
  }
  std::thread watching([&] {
    const json sent = watcher.until("redirect", 20s);
    EXPECT_EQ(port_of(sent["url"]), b->port());
  });

  door.cut();
  // ann, then bob, give a up and come back through b: the race is there, not on a.
  const auto started = std::chrono::steady_clock::now();
  auto ann_b = follow(ann, b->port());
  expect_room(*ann_b, code);
  const json state = ann_b->ws.until("race_state");
  auto bob_b = follow(bob, b->port());
  expect_room(*bob_b, code);
  bob_b->ws.until("race_state");
  // Well within a lease or two of a's answerless probes (kProbe is 500 ms).
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  for (Racer* r : {&ann, &bob}) {
    EXPECT_EQ(state["games"][r->id]["moves"].get<std::size_t>(), answered[r->id].size()) << r->id;
  }
  EXPECT_EQ(query("SELECT count(*) FROM active_races WHERE node = 'b' AND epoch = 2"), 1);
  EXPECT_TRUE(a->wait_for_metric("tilerace_races_handed_over_total", 1));
  watching.join();

  // The race goes on at b and is recorded once, with every move a answered.
  for (int i = 0; i < 2; ++i) {
    for (auto* r : {ann_b.get(), bob_b.get()}) {
      const std::string& dir = kDirs[i % 4];
      const json m = play(r->ws, dir);
      ASSERT_EQ(m["type"], "moved") << m.dump();
      if (m["changed"] == true) answered[r->id] += letter(dir);
    }
  }
  bob_b->ws.send({{"type", "resign"}});
  const json over = ann_b->ws.until("race_over");
  EXPECT_EQ(over["winner"], ann.id);
  EXPECT_EQ(query("SELECT count(*) FROM races"), 1);
  for (Racer* r : {&ann, &bob}) {
    const json replay = json::parse(
        http_request(b->port(), "/api/replays/" + over["replays"][r->id].get<std::string>()).body);
    EXPECT_EQ(replay["moves"], answered[r->id]) << r->id;
  }
  door.heal();
}

// bob comes back through b while ann still plays on a (her client answers a's ping): the race
// stays on a, and bob is sent there.
TEST_F(Cluster, ARaceStaysOnANodeWhereARacerStillAnswers) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  const std::string code = race(ann, bob, {{"size", 8}, {"time_limit", 600}});
  ASSERT_EQ(play(ann.ws, "left")["type"], "moved");
  ASSERT_EQ(play(bob.ws, "left")["type"], "moved");
  // ann's client reads on (and so answers pings) while bob is away, until it has been quiet
  // for 3 s.
  std::thread reading([&] {
    while (ann.ws.next(3s)) {
    }
  });
  auto bob_b = follow(bob, b->port());
  const json sent = bob_b->ws.until("redirect", 5s);
  EXPECT_EQ(sent["reason"], "resume");
  EXPECT_EQ(port_of(sent["url"]), a->port());
  reading.join();
  EXPECT_EQ(query("SELECT count(*) FROM active_races WHERE node = 'a' AND epoch = 1"), 1);
  EXPECT_EQ(a->metric("tilerace_races_handed_over_total"), 0);
}

}  // namespace
}  // namespace tilerace::e2e
