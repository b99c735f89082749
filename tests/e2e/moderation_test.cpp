// Moderation with the real binary (docs/operations.md, "Moderation"): the operator API's token,
// bans that close the player's connections (on every node) and take them off every board until
// the unban, the audit log, forced renames, password resets, hidden games, closed rooms,
// reports and kicks.
#include <gtest/gtest.h>

#include <fstream>

#include "engine/bitboard.hpp"
#include "engine/bot.hpp"
#include "tests/e2e/cluster_nodes.hpp"
#include "tests/e2e/friend_steps.hpp"
#include "tests/e2e/operator_client.hpp"

namespace tilerace::e2e {
namespace {

const std::string& kToken = kOwnerToken;

// r plays a ranked solo game until it scores, then resigns it: the game's id and score.
std::pair<std::string, std::int64_t> scored_game(Racer& r) {
  const std::string id = ask(r.ws, {{"type", "new_game"}})["game"]["id"];
  std::int64_t score = 0;
  for (int i = 0; i < 200 && score == 0; ++i) score = play(r.ws, kDirs[i % 4]).value("score", 0);
  EXPECT_EQ(ask(r.ws, {{"type", "resign"}})["game"]["state"], "resigned");
  return {id, score};
}

// A classic 4×4 board as the server sends it, as the engine's bitboard.
engine::bitboard::Board bitboard_of(const json& rows) {
  engine::Grid grid;
  grid.size = 4;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      const auto v = rows[r][c].get<std::uint64_t>();
      grid.at(r, c) = static_cast<std::uint8_t>(v == 0 ? 0 : std::countr_zero(v));
    }
  }
  return engine::bitboard::from_grid(grid);
}

// Ranked classic 4×4 games through the protocol, one move each in turn (so that both games'
// moves come at the same pace, the slower search's): each of up to `moves` moves of players[i]
// the computer's choice at strengths[i]; then each resigns. The games' ids.
std::vector<std::string> computer_games(const std::vector<Racer*>& players,
                                        const std::vector<engine::BotStrength>& strengths,
                                        int moves) {
  std::vector<std::string> ids;
  std::vector<json> boards;
  std::vector<bool> playing(players.size(), true);
  for (Racer* r : players) {
    const json game = ask(r->ws, {{"type", "new_game"}})["game"];
    ids.push_back(game["id"]);
    boards.push_back(game["board"]);
  }
  engine::Bot bot;
  for (int i = 0; i < moves; ++i) {
    for (std::size_t p = 0; p < players.size(); ++p) {
      if (!playing[p]) continue;
      const auto d =
          bot.choose(bitboard_of(boards[p]), strengths[p], static_cast<std::uint64_t>(i));
      if (!d) {
        playing[p] = false;
        continue;
      }
      const json moved = play(players[p]->ws, std::string(engine::to_string(*d)));
      boards[p] = moved["board"];
      playing[p] = moved["state"] == "playing";
    }
  }
  for (Racer* r : players) ask(r->ws, {{"type", "resign"}});
  return ids;
}

// The players on a score board of the server (period: all-time, day or week), by id.
std::set<std::string> on_board(std::uint16_t port, const std::string& period = "") {
  const std::string target =
      "/api/leaderboard?mode=classic&size=4" + (period.empty() ? "" : "&period=" + period);
  const json board = json::parse(http_request(port, target).body);
  std::set<std::string> ids;
  for (const json& e : board["entries"]) ids.insert(e["player"].get<std::string>());
  return ids;
}

