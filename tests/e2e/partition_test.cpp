// Fencing with the real binary (docs/operations.md, "Fencing"): a node cut off from Redis or
// from PostgreSQL while its racers stay connected, Redis away for every node, and where a
// returning racer is sent while a dead node's lease runs out. The cuts are TcpRelays between a
// node and Redis or PostgreSQL, on 127.0.0.1: a partition as both ends see it, healed later.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <map>
#include <thread>

#include "tests/e2e/cluster_nodes.hpp"
#include "tests/tcp_relay.hpp"

namespace tilerace::e2e {
namespace {

using tilerace::testing::TcpRelay;

// A move's letter in a replay's moves.
char letter(const std::string& dir) { return static_cast<char>(std::toupper(dir[0])); }

// What a node said of itself.
json health(std::uint16_t port) { return json::parse(http_request(port, "/healthz").body); }

// The time to live of a Redis key, in ms (-2: no such key).
std::int64_t pttl(std::uint16_t redis_port, const std::string& key) {
  const std::string command = "redis-cli -p " + std::to_string(redis_port) + " PTTL " + key;
  std::FILE* out = ::popen(command.c_str(), "r");
  char line[64] = {};
  const bool read = out != nullptr && std::fgets(line, sizeof line, out) != nullptr;
  if (out != nullptr) ::pclose(out);
  return read ? std::atoll(line) : -2;
}

// How many entries of every node's public rooms, as port lists them, have code.
int listed_times(std::uint16_t port, const std::string& code) {
  const json rooms = json::parse(http_request(port, "/api/rooms").body);
  int n = 0;
  if (!rooms.contains("rooms")) return -1;
  for (const json& r : rooms["rooms"]) n += r["code"] == code ? 1 : 0;
  return n;
}

// Node a reaches Redis through a relay. The relay is cut while a's racers, connected to a,
// keep playing: a answers moves while its lease holds, then only once PostgreSQL has them
// (its lease unconfirmed, which /healthz says); another node adopts the race (the next epoch),
// a's next write is refused, and a sends its racers and spectator there. Every move a
// answered is in the race there, which is recorded once, with the result both were told.
TEST_F(Cluster, ANodeCutFromRedisHandsItsRaceToTheAdopterAndLosesNoAnsweredMove) {
  TcpRelay to_redis(redis_.port());
  const auto a = node("a", {}, {.redis = to_redis.port()});
  const auto b = node("b");
  const auto c = node("c");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  // 8×8: thousands of moves before a game could end.
  const std::string code = race(ann, bob, {{"size", 8}, {"time_limit", 600}, {"public", true}});
  WsClient watcher(a->port());
  watcher.hello("watcher");
  watcher.send({{"type", "spectate"}, {"code", code}});
  ASSERT_EQ(watcher.until("room")["room"]["code"], code);
  std::map<std::string, std::string> answered;  // racer → the moves a answered, in order
  for (Racer* r : {&ann, &bob}) {
    const json m = play(r->ws, "left");
    ASSERT_EQ(m["type"], "moved") << m.dump();
    if (m["changed"] == true) answered[r->id] += 'L';
  }
  ASSERT_TRUE(testing::eventually(
      [&] { return query("SELECT count(*) FROM active_races WHERE node = 'a'") == 1; }, 5s));

  // The spectator reads everything (a reader that stops would be cut off as too slow).
  json moved_watcher;
  std::thread watching([&] { moved_watcher = watcher.until("redirect", 40s); });
  to_redis.cut();
  bool said_unconfirmed = false;
  std::map<std::string, std::string> sent_to;  // racer → the URL a sent them to
  const auto deadline = std::chrono::steady_clock::now() + 40s;
  for (int i = 0; sent_to.size() < 2; ++i) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "a never handed the race over";
    for (Racer* r : {&ann, &bob}) {
      if (sent_to.count(r->id) > 0) continue;
      const std::string& dir = kDirs[i % 4];
      r->ws.send({{"type", "move"}, {"dir", dir}});
      for (;;) {  // its answer, or the hand-over
        const std::optional<json> m = r->ws.next(15s);
        ASSERT_TRUE(m.has_value()) << "neither an answer nor a redirect for 15 s";
        const std::string type = (*m)["type"];
        if (type == "redirect") {
          EXPECT_EQ((*m)["reason"], "resume");
          EXPECT_EQ((*m)["code"], code);
          sent_to[r->id] = (*m)["url"];
          break;
        }
        if (type == "moved") {
          if ((*m)["changed"] == true) answered[r->id] += letter(dir);
          break;
        }
        if (type == "error") break;
      }
    }
    if (!said_unconfirmed) {
      const json h = health(a->port());
      said_unconfirmed = h.value("lease", "") == "unconfirmed";  // absent while confirmed
      if (said_unconfirmed) {
        EXPECT_EQ(h["status"], "degraded");
        EXPECT_EQ(h["race_moves"], "confirmed_by_database");
      }
    }
  }
  EXPECT_TRUE(said_unconfirmed) << "a's /healthz never said its lease was unconfirmed";
  // The race is on b or c now, under the next epoch; a sent everyone there.
  EXPECT_EQ(query("SELECT count(*) FROM active_races WHERE node IN ('b', 'c') AND epoch = 2"), 1);
  EXPECT_EQ(sent_to[ann.id], sent_to[bob.id]);
  watching.join();
  EXPECT_EQ(moved_watcher["url"], sent_to[ann.id]);
  EXPECT_EQ(a->metric("tilerace_races_handed_over_total"), 1);
  EXPECT_EQ(a->metric("tilerace_races_active"), 0);

