// One player, one world (docs/operations.md, "Connections across nodes"): across the nodes of
// a cluster a player has one live connection, a sign-out or a session ended anywhere closes
// it, friends see presence as it is (a move between nodes never shows offline, a dead node's
// players all go offline), and a rename shows on every node.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>

#include "tests/e2e/cluster_nodes.hpp"
#include "tests/e2e/friend_steps.hpp"
#include "tests/eventually.hpp"

namespace tilerace::e2e {
namespace {

constexpr auto kLease = 1500ms;                  // Cluster::node's --node-lease-ms
constexpr auto kWithinALease = kLease + 1500ms;  // and a heartbeat's, and the runner's slack

// The milliseconds left until end (a WsClient whose read times out is closed: each read waits
// at most until the test's own deadline).
std::chrono::milliseconds left(std::chrono::steady_clock::time_point end) {
  return std::max(1ms, std::chrono::duration_cast<std::chrono::milliseconds>(
                           end - std::chrono::steady_clock::now()));
}

// Whether messages hold a presence of player saying status.
bool has_presence(const std::vector<json>& messages, const std::string& player,
                  const std::string& status) {
  return std::any_of(messages.begin(), messages.end(), [&](const json& m) {
    return m["type"] == "presence" && m["player"] == player && m["status"] == status;
  });
}

// A registered player called name, signed in on port: their password is "correct horse 42".
std::unique_ptr<Racer> registered(std::uint16_t port, const std::string& name) {
  auto r = std::make_unique<Racer>(port, name);
  EXPECT_EQ(ask(r->ws, {{"type", "register"}, {"password", "correct horse 42"}})["type"],
            "registered");
  return r;
}

TEST_F(Cluster, ASecondConnectionOnAnotherNodeClosesTheFirstWith4000) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann-w1");
  ask(ann.ws, {{"type", "new_game"}, {"size", 4}});
  make_a_move(ann.ws);
  json welcome;
  Racer laptop(b->port(), ann.id, ann.token, welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(ann.ws.wait_closed(kWithinALease), 4000);
  // The late close on a never detaches b's: it plays on.
  ask(laptop.ws, {{"type", "new_game"}, {"size", 4}});
  make_a_move(laptop.ws);
  EXPECT_TRUE(a->wait_for_metric("tilerace_connections_taken_over_total", 1));
  // And back on a: b's is closed.
  Racer phone(a->port(), ann.id, ann.token, welcome);
  ASSERT_EQ(welcome["type"], "welcome");
  EXPECT_EQ(laptop.ws.wait_closed(kWithinALease), 4000);
  EXPECT_EQ(ask(phone.ws, {{"type", "ping"}})["type"], "pong");
}

TEST_F(Cluster, SigningOutEverywhereOnOneNodeEndsTheSessionsOfTheOthers) {
  const auto a = node("a");
  const auto b = node("b");
  const auto laptop = registered(b->port(), "ann-w2");
  for (const char* change : {"logout_all", "change_password"}) {
    SCOPED_TRACE(change);
    // Her phone signs in on a: the laptop's connection on b is taken over.
    WsClient phone(a->port());
    const json in = phone.request({{"type", "login"},
                                   {"name", "ann-w2"},
                                   {"password", "correct horse 42"},
                                   {"device", "phone"}});
    ASSERT_EQ(in["type"], "welcome") << in.dump();
    json message = {{"type", change}};
    if (std::string(change) == "change_password") {
      message["old_password"] = "correct horse 42";
      message["password"] = "correct horse 42";
    }
    const json sessions = ask(phone, message);
    ASSERT_EQ(sessions["type"], "sessions") << sessions.dump();
    EXPECT_EQ(sessions["sessions"].size(), 1u);
    // The laptop comes back to b with its token: that session has ended.
    WsClient again(b->port());
    const json refused =
        again.request({{"type", "hello"}, {"name", "back"}, {"token", laptop->token}});
    EXPECT_EQ(refused["code"], "bad_token") << refused.dump();
    // For the next round the laptop signs in again.
    const json back =
        again.request({{"type", "login"}, {"name", "ann-w2"}, {"password", "correct horse 42"}});
    ASSERT_EQ(back["type"], "welcome");
    laptop->token = back["token"];
    EXPECT_EQ(phone.wait_closed(kWithinALease), 4000);
  }
}

TEST_F(Cluster, AnEndedSessionsOpenConnectionIsClosedWithinALeaseEvenIfNoMessageCame) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(b->port(), "ann-w3");
  // The store alone ends the session, as a lost message would leave it: b's check finds it.
  query("WITH gone AS (DELETE FROM sessions WHERE player_id = '" + ann.id +
        "' RETURNING 1) SELECT count(*) FROM gone");
  const json signed_out = ann.ws.until("error", kWithinALease);
  EXPECT_EQ(signed_out["code"], "bad_token") << signed_out.dump();
  EXPECT_EQ(ann.ws.wait_closed(kWithinALease), 4001);
  EXPECT_TRUE(b->wait_for_metric("tilerace_sessions_revoked_total", 1));
}

TEST_F(Cluster, WithRedisAwayASecondConnectionStillClosesTheFirstThroughTheStore) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann-w4");
  redis_.stop();
  json welcome;
  Racer laptop(b->port(), ann.id, ann.token, welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(ann.ws.wait_closed(kWithinALease), 4000);
  EXPECT_EQ(ask(laptop.ws, {{"type", "ping"}})["type"], "pong");
}

TEST_F(Cluster, APlayerMovingBetweenNodesIsNeverShownOffline) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann-w5");
  auto bob = std::make_unique<Racer>(b->port(), "bob-w5");
  befriend(ann, *bob);
  EXPECT_FALSE(wait_presence(ann.ws, bob->id, "online").empty());
  int moved_from_a = 0, moved_from_b = 0;
  for (int i = 0; i < 3; ++i) {
    // bob opens the other node with his token, as a redirect does; the old connection closes.
    const bool to_a = i % 2 == 0;
    json welcome;
    auto moved =
        std::make_unique<Racer>(to_a ? a->port() : b->port(), bob->id, bob->token, welcome);
    ASSERT_EQ(welcome["type"], "welcome");
    bob = std::move(moved);
    // The node he left has decided: he moved (nothing pushed), not offline.
    const ServerProcess& from = to_a ? *b : *a;
    EXPECT_TRUE(from.wait_for_metric("tilerace_connections_moved_total",
                                     to_a ? ++moved_from_b : ++moved_from_a))
        << "move " << i;
    std::vector<json> pushed;
    ann.ws.send({{"type", "friends"}, {"rid", "list"}});
    const json list = ann.ws.until("friends", 5s, &pushed);
    EXPECT_FALSE(has_presence(pushed, bob->id, "offline")) << "move " << i;
    ASSERT_EQ(list["friends"].size(), 1u);
    EXPECT_EQ(list["friends"][0]["status"], "online") << "move " << i;
  }
  // Leaving for good is offline.
  const std::string id = bob->id;
  bob.reset();
  EXPECT_FALSE(wait_presence(ann.ws, id, "offline", "", nullptr, kWithinALease).empty());
}

