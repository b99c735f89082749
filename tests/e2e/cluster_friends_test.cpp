// Friends across the nodes of a cluster (docs/protocol.md, "Friends"): a challenge reaches a
// friend on another node and the race runs on the challenger's; presence crosses nodes; follow
// redirects to the friend's node; a dead node's players go offline for their friends.
#include <gtest/gtest.h>
#include <signal.h>

#include "tests/e2e/cluster_nodes.hpp"
#include "tests/e2e/friend_steps.hpp"

namespace tilerace::e2e {
namespace {

TEST_F(Cluster, AChallengeReachesAFriendOnAnotherNodeAndTheRaceRunsOnTheChallengers) {
  const auto a = node("a");
  const auto b = node("b");
  Racer ann(a->port(), "ann-x"), bob(b->port(), "bob-x");
  befriend(ann, bob);  // the request and the answer cross nodes
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "online").empty());
  EXPECT_FALSE(wait_presence(bob.ws, ann.id, "online").empty());
  const json list = ask(ann.ws, {{"type", "friends"}});
  ASSERT_EQ(list["friends"].size(), 1u) << list.dump();
  EXPECT_EQ(list["friends"][0]["status"], "online");

  const json sent = ask(ann.ws, {{"type", "challenge"},
                                 {"player", bob.id},
                                 {"mode", "classic"},
                                 {"size", 4},
                                 {"target", 256},
                                 {"time_limit", 120}});
  ASSERT_EQ(sent["type"], "challenge_sent") << sent.dump();
  const json challenged = bob.ws.until("challenged");
  EXPECT_EQ(challenged["from"]["id"], ann.id);
  bob.ws.send({{"type", "challenge_accept"}, {"id", challenged["id"]}, {"rid", "accept-1"}});
  const json redirect = bob.ws.until("redirect");
  EXPECT_EQ(redirect["rid"], "accept-1") << "the answer to the accept, from the challenger's node";
  EXPECT_EQ(port_of(redirect["url"]), a->port());
  EXPECT_EQ(redirect["reason"], "join_room");
  const std::string code = redirect["code"];
  const json hosted = ann.ws.until("room");
  EXPECT_EQ(hosted["room"]["code"], code);
  EXPECT_EQ(hosted["room"]["public"], false);
  // bob goes to a, joins, and they race there.
  const auto bob_on_a = follow(bob, a->port());
  const json joined = ask(bob_on_a->ws, {{"type", "join_room"}, {"code", code}});
  ASSERT_EQ(joined["type"], "room") << joined.dump();
  EXPECT_EQ(joined["room"]["players"].size(), 2u);
  EXPECT_EQ(joined["room"]["target"], 256);
  const auto starts = start_race({&ann, bob_on_a.get()});
  EXPECT_EQ(starts[0]["code"], code);
  EXPECT_EQ(starts[1]["games"].size(), 2u);
}

TEST_F(Cluster, PresenceAndFollowCrossNodesAndADeadNodesPlayersGoOffline) {
  const auto a = node("a");
  auto b = node("b");
  Racer ann(a->port(), "ann-y"), bob(b->port(), "bob-y"), cat(b->port(), "cat-y");
  befriend(ann, bob);
  const std::string code = create_room(cat, {{"mode", "classic"}, {"size", 4}})["code"];
  ask(bob.ws, {{"type", "join_room"}, {"code", code}});
  start_race({&cat, &bob});
  // bob races on b; ann on a sees it, with whom.
  const json racing = wait_presence(ann.ws, bob.id, "racing", code, json::array({"cat-y"}));
  EXPECT_EQ(racing["with"], json::array({"cat-y"}));
  // Following bob from a: a redirect to b, where the room is spectated.
  const json redirect = ask(ann.ws, {{"type", "spectate_player"}, {"player", bob.id}});
  ASSERT_EQ(redirect["type"], "redirect") << redirect.dump();
  EXPECT_EQ(redirect["reason"], "spectate");
  EXPECT_EQ(redirect["code"], code);
  EXPECT_EQ(port_of(redirect["url"]), b->port());
  {
    const auto ann_on_b = follow(ann, b->port());
    const json room = ask(ann_on_b->ws, {{"type", "spectate"}, {"code", code}});
    EXPECT_EQ(room["type"], "room") << room.dump();
    EXPECT_EQ(ann_on_b->ws.until("race_state")["code"], code);
  }
  // Her connection to b took over a's (one live connection per player); she comes back to a.
  EXPECT_EQ(ann.ws.wait_closed(5s), 4000);
  json welcome;
  Racer ann_back(a->port(), ann.id, ann.token, welcome);
  ASSERT_EQ(welcome["type"], "welcome");
  // b dies: within a lease, bob is offline for her.
  b->stop(SIGKILL);
  EXPECT_FALSE(wait_presence(ann_back.ws, bob.id, "offline", "", nullptr, 15s).empty());
  const json list = ask(ann_back.ws, {{"type", "friends"}});
  ASSERT_EQ(list["friends"].size(), 1u);
  EXPECT_EQ(list["friends"][0]["status"], "offline");
}

}  // namespace
}  // namespace tilerace::e2e
