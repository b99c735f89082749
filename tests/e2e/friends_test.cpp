// Friends on one node (docs/protocol.md, "Friends"): requests, presence through solo, race,
// spectate and offline, challenges (accept, decline, expiry), rematch, follow, limits, and
// what a blocked player (does not) see.
#include <gtest/gtest.h>

#include "tests/e2e/friend_steps.hpp"

namespace tilerace::e2e {
namespace {

TEST(Friends, RequestAcceptAndPresenceFollowsAFriendEverywhere) {
  ServerProcess server({"--countdown", "0"});
  Racer ann(server.port(), "ann-p"), bob(server.port(), "bob-p"), cat(server.port(), "cat-p");
  // By name; the other is told before the asker's answer.
  const json asked = ask(ann.ws, {{"type", "friend_request"}, {"name", "bob-p"}, {"rid", "f1"}});
  EXPECT_EQ(asked["type"], "friend_update");
  EXPECT_EQ(asked["rid"], "f1");
  EXPECT_EQ(asked["relation"], "requested");
  EXPECT_EQ(asked["player"], (json{{"id", bob.id}, {"name", "bob-p"}}));
  const json incoming = bob.ws.until("friend_update");
  EXPECT_EQ(incoming["relation"], "incoming");
  EXPECT_EQ(incoming["player"]["id"], ann.id);
  const json lists = ask(bob.ws, {{"type", "friends"}});
  EXPECT_EQ(lists["incoming"], (json::array({{{"id", ann.id}, {"name", "ann-p"}}})));
  EXPECT_EQ(lists["friends"], json::array());

  const json accepted = ask(bob.ws, {{"type", "friend_accept"}, {"player", ann.id}});
  EXPECT_EQ(accepted["relation"], "friend");
  EXPECT_EQ(ann.ws.until("friend_update")["relation"], "friend");
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "online").empty());
  EXPECT_FALSE(wait_presence(bob.ws, ann.id, "online").empty());
  const json list = ask(ann.ws, {{"type", "friends"}});
  ASSERT_EQ(list["friends"].size(), 1u) << list.dump();
  EXPECT_EQ(list["friends"][0]["id"], bob.id);
  EXPECT_EQ(list["friends"][0]["status"], "online");
  EXPECT_EQ(list["friends"][0]["rating"], 1500);
  EXPECT_EQ(list["outgoing"], json::array());

  // Solo: a game with a move.
  ask(bob.ws, {{"type", "new_game"}, {"size", 4}});
  make_a_move(bob.ws);
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "solo").empty());
  // Racing, with whom: cat joins bob's room.
  const std::string code = create_room(bob, {{"mode", "classic"}, {"size", 4}})["code"];
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "racing", code).empty());
  ask(cat.ws, {{"type", "join_room"}, {"code", code}});
  const json with = wait_presence(ann.ws, bob.id, "racing", code, json::array({"cat-p"}));
  EXPECT_EQ(with["with"], json::array({"cat-p"}));
  // Spectating: bob leaves, cat stays; bob watches cat's room.
  ask(bob.ws, {{"type", "leave_room"}});
  ask(bob.ws, {{"type", "spectate"}, {"code", code}});
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "spectating", code).empty());
  ask(bob.ws, {{"type", "stop_spectating"}});
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "solo").empty());
  // Offline: the connection goes.
  bob.ws.send({{"type", "logout"}});
  bob.ws.wait_closed();
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "offline").empty());
  // cat, no friend, sees none of it.
  EXPECT_EQ(ask(cat.ws, {{"type", "friends"}})["friends"], json::array());
}