  // Coming back through a — still cut from Redis — a racer is sent to the owner at once: a
  // learned it when its write was refused (before, it looked the race up in Redis, in vain,
  // until the heal).
  {
    auto back = follow(ann, a->port());
    const json there = back->ws.until("redirect", 5s);
    EXPECT_EQ(there["reason"], "resume");
    EXPECT_EQ(there["code"], code);
    EXPECT_EQ(there["url"], sent_to[ann.id]);
  }

  // The racers follow: every move a answered is in the race there.
  const std::uint16_t owner = port_of(sent_to[ann.id]);
  ASSERT_NE(owner, a->port());
  auto ann_there = follow(ann, owner);
  auto bob_there = follow(bob, owner);
  ann_there->ws.until("room");
  const json state = ann_there->ws.until("race_state");
  bob_there->ws.until("race_state");
  EXPECT_GE(state["games"][ann.id]["moves"].get<std::size_t>(), answered[ann.id].size());
  EXPECT_GE(state["games"][bob.id]["moves"].get<std::size_t>(), answered[bob.id].size());
  bob_there->ws.send({{"type", "resign"}});
  const json over = ann_there->ws.until("race_over");
  EXPECT_EQ(over["winner"], ann.id);
  // Recorded once, as announced; ratings moved once.
  EXPECT_EQ(query("SELECT count(*) FROM races"), 1);
  EXPECT_EQ(query("SELECT count(*) FROM races WHERE winner = '" + ann.id + "'"), 1);
  EXPECT_EQ(query("SELECT SUM(races) FROM players"), 2);
  for (Racer* r : {&ann, &bob}) {
    const json replay = json::parse(
        http_request(owner, "/api/replays/" + over["replays"][r->id].get<std::string>()).body);
    const std::string moves = replay["moves"];
    EXPECT_EQ(moves.substr(0, answered[r->id].size()), answered[r->id]) << r->id;
  }