TEST(Moderation, TheOperatorApiNeedsItsTokenAndIsOffWithoutIt) {
  {
    ServerProcess off;
    EXPECT_EQ(http_request(off.port(), "/admin/api/audit").status, 404);
  }
  TempDir dir;
  const auto [out, status] =
      shell(std::string("timeout 20 ") + TILERACE_BINARY + " --host 127.0.0.1 --port 0 --data " +
            dir.path().string() + " --admin-token-file " + token_file(dir, "too-short"));
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("at least 32 bytes"), std::string::npos) << out;

  ServerProcess server({"--admin-token-file", token_file(dir)});
  EXPECT_EQ(http_request(server.port(), "/admin/api/operators").status, 401);
  EXPECT_EQ((Operator{server.port(), kToken + "x"}.get("operators").status), 401);
  EXPECT_EQ((Operator{server.port(), kToken.substr(1)}.get("operators").status), 401);
  EXPECT_EQ(Operator{server.port()}.get("operators").status, 200);
  // The owner's token manages operators, and only them: no reads of players, no bans.
  EXPECT_EQ(Operator{server.port()}.get("audit").status, 403);
  EXPECT_EQ(Operator{server.port()}.post("ban", {{"player", "p1"}, {"reason", "x"}}).first, 403);
  // The scheme in any case (RFC 7235), and nothing else in its place.
  for (const std::string scheme : {"bearer ", "BEARER "}) {
    EXPECT_EQ(http_request(server.port(), "/admin/api/operators", "GET",
                           {{"Authorization", scheme + kToken}})
                  .status,
              200)
        << scheme;
  }
  EXPECT_EQ(http_request(server.port(), "/admin/api/operators", "GET",
                         {{"Authorization", "Basic " + kToken}})
                .status,
            401);
  EXPECT_TRUE(server.wait_for_metric("tilerace_admin_denied_total", 6));
  // Ten failures a minute from one address (403s are no failures), then even the right token
  // waits.
  for (int i = 4; i < 10; ++i) {
    EXPECT_EQ((Operator{server.port(), "wrong"}.get("operators").status), 401);
  }
  EXPECT_EQ(Operator{server.port()}.get("operators").status, 429);
  EXPECT_EQ(server.log().find(kToken), std::string::npos) << "the token is never logged";
}

TEST(Moderation, ATimedBanReachesTheOpenConnectionWithItsReasonAndEnd) {
  TempDir dir;
  ServerProcess server({"--admin-token-file", token_file(dir)});
  const Operator op = Operator::signed_in(server.port(), "mo", "moderator");
  Racer cy(server.port(), "cy-m");
  const std::int64_t until = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() +
                             3'600'000;
  EXPECT_EQ(op.post("ban", {{"player", cy.id}, {"reason", "cool off"}, {"until", until}}).first,
            200);
  // Told as the next hello would be: the reason and when it ends (not read as for good).
  const json told = cy.ws.until("error");
  EXPECT_EQ(told["code"], "banned");
  EXPECT_EQ(told["reason"], "cool off");
  EXPECT_EQ(told["until"], until);
  EXPECT_EQ(cy.ws.wait_closed(), 4003);
  WsClient again(server.port());
  EXPECT_EQ(again.request({{"type", "hello"}, {"token", cy.token}})["until"], until);
}