TEST(Friends, ChallengesAreAcceptedDeclinedOrExpire) {
  ServerProcess server({"--countdown", "0", "--challenge-seconds", "2"});
  Racer ann(server.port(), "ann-c"), bob(server.port(), "bob-c"), cat(server.port(), "cat-c");
  befriend(ann, bob);
  const json settings{{"mode", "classic"}, {"size", 5}, {"target", 512}, {"time_limit", 90}};
  json challenge = settings;
  challenge["type"] = "challenge";
  challenge["player"] = bob.id;

  // Refusals: not a friend, yourself, an offline friend.
  json to_cat = challenge;
  to_cat["player"] = cat.id;
  EXPECT_EQ(ask(ann.ws, to_cat)["code"], "not_friends");

  // Declined.
  const json sent = ask(ann.ws, challenge);
  ASSERT_EQ(sent["type"], "challenge_sent") << sent.dump();
  EXPECT_EQ(sent["to"]["id"], bob.id);
  EXPECT_EQ(sent["settings"], settings);
  const json got = bob.ws.until("challenged");
  EXPECT_EQ(got["id"], sent["id"]);
  EXPECT_EQ(got["from"], (json{{"id", ann.id}, {"name", "ann-c"}}));
  EXPECT_EQ(got["settings"], settings);
  EXPECT_EQ(ask(ann.ws, challenge)["code"], "not_allowed") << "one open challenge per pair";
  const json declined = ask(bob.ws, {{"type", "challenge_decline"}, {"id", got["id"]}, {"rid", 7}});
  EXPECT_EQ(declined["type"], "challenge_declined");
  EXPECT_EQ(declined["rid"], 7);
  EXPECT_EQ(ann.ws.until("challenge_declined")["id"], sent["id"]);
  EXPECT_EQ(ask(bob.ws, {{"type", "challenge_accept"}, {"id", got["id"]}})["code"],
            "no_such_challenge");

  // Expired: both are told.
  const json lapsed = ask(ann.ws, challenge);
  EXPECT_EQ(bob.ws.until("challenged")["id"], lapsed["id"]);
  EXPECT_EQ(ann.ws.until("challenge_expired", 10s)["id"], lapsed["id"]);
  EXPECT_EQ(bob.ws.until("challenge_expired", 10s)["id"], lapsed["id"]);

  // Accepted: a private room for the two, with the challenge's settings.
  const json open = ask(ann.ws, challenge);
  const std::string id = bob.ws.until("challenged")["id"];
  const json room = ask(bob.ws, {{"type", "challenge_accept"}, {"id", id}, {"rid", "acc"}});
  ASSERT_EQ(room["type"], "room") << room.dump();
  EXPECT_EQ(room["rid"], "acc");
  EXPECT_EQ(room["room"]["players"].size(), 2u);
  EXPECT_EQ(room["room"]["host"], ann.id);
  EXPECT_EQ(room["room"]["public"], false);
  EXPECT_EQ(room["room"]["size"], 5);
  EXPECT_EQ(room["room"]["target"], 512);
  EXPECT_EQ(room["room"]["time_limit"], 90);
  const std::string code = room["room"]["code"];
  EXPECT_EQ(ann.ws.until("room")["room"]["code"], code);

  // They race; bob resigns; both ask for a rematch: a new race in the same room.
  auto starts = start_race({&ann, &bob});
  EXPECT_EQ(starts[0]["time_limit"], 90);
  play(ann.ws, "left");
  play(ann.ws, "right");
  play(ann.ws, "up");
  bob.ws.send({{"type", "resign"}});
  const json first = ann.ws.until("race_over");
  bob.ws.until("race_over");
  {
    const json r = ask(ann.ws, {{"type", "rematch"}});
    EXPECT_EQ(r["type"], "room") << r.dump();
  }
  // bob sees ann ready for the rematch (after the room that followed race_over).
  bool ann_ready = false;
  for (int i = 0; i < 3 && !ann_ready; ++i) {
    const json room_now = bob.ws.until("room");
    for (const json& p : room_now["room"]["players"]) {
      ann_ready |= p["id"] == ann.id && p["ready"] == true;
    }
  }
  EXPECT_TRUE(ann_ready);
  bob.ws.send({{"type", "rematch"}});
  const json again = ann.ws.until("race_start");
  EXPECT_EQ(again["code"], code);
  EXPECT_EQ(again["time_limit"], 90);
  ann.ws.send({{"type", "resign"}});
  const json second = bob.ws.until("race_over");
  // A new seed: the two races' replays differ in seed, not in settings.
  const json r1 = json::parse(
      http_request(server.port(), "/api/replays/" + first["replays"][ann.id].get<std::string>())
          .body);
  const json r2 = json::parse(
      http_request(server.port(), "/api/replays/" + second["replays"][ann.id].get<std::string>())
          .body);
  EXPECT_NE(r1["seed"], r2["seed"]);
  // Each move letter has its time from the race's start, in order.
  ASSERT_EQ(r1["times"].size(), r1["moves"].get<std::string>().size()) << r1.dump();
  EXPECT_TRUE(std::is_sorted(r1["times"].begin(), r1["times"].end()));
  EXPECT_EQ(r1["size"], r2["size"]);
  EXPECT_EQ(r1["target"], r2["target"]);

  // A friend who is offline cannot be challenged.
  Racer dan(server.port(), "dan-c");
  befriend(ann, dan);
  ask(ann.ws, {{"type", "leave_room"}});
  dan.ws.send({{"type", "logout"}});
  dan.ws.wait_closed();
  EXPECT_FALSE(wait_presence(ann.ws, dan.id, "offline").empty());
  json to_dan = challenge;
  to_dan["player"] = dan.id;
  EXPECT_EQ(ask(ann.ws, to_dan)["code"], "offline");
}