  // Healed, a is back in the cluster, and the room is listed once (its owner's).
  to_redis.heal();
  ASSERT_TRUE(health_says(a->port(), "ok"));
  EXPECT_TRUE(testing::eventually([&] { return listed_times(a->port(), code) == 1; }, 10s));
  EXPECT_EQ(query("SELECT count(*) FROM races"), 1);
}

// Node a reaches PostgreSQL through a relay, cut mid-race: a still holds its lease, so nobody
// adopts, and moves go on being answered (the move journal in Redis has them). A resignation
// meanwhile ends the race; race_over waits for the recording, once the link heals.
TEST_F(Cluster, ANodeCutFromPostgresqlKeepsItsRaceAndRecordsItOnceHealed) {
  TcpRelay to_database(PgCluster::shared().port());
  const auto a = node("a", {}, {.database = to_database.port()});
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  const std::string code = race(ann, bob, {{"size", 8}, {"time_limit", 600}});
  ASSERT_TRUE(testing::eventually(
      [&] { return query("SELECT count(*) FROM active_races WHERE node = 'a'") == 1; }, 5s));

  to_database.cut();
  // a renews its lease (eight times: longer than the lease) and answers every move meanwhile.
  std::string answered;
  int renewals = 0;
  std::int64_t last = pttl(redis_.port(), "tilerace:node:a");
  for (int i = 0; renewals < 8; ++i) {
    ASSERT_LT(i, 2000) << "a's lease was renewed " << renewals << " times";
    const json m = play(ann.ws, kDirs[i % 4]);
    ASSERT_EQ(m["type"], "moved") << m.dump();
    if (m["changed"] == true) {
      answered += letter(kDirs[i % 4]);
      // bob reads what each of ann's moves sends him, as a client does: one that stops
      // reading is closed (1013) once its queue is full, on a machine fast enough to fill it.
      bob.ws.until("race_update");
    }
    const std::int64_t now = pttl(redis_.port(), "tilerace:node:a");
    ASSERT_GT(now, 0) << "a's lease ran out";
    if (now > last) ++renewals;
    last = now;
  }
  bob.ws.send({{"type", "resign"}});
  EXPECT_EQ(health(b->port())["status"], "ok");
  EXPECT_EQ(query("SELECT count(*) FROM active_races WHERE node = 'a' AND epoch = 1"), 1);
  EXPECT_EQ(query("SELECT count(*) FROM races"), 0);

  to_database.heal();
  const json over = ann.ws.until("race_over", 20s);
  EXPECT_EQ(over["winner"], ann.id);
  // Committed before it was announced.
  EXPECT_EQ(query("SELECT count(*) FROM races WHERE winner = '" + ann.id + "'"), 1);
  EXPECT_EQ(query("SELECT SUM(races) FROM players"), 2);
  const json replay = json::parse(
      http_request(a->port(), "/api/replays/" + over["replays"][ann.id].get<std::string>()).body);
  EXPECT_EQ(replay["moves"], answered);
  EXPECT_EQ(query("SELECT count(*) FROM active_races"), 0);
  EXPECT_EQ(
      query("SELECT count(*) FROM races WHERE node = 'a' AND epoch = 1 AND room = '" + code + "'"),
      1);
}

// Redis away for every node (the documented choice): nobody can adopt, so races go on, each
// move answered once PostgreSQL has it under the node's epoch; /healthz says so.
TEST_F(Cluster, WithRedisAwayEverywhereEachRaceMoveIsAnsweredOnceTheDatabaseHasIt) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  race(ann, bob, {{"time_limit", 600}});
  redis_.stop();
  ASSERT_TRUE(
      testing::eventually([&] { return health(a->port())["lease"] == "unconfirmed"; }, 10s));
  const json h = health(a->port());
  EXPECT_EQ(h["redis"], "unreachable");
  EXPECT_EQ(h["race_moves"], "confirmed_by_database");
  std::size_t made = 0;
  for (int i = 0; i < 8; ++i) {
    const json m = play(ann.ws, kDirs[i % 4]);
    ASSERT_EQ(m["type"], "moved") << m.dump();
    made = m["moves"];
    // Already in the store's journal as it is answered.
    EXPECT_GE(query("SELECT length(moves) FROM active_racers WHERE player_id = '" + ann.id + "'"),
              static_cast<std::int64_t>(made));
  }
  EXPECT_GT(a->metric("tilerace_unjournaled_moves_total"), 0);
  bob.ws.send({{"type", "resign"}});
  EXPECT_EQ(ann.ws.until("race_over")["winner"], ann.id);
  EXPECT_EQ(query("SELECT count(*) FROM races"), 1);
  redis_.start();
  ASSERT_TRUE(health_says(a->port(), "ok"));
}