TEST_F(Cluster, ADeadNodesPlayersAllGoOfflineForTheirFriendsIdleOnesIncluded) {
  const auto a = node("a");
  auto b = node("b");
  auto ann = std::make_unique<Racer>(a->port(), "ann-w6");
  Racer bob(b->port(), "bob-w6"), cat(b->port(), "cat-w6");
  befriend(*ann, bob);
  befriend(*ann, cat);
  // ann comes back on a new connection: she never heard bob or cat change since.
  json welcome;
  ann = std::make_unique<Racer>(a->port(), ann->id, ann->token, welcome);
  ASSERT_EQ(welcome["type"], "welcome");
  const json list = ask(ann->ws, {{"type", "friends"}});
  ASSERT_EQ(list["friends"].size(), 2u);
  for (const json& f : list["friends"]) EXPECT_EQ(f["status"], "online") << list.dump();
  b->stop(SIGKILL);
  std::set<std::string> offline;
  const auto end = std::chrono::steady_clock::now() + kLease + kWithinALease;
  while (offline.size() < 2 && std::chrono::steady_clock::now() < end) {
    const auto m = ann->ws.next(left(end));
    if (m && (*m)["type"] == "presence" && (*m)["status"] == "offline") {
      offline.insert((*m)["player"].get<std::string>());
    }
  }
  EXPECT_EQ(offline, (std::set<std::string>{bob.id, cat.id}));
}

TEST_F(Cluster, AfterRedisRestartsEmptyAnIdlePlayerIsOnlineForFriendsElsewhereAgain) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann-w8");
  Racer bob(b->port(), "bob-w8");
  befriend(ann, bob);
  const auto status_of_ann = [&] {
    const json list = ask(bob.ws, {{"type", "friends"}});
    for (const json& f : list.value("friends", json::array())) {
      if (f["id"] == ann.id) return f["status"].get<std::string>();
    }
    return std::string();
  };
  ASSERT_EQ(status_of_ann(), "online");
  // Redis comes back empty: ann's connection record and presence are gone with it, and she
  // does nothing that would write them.
  redis_.stop();
  redis_.start();
  EXPECT_TRUE(testing::eventually([&] { return status_of_ann() == "online"; }, kWithinALease * 3))
      << "a never wrote ann's presence again";
  EXPECT_EQ(ask(ann.ws, {{"type", "ping"}})["type"], "pong");
}

TEST_F(Cluster, ARenameOnOneNodeShowsInARoomOnAnother) {
  const auto a = node("a");
  const auto b = node("b");
  Racer cat(b->port(), "cat-w7");
  const auto bob = registered(b->port(), "bob-w7");
  const std::string code = create_room(cat, {{"size", 4}})["code"];
  ASSERT_EQ(ask(bob->ws, {{"type", "join_room"}, {"code", code}})["type"], "room");
  // bob's phone on a takes over; he renames there.
  json welcome;
  Racer phone(a->port(), bob->id, bob->token, welcome);
  ASSERT_EQ(welcome["type"], "welcome");
  const json renamed = ask(phone.ws, {{"type", "rename"}, {"name", "robert-w7"}});
  ASSERT_EQ(renamed["type"], "renamed") << renamed.dump();
  // cat's room on b shows the new name within a lease.
  const auto end = std::chrono::steady_clock::now() + kWithinALease;
  bool shown = false;
  while (!shown && std::chrono::steady_clock::now() < end) {
    const auto m = cat.ws.next(left(end));
    if (!m || (*m)["type"] != "room") continue;
    for (const json& p : (*m)["room"]["players"]) shown |= p["name"] == "robert-w7";
  }
  EXPECT_TRUE(shown);
}

}  // namespace
}  // namespace tilerace::e2e