TEST(Friends, FollowSpectatesAFriendsRace) {
  ServerProcess server({"--countdown", "0"});
  Racer ann(server.port(), "ann-w"), bob(server.port(), "bob-w"), cat(server.port(), "cat-w");
  befriend(ann, bob);
  EXPECT_EQ(ask(ann.ws, {{"type", "spectate_player"}, {"player", bob.id}})["code"], "no_such_room");
  EXPECT_EQ(ask(ann.ws, {{"type", "spectate_player"}, {"player", cat.id}})["code"], "not_friends");
  const std::string code = create_room(cat, {{"mode", "classic"}, {"size", 4}})["code"];
  ask(bob.ws, {{"type", "join_room"}, {"code", code}});
  start_race({&cat, &bob});
  EXPECT_FALSE(wait_presence(ann.ws, bob.id, "racing", code).empty());
  const json room = ask(ann.ws, {{"type", "spectate_player"}, {"player", bob.id}});
  ASSERT_EQ(room["type"], "room") << room.dump();
  EXPECT_EQ(room["room"]["code"], code);
  EXPECT_EQ(ann.ws.until("race_state")["code"], code);
  play(bob.ws, "left");
  play(bob.ws, "right");
  EXPECT_EQ(ann.ws.until("race_update")["player"], bob.id);
}

TEST(Friends, ABlockedPlayerSeesNothingAndIsNotToldWhy) {
  ServerProcess server({"--countdown", "0"});
  Racer ann(server.port(), "ann-b"), bob(server.port(), "bob-b"), cal(server.port(), "cal-b");
  befriend(ann, bob);
  befriend(cal, bob);
  EXPECT_EQ(ask(bob.ws, {{"type", "block"}, {"player", ann.id}})["relation"], "blocked");
  // ann sees what a removal shows.
  EXPECT_EQ(ann.ws.until("friend_update")["relation"], "none");
  // Her request looks sent; bob hears nothing of it.
  EXPECT_EQ(ask(ann.ws, {{"type", "friend_request"}, {"player", bob.id}})["relation"], "requested");
  EXPECT_EQ(ask(bob.ws, {{"type", "ping"}})["type"], "pong") << "no friend_update for bob";
  const json bobs = ask(bob.ws, {{"type", "friends"}});
  EXPECT_EQ(bobs["incoming"], json::array());
  EXPECT_EQ(bobs["blocked"], (json::array({{{"id", ann.id}, {"name", "ann-b"}}})));
  // No presence, challenge or follow.
  EXPECT_EQ(ask(ann.ws, {{"type", "friends"}})["friends"], json::array());
  EXPECT_EQ(ask(ann.ws, {{"type", "challenge"}, {"player", bob.id}})["code"], "not_friends");
  EXPECT_EQ(ask(ann.ws, {{"type", "spectate_player"}, {"player", bob.id}})["code"], "not_friends");
  ask(bob.ws, {{"type", "new_game"}, {"size", 4}});
  make_a_move(bob.ws);
  // The push that told cal, bob's friend, went to nobody else.
  EXPECT_FALSE(wait_presence(cal.ws, bob.id, "solo").empty());
  EXPECT_EQ(ask(ann.ws, {{"type", "ping"}})["type"], "pong") << "no presence for ann";
  // Unblocking lets a new request through.
  EXPECT_EQ(ask(bob.ws, {{"type", "unblock"}, {"player", ann.id}})["relation"], "none");
  ask(ann.ws, {{"type", "friend_request"}, {"player", bob.id}});
  EXPECT_EQ(bob.ws.until("friend_update")["relation"], "incoming");
}

TEST(Friends, RequestsAreLimited) {
  ServerProcess server({"--countdown", "0"});
  Racer ann(server.port(), "ann-l");
  for (int i = 0; i < 5; ++i) {
    const json r = ask(ann.ws, {{"type", "friend_request"},
                                {"name", std::string("ghost-").append(std::to_string(i))}});
    EXPECT_EQ(r["code"], "no_such_player") << r.dump();
  }
  EXPECT_EQ(ask(ann.ws, {{"type", "friend_request"}, {"name", "ghost-9"}})["code"], "rate_limited");
  EXPECT_EQ(ask(ann.ws, {{"type", "friend_accept"}, {"player", ann.id}})["code"], "not_allowed");
  EXPECT_EQ(ask(ann.ws, {{"type", "friend_remove"}, {"player", "nobody"}})["code"],
            "no_such_player");
}

}  // namespace
}  // namespace tilerace::e2e