TEST(Moderation, ABanClosesThePlayerOutAndTakesThemOffTheBoardsUntilUnbanned) {
  TempDir dir;
  ServerProcess server({"--admin-token-file", token_file(dir)});
  const Operator op = Operator::signed_in(server.port(), "mo", "moderator");
  Racer ann(server.port(), "ann-m"), bob(server.port(), "bob-m");
  scored_game(ann);
  scored_game(bob);
  ask(ann.ws, {{"type", "register"}, {"password", "correct horse battery"}});
  const std::string code = ask(ann.ws, {{"type", "link_code"}})["code"];
  ASSERT_EQ(on_board(server.port()), (std::set<std::string>{ann.id, bob.id}));
  const json found = json::parse(op.get("players?q=ANN-").body);
  ASSERT_EQ(found.size(), 1u) << found.dump();
  EXPECT_EQ(found[0]["id"], ann.id);

  const auto [status, answer] = op.post("ban", {{"player", ann.id}, {"reason", "abusive name"}});
  EXPECT_EQ(status, 200) << answer.dump();
  // She is told why, and her connection closes with 4003.
  const json told = ann.ws.until("error");
  EXPECT_EQ(told["code"], "banned");
  EXPECT_EQ(told["reason"], "abusive name");
  EXPECT_EQ(ann.ws.wait_closed(), 4003);
  // Back with her token, by name and password, or with a link code: refused.
  WsClient again(server.port());
  const json refused = again.request({{"type", "hello"}, {"token", ann.token}});
  EXPECT_EQ(refused["code"], "banned");
  EXPECT_EQ(refused["reason"], "abusive name");
  WsClient by_password(server.port());
  EXPECT_EQ(
      by_password.request(
          {{"type", "login"}, {"name", "ann-m"}, {"password", "correct horse battery"}})["code"],
      "banned");
  WsClient by_code(server.port());
  EXPECT_EQ(by_code.request({{"type", "hello"}, {"link_code", code}})["code"], "banned");
  // Off every board; her games are kept.
  EXPECT_EQ(on_board(server.port()), std::set<std::string>{bob.id});
  EXPECT_EQ(on_board(server.port(), "day"), std::set<std::string>{bob.id});
  EXPECT_EQ(on_board(server.port(), "week"), std::set<std::string>{bob.id});
  const json view = json::parse(op.get("players/" + ann.id).body);
  EXPECT_EQ(view["banned_until"], 0);
  EXPECT_EQ(view["ban_reason"], "abusive name");
  ASSERT_EQ(view["games"].size(), 1u);
  ASSERT_EQ(view["sessions"].size(), 1u);
  EXPECT_EQ(view["sessions"][0]["address"], "127.0.0.1");
  EXPECT_TRUE(server.wait_for_metric("tilerace_bans_total", 1));

  EXPECT_EQ(op.post("unban", {{"player", ann.id}, {"reason", "appeal"}}).first, 200);
  EXPECT_EQ(op.post("unban", {{"player", ann.id}}).first, 404) << "not banned any more";
  EXPECT_EQ(on_board(server.port()), (std::set<std::string>{ann.id, bob.id}));
  json welcome;
  Racer back(server.port(), ann.id, ann.token, welcome);
  EXPECT_EQ(welcome["type"], "welcome");
  // Both actions are in the audit log, newest first, after the operator's making and sign-in:
  // who (name and role), whom (id and name then), from where.
  const json log = json::parse(op.get("audit").body);
  ASSERT_EQ(log.size(), 4u) << log.dump();
  EXPECT_EQ(log[0]["action"], "unban");
  EXPECT_EQ(log[0]["reason"], "appeal");
  EXPECT_EQ(log[1]["action"], "ban");
  EXPECT_EQ(log[1]["target"], ann.id);
  EXPECT_EQ(log[1]["target_name"], "ann-m");
  EXPECT_EQ(log[1]["actor"], "mo");
  EXPECT_EQ(log[1]["role"], "moderator");
  EXPECT_EQ(log[1]["address"], "127.0.0.1");
  EXPECT_EQ(log[2]["action"], "sign_in");
  EXPECT_EQ(log[3]["action"], "create_operator");
  EXPECT_EQ(log[3]["actor"], "owner token");
  EXPECT_EQ(log[3]["role"], "token");
}

