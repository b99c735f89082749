// Sessions: hello, tokens, resume, replacement, errors before hello.
#include <gtest/gtest.h>

#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {
namespace {

TEST(Session, MessagesBeforeHelloAreRefusedAndHelloOnlyOnce) {
  ServerProcess server;
  WsClient client(server.port());
  EXPECT_EQ(
      client.request({{"type", "ping"}, {"rid", "p"}}),
      (json{
          {"type", "error"}, {"code", "not_hello"}, {"message", "say hello first"}, {"rid", "p"}}));
  EXPECT_EQ(client.request({{"type", "new_game"}})["code"], "not_hello");
  EXPECT_EQ(client.request({{"type", "hello"}, {"name", ""}})["field"], "name");  // may retry
  const json welcome = client.request({{"type", "hello"}, {"name", " ann "}, {"rid", 1}});
  EXPECT_EQ(welcome["type"], "welcome");
  EXPECT_EQ(welcome["player"]["name"], "ann");
  EXPECT_EQ(welcome["resumed"], false);
  EXPECT_EQ(welcome["protocol"], 1);
  EXPECT_EQ(welcome["rid"], 1);
  EXPECT_GE(welcome["token"].get<std::string>().size(), 32u);  // ≥ 128 bits
  EXPECT_EQ(client.request({{"type", "hello"}, {"name", "ann"}})["code"], "already_hello");
  EXPECT_EQ(client.request({{"type", "ping"}})["type"], "pong");
}

TEST(Session, WrongTokenNeverCreatesAPlayerAndHelloCanBeRetried) {
  ServerProcess server;
  WsClient owner(server.port());
  const std::string token = owner.hello("owner")["token"];
  WsClient client(server.port());
  std::string forged = token;
  forged.back() = forged.back() == '0' ? '1' : '0';
  for (const std::string& bad : {forged, std::string("nobody.abcdef"), std::string("no-dot"),
                                 std::string(".x"), std::string("x.")}) {
    const json r = client.request({{"type", "hello"}, {"name", "x"}, {"token", bad}});
    EXPECT_EQ(r["code"], "bad_token") << bad;
  }
  EXPECT_EQ(server.metric("tilerace_players"), 1);
  EXPECT_EQ(client.hello("fresh")["type"], "welcome");
  EXPECT_EQ(owner.request({{"type", "ping"}})["type"], "pong");  // the owner was not disturbed
}

TEST(Session, ResumeWithTokenAfterADisconnectKeepsTheGame) {
  ServerProcess server;
  std::string token, id;
  json last;
  {
    WsClient client(server.port());
    const json welcome = client.hello("carol");
    token = welcome["token"];
    id = welcome["player"]["id"];
    client.request({{"type", "new_game"}, {"size", 4}});
    for (const char* d : {"left", "up", "right", "down", "left"}) {
      last = client.request({{"type", "move"}, {"dir", d}});
    }
  }  // the socket closes here without a close frame
  WsClient again(server.port());
  const json welcome = again.request({{"type", "hello"}, {"name", "other"}, {"token", token}});
  EXPECT_EQ(welcome["resumed"], true);
  EXPECT_EQ(welcome["player"]["id"], id);
  EXPECT_EQ(welcome["player"]["name"], "carol");  // the stored identity
  EXPECT_EQ(welcome["token"], token);
  const json game = again.expect("game");
  EXPECT_EQ(game["game"]["board"], last["board"]);
  EXPECT_EQ(game["game"]["moves"], last["moves"]);
  EXPECT_EQ(game["game"]["score"], last["score"]);
  // and play goes on from there, with at_move making the retry safe
  const json moved =
      again.request({{"type", "move"}, {"dir", "up"}, {"at_move", last["moves"].get<int>()}});
  EXPECT_EQ(moved["type"], "moved");
}

TEST(Session, ASecondConnectionReplacesTheFirstWith4000) {
  ServerProcess server;
  WsClient first(server.port());
  const std::string token = first.hello("dana")["token"];
  WsClient second(server.port());
  EXPECT_EQ(second.request({{"type", "hello"}, {"name", "dana"}, {"token", token}})["resumed"],
            true);
  EXPECT_EQ(first.wait_closed(), 4000);
  // The old socket's late close did not evict the new connection.
  EXPECT_EQ(second.request({{"type", "ping"}})["type"], "pong");
  EXPECT_EQ(second.request({{"type", "new_game"}})["type"], "game");
  EXPECT_TRUE(server.wait_for_metric("tilerace_connections", 1));
  EXPECT_EQ(server.metric("tilerace_connections"), 1);
  EXPECT_EQ(server.metric("tilerace_players"), 1);
  // A third connection with the same token replaces the second in turn.
  WsClient third(server.port());
  EXPECT_EQ(third.request({{"type", "hello"}, {"name", "dana"}, {"token", token}})["resumed"],
            true);
  third.expect("game");
  EXPECT_EQ(second.wait_closed(), 4000);
}

}  // namespace
}  // namespace tilerace::e2e
