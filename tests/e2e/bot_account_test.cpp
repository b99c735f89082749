// Bot accounts over the real binary, on both stores (docs/bots.md): a fresh account becomes a
// bot for good; its API tokens sign it in (hello or Authorization: Bearer) until revoked and are
// never readable again; people challenge bots and race them with nobody's rating moving; bots
// are marked on the wire, paced in races with people, rated among themselves on their own
// board, matched in their own queue, and capped in races a day.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "tests/e2e/backend.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {
namespace {

using namespace std::chrono_literals;

constexpr const char* kPassword = "correct horse battery";

class BotAccounts : public BackendTest {};

// A registered account called name, signed in on ws; its welcome.
json registered(WsClient& ws, const std::string& name) {
  const json welcome = ws.hello(name);
  const json reply = ws.request({{"type", "register"}, {"password", kPassword}});
  EXPECT_EQ(reply["type"], "registered") << reply.dump();
  return welcome;
}

// A bot account called name, made on its own connection; its id and a fresh API token.
struct MadeBot {
  std::string id;
  std::string token;
};
MadeBot make_bot(std::uint16_t port, const std::string& name) {
  WsClient owner(port);
  const json welcome = registered(owner, name);
  const json upgraded = owner.request({{"type", "upgrade_to_bot"}, {"password", kPassword}});
  EXPECT_EQ(upgraded["type"], "upgraded") << upgraded.dump();
  const json token = owner.request({{"type", "bot_token"}});
  EXPECT_EQ(token["type"], "bot_token") << token.dump();
  return {welcome["player"]["id"], token["token"]};
}

// A racer signed in with a bot token.
Racer::Hello as_bot(const MadeBot& bot) { return {{{"type", "hello"}, {"bot_token", bot.token}}}; }

// A connection of the bot, signed in with its token: its welcome.
json bot_hello(WsClient& ws, const std::string& token) {
  return ws.request({{"type", "hello"}, {"bot_token", token}});
}

TEST_P(BotAccounts, OnlyAFreshAccountBecomesABotAndNeverGoesBack) {
  ServerProcess server(args({"--countdown", "0"}));
  WsClient guest(server.port());
  guest.hello("just-a-guest");
  EXPECT_EQ(guest.request({{"type", "upgrade_to_bot"}, {"password", kPassword}})["code"],
            "not_allowed");
  // One who has finished a game stays a person.
  WsClient player(server.port());
  registered(player, "old-hand");
  ASSERT_EQ(player.request({{"type", "new_game"}, {"size", 4}})["type"], "game");
  ASSERT_EQ(player.request({{"type", "resign"}})["type"], "game");
  const json played = player.request({{"type", "upgrade_to_bot"}, {"password", kPassword}});
  EXPECT_EQ(played["code"], "not_allowed") << played.dump();
  // A fresh account: the right password, then a bot for good.
  WsClient owner(server.port());
  const json welcome = registered(owner, "robo-one");
  const json wrong = owner.request({{"type", "upgrade_to_bot"}, {"password", "not the password"}});
  EXPECT_EQ(wrong["code"], "bad_credentials");
  const json upgraded =
      owner.request({{"type", "upgrade_to_bot"}, {"password", kPassword}, {"rid", "u"}});
  ASSERT_EQ(upgraded["type"], "upgraded") << upgraded.dump();
  EXPECT_EQ(upgraded["rid"], "u");
  EXPECT_EQ(upgraded["player"]["id"], welcome["player"]["id"]);
  EXPECT_EQ(upgraded["player"]["bot"], true);
  EXPECT_EQ(owner.request({{"type", "upgrade_to_bot"}, {"password", kPassword}})["code"],
            "not_allowed");
  // Its web session goes on, marked; the password no longer signs it in, nor does a token in
  // login.
  WsClient again(server.port());
  const json resumed = again.request({{"type", "hello"}, {"token", welcome["token"]}});
  ASSERT_EQ(resumed["type"], "welcome") << resumed.dump();
  EXPECT_EQ(resumed["player"]["bot"], true);
  WsClient login(server.port());
  EXPECT_EQ(
      login.request({{"type", "login"}, {"name", "robo-one"}, {"password", kPassword}})["code"],
      "not_allowed");
  const json with_token = login.request(
      {{"type", "login"}, {"name", "robo-one"}, {"password", kPassword}, {"bot_token", "tb_x"}});
  EXPECT_EQ(with_token["code"], "bad_field");
  EXPECT_EQ(with_token["field"], "bot_token");
  // A person has no tokens to make.
  EXPECT_EQ(player.request({{"type", "bot_token"}})["code"], "not_allowed");
}

TEST_P(BotAccounts, TokensSignInUntilRevokedAndAreNeverShownAgain) {
  TempDir data;
  ServerProcess server(args(), TILERACE_WEB_ROOT, data.path());
  const MadeBot bot = make_bot(server.port(), "robo-two");
  // The store keeps no token in clear.
  EXPECT_EQ(
      query("SELECT COUNT(*) FROM bot_tokens WHERE token_hash = '" + bot.token + "'", data.path()),
      0);
  EXPECT_EQ(query("SELECT COUNT(*) FROM bot_tokens", data.path()), 1);
  // hello with the token, and the upgrade's Authorization: Bearer.
  WsClient first(server.port());
  const json welcome = bot_hello(first, bot.token);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(welcome["player"]["id"], bot.id);
  EXPECT_EQ(welcome["player"]["bot"], true);
  EXPECT_EQ(welcome["token"], "") << "a bot signs in with its token each time";
  const auto profile = http_request(server.port(), "/api/players/" + bot.id);
  EXPECT_EQ(json::parse(profile.body)["bot"], true) << profile.body;
  WsClient bearer(server.port(), std::nullopt, "/ws", {{"Authorization", "Bearer " + bot.token}});
  const json by_header = bearer.request({{"type", "hello"}});
  ASSERT_EQ(by_header["type"], "welcome") << by_header.dump();
  EXPECT_EQ(by_header["player"]["id"], bot.id);
  EXPECT_EQ(first.wait_closed(), 4000) << "one connection at a time";
  // A second token, listed with the first, neither with its secret.
  const json second = bearer.request({{"type", "bot_token"}});
  ASSERT_EQ(second["type"], "bot_token");
  const json listed = bearer.request({{"type", "bot_tokens"}});
  ASSERT_EQ(listed["tokens"].size(), 2u) << listed.dump();
  for (const json& t : listed["tokens"]) {
    EXPECT_FALSE(t.contains("token")) << t.dump();
    EXPECT_EQ(t["id"].get<std::string>().size(), 16u);
  }
  EXPECT_EQ(listed["tokens"][1]["id"], second["id"]);
  EXPECT_GT(listed["tokens"][0]["last_used"], 0) << "the first has signed in";
  EXPECT_EQ(listed["tokens"][1]["last_used"], 0);
  // Revoking the token this connection signed in with signs it out.
  const std::string first_id = listed["tokens"][0]["id"];
  const json revoked = bearer.request({{"type", "revoke_bot_token"}, {"id", first_id}});
  EXPECT_EQ(revoked["type"], "bot_token_revoked") << revoked.dump();
  EXPECT_EQ(revoked["id"], first_id);
  const json out = bearer.until("error", 15s);
  EXPECT_EQ(out["code"], "bad_token") << out.dump();
  bearer.wait_closed();
  WsClient late(server.port());
  const json refused = bot_hello(late, bot.token);
  EXPECT_EQ(refused["code"], "bad_token");
  EXPECT_EQ(refused["field"], "bot_token");
  WsClient other(server.port());
  EXPECT_EQ(bot_hello(other, second["token"])["type"], "welcome");
  const json unknown = other.request({{"type", "revoke_bot_token"}, {"id", first_id}});
  EXPECT_EQ(unknown["code"], "bad_field") << "revoked already";
  EXPECT_EQ(other.request({{"type", "revoke_bot_token"}, {"id", "nothex"}})["code"], "bad_field");
}

TEST_P(BotAccounts, APersonChallengesABotAndRacesItWithoutTheirRatingMoving) {
  ServerProcess server(args({"--countdown", "0"}));
  const MadeBot made = make_bot(server.port(), "robo-three");
  Racer bot(server.port(), as_bot(made));
  Racer ann(server.port(), "ann-b");
  // No friendship needed to challenge a bot; it may decline with a reason.
  const json challenge{
      {"type", "challenge"}, {"player", made.id}, {"mode", "classic"}, {"size", 4}};
  ASSERT_EQ(ann.ws.request(challenge)["type"], "challenge_sent");
  const json first = bot.ws.until("challenged");
  EXPECT_EQ(bot.ws.request(
                {{"type", "challenge_decline"}, {"id", first["id"]}, {"reason", "later"}})["type"],
            "challenge_declined");
  const json declined = ann.ws.until("challenge_declined");
  EXPECT_EQ(declined["reason"], "later") << declined.dump();
  const json bad =
      bot.ws.request({{"type", "challenge_decline"}, {"id", first["id"]}, {"reason", "too tired"}});
  EXPECT_EQ(bad["field"], "reason");
  // Accepted: the bot's seat is marked, and so is every update of its board.
  ASSERT_EQ(ann.ws.request(challenge)["type"], "challenge_sent");
  const std::string id = bot.ws.until("challenged")["id"];
  const json room = bot.ws.request({{"type", "challenge_accept"}, {"id", id}});
  ASSERT_EQ(room["type"], "room") << room.dump();
  for (const json& p : room["room"]["players"]) {
    EXPECT_EQ(p.value("bot", false), p["id"] == made.id) << p.dump();
  }
  ann.ws.until("room");
  start_race({&ann, &bot});
  ASSERT_EQ(play(bot.ws, "left")["type"], "moved");
  ASSERT_EQ(play(bot.ws, "up")["type"], "moved");
  std::vector<json> seen;
  ann.ws.send({{"type", "resign"}});
  const json over = ann.ws.until("race_over", 5s, &seen);
  bool marked_update = false;
  for (const json& m : seen) {
    if (m["type"] == "race_update" && m["player"] == made.id) marked_update = m.value("bot", false);
  }
  EXPECT_TRUE(marked_update) << "the bot's race_update carries bot:true";
  EXPECT_EQ(over["winner"], made.id);
  for (const json& s : over["standings"]) {
    EXPECT_EQ(s.value("bot", false), s["player"] == made.id) << s.dump();
  }
  for (const auto& [who, r] : over["ratings"].items()) EXPECT_EQ(r["before"], r["after"]) << who;
  ann.ws.send({{"type", "leaderboard"}, {"kind", "rating"}, {"provisional", true}});
  const json board = ann.ws.until("leaderboard");
  EXPECT_EQ(board["entries"].size(), 0u) << board.dump();
}

// Between bots, ratings move on the bots' own board, and only the room's cap holds them back;
// with a person in the race, a bot is held to the pace.
TEST_P(BotAccounts, BotsAreRatedOnTheirOwnBoardAndPacedOnlyWithPeople) {
  ServerProcess server(args({"--countdown", "0", "--rate", "500"}));
  const MadeBot a = make_bot(server.port(), "robo-a"), b = make_bot(server.port(), "robo-b");
  Racer ra(server.port(), as_bot(a)), rb(server.port(), as_bot(b));
  const json room = create_room(ra, {{"bot_pace", 2}});
  EXPECT_EQ(room["bot_pace"], 2);
  rb.ws.send({{"type", "join_room"}, {"code", room["code"]}});
  rb.ws.until("room");
  start_race({&ra, &rb});
  // No pace between bots: 40 moves in a burst, none refused.
  for (int i = 0; i < 40; ++i) ra.ws.send({{"type", "move"}, {"dir", kDirs[i % 4]}});
  for (int i = 0; i < 40; ++i) {
    const json m = ra.ws.until("moved");
    EXPECT_EQ(m["type"], "moved");
  }
  rb.ws.send({{"type", "resign"}});
  const json over = ra.ws.until("race_over");
  EXPECT_NE(over["ratings"][a.id]["before"], over["ratings"][a.id]["after"]) << over.dump();
  WsClient reader(server.port());
  reader.hello("reader");
  const json bots =
      reader.request({{"type", "leaderboard"}, {"board", "bots"}, {"provisional", true}});
  ASSERT_EQ(bots["type"], "leaderboard") << bots.dump();
  EXPECT_EQ(bots["board"], "bots");
  ASSERT_EQ(bots["entries"].size(), 2u) << bots.dump();
  EXPECT_EQ(bots["entries"][0]["player"], a.id);
  EXPECT_EQ(bots["entries"][0]["bot"], true);
  const auto http = http_request(server.port(), "/api/leaderboard?board=bots&provisional=1");
  EXPECT_EQ(json::parse(http.body)["entries"].size(), 2u) << http.body;
  const json people =
      reader.request({{"type", "leaderboard"}, {"kind", "rating"}, {"provisional", true}});
  EXPECT_EQ(people["entries"].size(), 0u) << people.dump();

  // With a person: bot_pace 2 a second, however fast the bot sends.
  rb.ws.send({{"type", "leave_room"}});
  Racer ann(server.port(), "ann-p");
  ann.ws.send({{"type", "join_room"}, {"code", room["code"]}});
  ann.ws.until("room");
  start_race({&ra, &ann});
  const auto t0 = std::chrono::steady_clock::now();
  constexpr int kSent = 100;
  for (int i = 0; i < kSent; ++i) ra.ws.send({{"type", "move"}, {"dir", kDirs[i % 4]}});
  int moved = 0, limited = 0;
  while (moved + limited < kSent) {
    const auto m = ra.ws.next(5s);
    ASSERT_TRUE(m.has_value());
    if ((*m)["type"] == "moved") ++moved;
    if ((*m)["type"] == "error") {
      EXPECT_EQ((*m)["code"], "rate_limited") << m->dump();
      ++limited;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(moved, 2) << "the pace's burst";
  EXPECT_LE(moved, 2 + 2 * seconds + 1) << moved << " moves in " << seconds << " s";
  EXPECT_GT(limited, 0);
}

TEST_P(BotAccounts, QuickMatchPairsBotsWithBotsAndPeopleWhoAskedForThem) {
  ServerProcess server(
      args({"--countdown", "0", "--quick-match-bot-after", "0", "--bot-races-per-day", "1"}));
  const MadeBot a = make_bot(server.port(), "robo-q1"), b = make_bot(server.port(), "robo-q2");
  const MadeBot c = make_bot(server.port(), "robo-q3");
  Racer ra(server.port(), as_bot(a)), rb(server.port(), as_bot(b)), rc(server.port(), as_bot(c));
  Racer ann(server.port(), "ann-q"), bea(server.port(), "bea-q");
  EXPECT_EQ(ra.ws.request({{"type", "quick_match"}})["type"], "queued");
  EXPECT_EQ(ann.ws.request({{"type", "quick_match"}})["type"], "queued") << "not with the bot";
  const json paired = rb.ws.request({{"type", "quick_match"}});
  ASSERT_EQ(paired["type"], "room") << paired.dump();
  for (const json& p : paired["room"]["players"]) EXPECT_EQ(p["bot"], true) << p.dump();
  // A person who asks for bots too meets the next bot.
  EXPECT_EQ(rc.ws.request({{"type", "quick_match"}})["type"], "queued");
  const json with_bot = bea.ws.request({{"type", "quick_match"}, {"bots", true}});
  ASSERT_EQ(with_bot["type"], "room") << with_bot.dump();
  ann.ws.send({{"type", "cancel_match"}});
  // The bots race; then a bot has had its one race with bots today.
  ra.ws.until("room");
  start_race({&ra, &rb});
  rb.ws.send({{"type", "resign"}});
  ra.ws.until("race_over");
  rb.ws.until("race_over");
  ra.ws.send({{"type", "leave_room"}});
  ra.ws.until("left");
  const json capped = ra.ws.request({{"type", "quick_match"}});
  EXPECT_EQ(capped["code"], "not_allowed") << capped.dump();
}

// A tournament admits bots only when its host allows them (bots: true); its players are marked.
TEST_P(BotAccounts, ATournamentAdmitsBotsOnlyIfItsHostAllowsThem) {
  ServerProcess server(args());
  const MadeBot made = make_bot(server.port(), "robo-t");
  Racer bot(server.port(), as_bot(made));
  Racer host(server.port(), "host-t");
  const json closed = host.ws.request({{"type", "create_tournament"}, {"format", "swiss"}});
  ASSERT_EQ(closed["type"], "tournament") << closed.dump();
  EXPECT_EQ(closed["tournament"]["bots"], false);
  const json refused =
      bot.ws.request({{"type", "join_tournament"}, {"code", closed["tournament"]["code"]}});
  EXPECT_EQ(refused["code"], "not_allowed") << refused.dump();
  Racer other(server.port(), "host-u");
  const json open =
      other.ws.request({{"type", "create_tournament"}, {"format", "swiss"}, {"bots", true}});
  ASSERT_EQ(open["type"], "tournament") << open.dump();
  EXPECT_EQ(open["tournament"]["bots"], true) << open.dump();
  const json joined =
      bot.ws.request({{"type", "join_tournament"}, {"code", open["tournament"]["code"]}});
  ASSERT_EQ(joined["type"], "tournament") << joined.dump();
  for (const json& p : joined["tournament"]["players"]) {
    EXPECT_EQ(p.value("bot", false), p["id"] == made.id) << p.dump();
  }
}

TILERACE_BOTH_BACKENDS(BotAccounts);

// The example bots of examples/bots/, each in its one command: the node bot challenges the
// python bot, which accepts; they race to 128 and both exit once the race is over.
TEST(ExampleBots, ThePythonBotAndTheNodeBotRaceEachOther) {
  ServerProcess server({"--countdown", "0"});
  const MadeBot py = make_bot(server.port(), "python-bot"),
                js = make_bot(server.port(), "node-bot");
  const std::string root = std::filesystem::path(TILERACE_WEB_ROOT).parent_path().string();
  const std::string url = "ws://127.0.0.1:" + std::to_string(server.port()) + "/ws";
  const auto [out, status] = shell(
      "cd '" + root +
      "' && (timeout 60 /usr/bin/python3 examples/bots/python/greedy_bot.py --url " + url +
      " --token " + py.token + " --races 1; echo python-exit=$?) & (cd '" + root +
      "' && timeout 60 node --experimental-websocket examples/bots/node/greedy_bot.mjs --url " +
      url + " --token " + js.token + " --challenge " + py.id +
      " --target 128 --races 1; echo node-exit=$?) & wait");
  EXPECT_NE(out.find("python-exit=0"), std::string::npos) << out;
  EXPECT_NE(out.find("node-exit=0"), std::string::npos) << out;
  const auto board = http_request(server.port(), "/api/leaderboard?board=bots&provisional=1");
  const json entries = json::parse(board.body)["entries"];
  ASSERT_EQ(entries.size(), 2u) << board.body << out;
  EXPECT_EQ(entries[0]["wins"].get<int>() + entries[1]["wins"].get<int>(), 1) << board.body;
}

}  // namespace
}  // namespace tilerace::e2e