TEST(Moderation, RenamesResetsHiddenGamesAndClosedRoomsAreCarriedOutAndAudited) {
  TempDir dir;
  TempDir data;
  ServerProcess server({"--admin-token-file", token_file(dir), "--countdown", "0"},
                       TILERACE_WEB_ROOT, data.path());
  const Operator op = Operator::signed_in(server.port(), "mo", "moderator");
  Racer ann(server.port(), "ann-r"), bob(server.port(), "bob-r");
  const auto [game, score] = scored_game(ann);
  scored_game(bob);

  // A forced rename: she is told, and the boards show it.
  EXPECT_EQ(op.post("rename", {{"player", ann.id}, {"name", "bob-r"}, {"reason", "x"}}).first, 409);
  EXPECT_EQ(
      op.post("rename", {{"player", ann.id}, {"name", "Nice Name"}, {"reason", "rude"}}).first,
      200);
  EXPECT_EQ(ann.ws.until("renamed")["player"]["name"], "Nice Name");
  const json board = json::parse(http_request(server.port(), "/api/leaderboard").body);
  bool shown = false;
  for (const json& e : board["entries"]) shown |= e["name"] == "Nice Name";
  EXPECT_TRUE(shown) << board.dump();

  // A game off the boards, and back.
  EXPECT_EQ(op.post("hide_game", {{"game", game}, {"reason", "assisted"}}).first, 200);
  EXPECT_EQ(on_board(server.port()), std::set<std::string>{bob.id});
  EXPECT_EQ(op.post("show_game", {{"game", game}}).first, 200);
  EXPECT_EQ(on_board(server.port()), (std::set<std::string>{ann.id, bob.id}));
  EXPECT_EQ(op.post("hide_game", {{"game", "nosuchgame"}, {"reason", "x"}}).first, 404);

  // A password reset gives a link code that signs her in.
  ask(ann.ws, {{"type", "register"}, {"password", "correct horse battery"}});
  const auto [reset_status, reset] = op.post("reset_password", {{"player", ann.id}});
  ASSERT_EQ(reset_status, 200) << reset.dump();
  WsClient linked(server.port());
  const json w = linked.request({{"type", "hello"}, {"link_code", reset["link_code"]}});
  EXPECT_EQ(w["type"], "welcome") << w.dump();
  EXPECT_EQ(w["player"]["id"], ann.id);
  EXPECT_EQ(w["registered"], false) << "she chooses a new password";
  // No code at rest: the whole database (its file and its log) holds a reset code and a link
  // code only as hashes, before and after use.
  const json link = ask(linked, {{"type", "link_code"}});
  for (const std::string& code :
       {reset["link_code"].get<std::string>(), link["code"].get<std::string>()}) {
    for (const auto& file : std::filesystem::directory_iterator(data.path())) {
      std::ifstream in(file.path(), std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), {});
      EXPECT_EQ(bytes.find(code), std::string::npos) << code << " in " << file.path();
    }
  }

  // A closed room: its racers and spectators are told, and it is gone.
  const json room = ask(bob.ws, {{"type", "create_room"}})["room"];
  const std::string code = room["code"];
  Racer sam(server.port(), "sam-r");
  EXPECT_EQ(ask(sam.ws, {{"type", "spectate"}, {"code", code}})["type"], "room");
  EXPECT_EQ(op.post("close_room", {{"code", code}, {"reason", "spam"}}).first, 200);
  EXPECT_EQ(bob.ws.until("room_closed")["reason"], "spam");
  EXPECT_EQ(sam.ws.until("room_closed")["code"], code);
  EXPECT_EQ(ask(sam.ws, {{"type", "join_room"}, {"code", code}})["code"], "no_such_room");
  EXPECT_EQ(op.post("close_room", {{"code", code}, {"reason", "x"}}).first, 404);
  EXPECT_EQ(op.post("close_room", {{"reason", "x"}}).first, 400) << "a code is required";

  std::vector<std::string> actions;
  const json log = json::parse(op.get("audit").body);
  for (const json& e : log) actions.push_back(e["action"]);
  EXPECT_EQ(actions,
            (std::vector<std::string>{"close_room", "reset_password", "show_game", "hide_game",
                                      "rename", "sign_in", "create_operator"}));
  EXPECT_TRUE(server.wait_for_metric("tilerace_admin_actions_total", 5));
}