// A solo game resumed on another node while its old node could not reach PostgreSQL: once the
// old node's journal writes go through, they are refused (the game is the other node's now),
// so the journal keeps what the player did since.
TEST_F(Cluster, ASoloGameResumedElsewhereIsNotWrittenByItsOldNodeOnceItsLinkHeals) {
  TcpRelay to_database(PgCluster::shared().port());
  const auto a = node("a", {}, {.database = to_database.port()});
  const auto b = node("b");
  WsClient on_a(a->port());
  const json welcome = on_a.hello("soloist");
  const std::string id = welcome["player"]["id"];
  ASSERT_EQ(on_a.request({{"type", "new_game"}, {"size", 8}})["type"], "game");
  const auto journaled = [&] { return journaled_solo_moves(id); };
  json last;
  for (const char* dir : {"left", "up", "right"})
    last = on_a.request({{"type", "move"}, {"dir", dir}});
  ASSERT_TRUE(testing::eventually([&] { return journaled() == last["moves"].get<int>(); }, 5s));
  const int kept = last["moves"];
  to_database.cut();
  for (const char* dir : {"down", "left", "up", "right"}) {
    ASSERT_EQ(on_a.request({{"type", "move"}, {"dir", dir}})["type"], "moved");
  }
  // The player's link to a goes; they come back through b, which has the journal's game.
  const double passes = a->metric("tilerace_journal_flushes_total");
  WsClient on_b(b->port());
  ASSERT_EQ(
      on_b.request({{"type", "hello"}, {"name", "x"}, {"token", welcome["token"]}})["resumed"],
      true);
  json game = on_b.expect("game")["game"];
  ASSERT_EQ(game["moves"], kept);
  // (The first answer may wait for a's transaction, cut off while it held the game's row, to be
  // ended by PostgreSQL: idle_in_transaction_session_timeout.)
  for (const char* dir : {"down", "down"}) {
    on_b.send({{"type", "move"}, {"dir", dir}});
    game = on_b.until("moved", 15s);
  }
  const int on_b_moves = game["moves"];
  ASSERT_TRUE(testing::eventually([&] { return journaled() == on_b_moves; }, 5s));
  EXPECT_EQ(query("SELECT count(*) FROM active_games WHERE player_id = '" + id +
                  "' AND node = 'b' AND epoch = 2"),
            1);
  // a's held write goes through now, and one more pass after it: both refused.
  to_database.heal();
  ASSERT_TRUE(testing::eventually(
      [&] { return a->metric("tilerace_journal_flushes_total") >= passes + 2; }, 10s));
  EXPECT_EQ(journaled(), on_b_moves);
  EXPECT_EQ(
      query("SELECT count(*) FROM active_games WHERE player_id = '" + id + "' AND node = 'b'"), 1);
}

// While a dead node's lease runs out, a racer coming back through another node is never sent
// to it: a node that missed its heartbeats is not named, and the racer is told where the race
// is once it is adopted.
TEST_F(Cluster, AResumeRedirectNeverNamesANodeThatMissedItsHeartbeats) {
  auto a = node("a");
  const auto b = node("b");
  const auto c = node("c");
  Racer ann(a->port(), "ann");
  Racer bob(a->port(), "bob");
  const std::string code = race(ann, bob, {{"time_limit", 600}});
  // A move that changes the board (one that does not is not journaled, and a race with no
  // journaled move dies with its node).
  json first;
  for (const std::string& dir : kDirs) {
    first = play(ann.ws, dir);
    ASSERT_EQ(first["type"], "moved");
    if (first["changed"] == true) break;
  }
  const std::uint16_t dead = a->port();
  a->stop(SIGKILL);
  // Half the lease has gone by since a's last heartbeat: a may be dead.
  ASSERT_TRUE(
      testing::eventually([&] { return pttl(redis_.port(), "tilerace:node:a") < 750; }, 5s));
  auto back = follow(ann, b->port());
  for (;;) {
    const std::optional<json> m = back->ws.next(15s);
    ASSERT_TRUE(m.has_value()) << "never told where the race is";
    if ((*m)["type"] == "redirect") {
      ASSERT_NE(port_of((*m)["url"]), dead) << "sent to the dead node";
      EXPECT_EQ((*m)["code"], code);
      back = follow(ann, port_of((*m)["url"]));
      continue;
    }
    if ((*m)["type"] == "room") break;
  }
  EXPECT_EQ(back->ws.until("race_state")["games"][ann.id]["board"], first["board"]);
}

}  // namespace
}  // namespace tilerace::e2e