TEST(Moderation, ReportsAreLimitedAndResolved) {
  TempDir dir;
  ServerProcess server({"--admin-token-file", token_file(dir)});
  const Operator op = Operator::signed_in(server.port(), "mo", "moderator");
  Racer ann(server.port(), "ann-p"), bob(server.port(), "bob-p");
  const json report{{"type", "report"}, {"player", bob.id}, {"reason", "name"}, {"note", "rude"}};
  EXPECT_EQ(ask(ann.ws, report)["type"], "reported");
  EXPECT_EQ(ask(ann.ws, report)["code"], "rate_limited") << "once a day";
  EXPECT_EQ(ask(ann.ws, {{"type", "report"}, {"player", ann.id}, {"reason", "name"}})["code"],
            "not_allowed");
  EXPECT_EQ(ask(ann.ws, {{"type", "report"}, {"player", "nobody"}, {"reason", "name"}})["code"],
            "no_such_player");
  // Five a minute, whoever they are about (three so far: oneself is refused before counting).
  for (const char* who : {"nobody2", "nobody3"}) {
    EXPECT_EQ(ask(ann.ws, {{"type", "report"}, {"player", who}, {"reason", "abuse"}})["code"],
              "no_such_player");
  }
  EXPECT_EQ(ask(ann.ws, {{"type", "report"}, {"player", "nobody4"}, {"reason", "abuse"}})["code"],
            "rate_limited");
  const json open = json::parse(op.get("reports?open=1").body);
  ASSERT_EQ(open.size(), 1u) << open.dump();
  EXPECT_EQ(open[0]["reporter"]["name"], "ann-p");
  EXPECT_EQ(open[0]["player"]["id"], bob.id);
  EXPECT_EQ(open[0]["note"], "rude");
  const std::int64_t id = open[0]["id"];
  EXPECT_EQ(op.post("resolve_report", {{"id", id}, {"resolution", "warned"}}).first, 200);
  EXPECT_EQ(op.post("resolve_report", {{"id", id}, {"resolution", "again"}}).first, 404);
  EXPECT_TRUE(json::parse(op.get("reports?open=1").body).empty());
  EXPECT_EQ(json::parse(op.get("reports?open=0").body)[0]["resolution"], "warned");
  EXPECT_EQ(json::parse(op.get("players/" + bob.id).body)["reports"].size(), 1u);
  EXPECT_TRUE(server.wait_for_metric("tilerace_reports_total", 1));
}

TEST(Moderation, TheHostSendsARacerOutForTenMinutes) {
  ServerProcess server;
  Racer host(server.port(), "host-k"), carl(server.port(), "carl-k"), dan(server.port(), "dan-k");
  const std::string code =
      ask(host.ws, {{"type", "create_room"}, {"max_players", 3}})["room"]["code"];
  ASSERT_EQ(ask(carl.ws, {{"type", "join_room"}, {"code", code}})["type"], "room");
  ASSERT_EQ(ask(dan.ws, {{"type", "join_room"}, {"code", code}})["type"], "room");
  EXPECT_EQ(ask(dan.ws, {{"type", "kick"}, {"player", carl.id}})["code"], "not_allowed");
  EXPECT_EQ(ask(host.ws, {{"type", "kick"}, {"player", host.id}})["code"], "not_allowed");
  const json after = ask(host.ws, {{"type", "kick"}, {"player", carl.id}});
  ASSERT_EQ(after["type"], "room") << after.dump();
  EXPECT_EQ(after["room"]["players"].size(), 2u);
  EXPECT_EQ(carl.ws.until("kicked")["code"], code);
  EXPECT_EQ(ask(carl.ws, {{"type", "join_room"}, {"code", code}})["code"], "not_allowed");
  // Only out of that room: another one takes them.
  EXPECT_EQ(ask(carl.ws, {{"type", "create_room"}})["type"], "room");
}

TEST(Moderation, TheComputersGamesRankAboveRandomGreedyPlayOnTheSuspicionList) {
  TempDir dir;
  ServerProcess server({"--admin-token-file", token_file(dir), "--rate", "100000"});
  Racer hal(server.port(), "hal-s"), eve(server.port(), "eve-s");
  // The hard computer's moves, and random-greedy ones (the easy computer's), at one pace.
  const std::vector<std::string> games =
      computer_games({&hal, &eve}, {engine::BotStrength::hard, engine::BotStrength::easy}, 400);
  const std::string& assisted = games[0];
  const std::string& greedy = games[1];
  const Operator viewer = Operator::signed_in(server.port(), "vi", "viewer");
  json list;
  EXPECT_TRUE(tilerace::testing::eventually(
      [&] {
        list = json::parse(viewer.get("suspicion").body);
        return list.size() == 2u;
      },
      10s))
      << list.dump();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["game"], assisted) << list.dump();
  EXPECT_EQ(list[1]["game"], greedy);
  EXPECT_EQ(list[0]["player"]["name"], "hal-s");
  EXPECT_GT(list[0]["match_rate"].get<double>(), list[1]["match_rate"].get<double>());
  EXPECT_GT(list[0]["sampled"].get<int>(), 0);
}

// Two nodes on one database and one Redis: a ban made on one closes the player's connection on
// the other, and every node's boards leave them out until the unban.
class ModerationCluster : public Cluster {};

TEST_F(ModerationCluster, ABanReachesEveryNode) {
  TempDir dir;
  const std::string file = token_file(dir);
  auto a = node("a", {"--admin-token-file", file});
  auto b = node("b", {"--admin-token-file", file});
  Racer ann(b->port(), "ann-c"), bob(a->port(), "bob-c");
  scored_game(ann);
  scored_game(bob);
  // Ann plays on b; the operator bans her for an hour on a: b's connection is told the ban as
  // stored, reason and end.
  const std::set<std::string> both{ann.id, bob.id};
  ASSERT_EQ(on_board(a->port()), both);
  const std::int64_t until = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() +
                             3'600'000;
  // Made and signed in on a, the operator's session holds on b too (the store's).
  const Operator on_a = Operator::signed_in(a->port(), "mo", "moderator");
  const Operator on_b{b->port(), on_a.token};
  EXPECT_EQ(on_a.post("ban", {{"player", ann.id}, {"reason", "cheating"}, {"until", until}}).first,
            200);
  const json banned = ann.ws.until("error", 5s);
  EXPECT_EQ(banned["code"], "banned");
  EXPECT_EQ(banned["reason"], "cheating");
  EXPECT_EQ(banned["until"], until);
  EXPECT_EQ(ann.ws.wait_closed(5s), 4003);
  for (const std::string period : {"", "day", "week"}) {
    EXPECT_EQ(on_board(a->port(), period), std::set<std::string>{bob.id}) << period;
    EXPECT_EQ(on_board(b->port(), period), std::set<std::string>{bob.id}) << period;
  }
  WsClient again(b->port());
  EXPECT_EQ(again.request({{"type", "hello"}, {"token", ann.token}})["code"], "banned");
  EXPECT_EQ(on_b.post("unban", {{"player", ann.id}}).first, 200);
  for (const std::string period : {"", "day", "week"}) {
    EXPECT_EQ(on_board(a->port(), period), both) << period;
    EXPECT_EQ(on_board(b->port(), period), both) << period;
  }
  EXPECT_EQ(a->log().find(kToken), std::string::npos) << "the token is never logged";
  EXPECT_EQ(b->log().find(kToken), std::string::npos);
  // The log is the store's: every node reads the same.
  const json log = json::parse(on_a.get("audit").body);
  EXPECT_EQ(log, json::parse(on_b.get("audit").body));
  ASSERT_GE(log.size(), 2u);
  EXPECT_EQ(log[0]["action"], "unban");
  EXPECT_EQ(log[0]["actor"], "mo");
  EXPECT_EQ(log[1]["action"], "ban");
  EXPECT_EQ(log[1]["target_name"], "ann-c");
}

}  // namespace
}  // namespace tilerace::e2e
