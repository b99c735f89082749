// Limits at the edge and shutdown: every abuser is closed with the right code, and nobody
// else is disturbed.
#include <gtest/gtest.h>
#include <signal.h>

#include <memory>
#include <optional>
#include <thread>

#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {
namespace {

TEST(Limits, OversizeMessageCloses1009AndOthersPlayOn) {
  ServerProcess server;
  WsClient bystander(server.port());
  bystander.hello("bystander");
  WsClient big(server.port());
  big.send_text(R"({"type":"ping","pad":")" + std::string(5000, 'x') + "\"}");
  EXPECT_EQ(big.wait_closed(), 1009);
  EXPECT_EQ(bystander.request({{"type", "ping"}})["type"], "pong");
}

TEST(Limits, MaxMessageIsConfigurable) {
  ServerProcess server({"--max-message", "10000"});
  WsClient client(server.port());
  const json r = client.request({{"type", "ping"}, {"pad", std::string(8000, 'x')}, {"rid", 1}});
  EXPECT_EQ(r["code"], "not_hello");  // read and answered, not closed
}

TEST(Limits, ASilentConnectionIsPingedAndOneThatNeverAnswersIsClosed) {
  // --keepalive 1: pinged after 1 s of silence, closed after 2 s.
  ServerProcess server({"--keepalive", "1"});
  WsClient answering(server.port());
  answering.hello("answers");
  const std::string code = answering.request({{"type", "create_room"}})["room"]["code"];
  WsClient deaf(server.port());
  deaf.hello("deaf");
  // From here both are silent. The answering client keeps reading (its WebSocket answers
  // pings by itself); the deaf one reads nothing, so it never answers its ping.
  std::optional<json> woke;
  std::thread reader([&] { woke = answering.next(15s); });
  EXPECT_TRUE(server.wait_for_metric("tilerace_silent_closes_total", 1, 5s));
  // Pinged again and again (one ping went to the deaf client): answering has been silent
  // for well past the 2 s that closed the deaf one.
  EXPECT_TRUE(server.wait_for_metric("tilerace_keepalive_pings_total", 4, 5s));
  WsClient joiner(server.port());
  joiner.hello("joiner");
  EXPECT_EQ(joiner.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  reader.join();
  ASSERT_TRUE(woke.has_value());  // it was still there to hear of the joiner
  EXPECT_EQ((*woke)["type"], "room");
  EXPECT_EQ(server.metric("tilerace_silent_closes_total"), 1);
  deaf.wait_closed(2s);
  EXPECT_TRUE(deaf.closed());
}

TEST(Limits, BinaryFrameCloses1003) {
  ServerProcess server;
  WsClient client(server.port());
  client.hello("bin");
  client.send_binary("\x01\x02\x03");
  EXPECT_EQ(client.wait_closed(), 1003);
}

TEST(Limits, InvalidUtf8TextCloses1007) {
  ServerProcess server;
  WsClient client(server.port());
  client.send_text("{\"type\":\"hello\",\"name\":\"\xff\xfe\"}");
  EXPECT_EQ(client.wait_closed(), 1007);
}

TEST(Limits, AFloodGetsAFewRateLimitedRepliesThenIsClosed1008) {
  ServerProcess server({"--rate", "20"});
  WsClient bystander(server.port());
  bystander.hello("calm");
  WsClient flood(server.port());
  flood.hello("flood");
  // Pings as fast as the socket takes them, reading nothing, until the server closes (or 8 s).
  // Every 100 ms of it the bystander asks for a pong (within its own rate) and gets it.
  const auto started = std::chrono::steady_clock::now();
  auto asked = started;
  int sent = 0, bystander_pongs = 0, bystander_asks = 0;
  try {
    while (std::chrono::steady_clock::now() - started < 8s) {
      flood.send({{"type", "ping"}, {"rid", sent++}});
      if (std::chrono::steady_clock::now() - asked >= 100ms) {
        asked = std::chrono::steady_clock::now();
        ++bystander_asks;
        bystander_pongs += bystander.request({{"type", "ping"}}, 2s)["type"] == "pong";
      }
    }
  } catch (const std::exception&) {
    // the server closed the connection: writing failed
  }
  int pongs = 0, limited = 0;
  while (const auto reply = flood.next(10s)) {
    if ((*reply)["type"] == "pong") ++pongs;
    if ((*reply)["type"] == "error") {
      EXPECT_EQ((*reply)["code"], "rate_limited");
      ++limited;
    }
  }
  EXPECT_EQ(flood.close_code(), 1008);
  EXPECT_GT(sent, 1000);
  EXPECT_GE(pongs, 40);   // the burst of 2 × rate was served
  EXPECT_LE(pongs, 200);  // and then no more than the rate: 40 + 20/s over ≤ 8 s
  EXPECT_GT(limited, 0);
  EXPECT_LE(limited, 30);         // one rate_limited per 250 ms at most: ~5 s over the limit
  EXPECT_GE(bystander_asks, 40);  // the flood lasted ~5 s
  EXPECT_EQ(bystander_pongs, bystander_asks);
  EXPECT_EQ(bystander.request({{"type", "ping"}})["type"], "pong");
}

TEST(Limits, AClientThatDoesNotReadIsCutOff1013WhileAnotherPlaysOn) {
  ServerProcess server({"--rate", "100000"});
  WsClient player(server.port());
  player.hello("player");
  player.request({{"type", "new_game"}});
  WsClient slow(server.port(), 4096);
  slow.hello("slow");
  // Each new_game of size 8 is answered with a ~450-byte snapshot that this client never
  // reads. The honest player keeps playing throughout, and is never held up.
  int sent = 0, honest = 0;
  while (sent < 200000) {
    slow.send({{"type", "new_game"}, {"size", 8}});
    if (++sent % 500 != 0) continue;
    json m = player.request({{"type", "move"}, {"dir", honest++ % 2 ? "left" : "right"}});
    // The slow client's messages pile up in kernel buffers faster than the server answers
    // them, so this can take a hundred moves or more: a game that ends is replaced.
    if (m.value("code", "") == "game_over") m = player.request({{"type", "new_game"}});
    ASSERT_TRUE(m["type"] == "moved" || m["type"] == "game")
        << m << " after " << honest << " moves";
    if (server.metric("tilerace_send_queue_overflows_total") >= 1) break;
  }
  ASSERT_TRUE(server.wait_for_metric("tilerace_send_queue_overflows_total", 1));
  EXPECT_GT(honest, 0);
  // Reading again, the slow client finds what was in flight and then the close.
  EXPECT_EQ(slow.wait_closed(20s), 1013);
}

TEST(Limits, SigtermSendsShutdownCloses1001AndExitsZero) {
  ServerProcess server;
  WsClient a(server.port());
  a.hello("a");
  a.request({{"type", "new_game"}});
  a.request({{"type", "move"}, {"dir", "left"}});
  WsClient b(server.port());
  b.hello("b");
  const auto started = std::chrono::steady_clock::now();
  ::kill(server.pid(), SIGTERM);
  EXPECT_EQ(a.expect("shutdown")["type"], "shutdown");
  EXPECT_EQ(a.wait_closed(), 1001);
  EXPECT_EQ(b.expect("shutdown")["type"], "shutdown");
  EXPECT_EQ(b.wait_closed(), 1001);
  EXPECT_EQ(server.stop(SIGTERM, 10s), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
}

TEST(Limits, OversizedUpgradeHeadersAreRefused) {
  ServerProcess server;
  const HttpResult r =
      http_request(server.port(), "/healthz", "GET", {{"X-Pad", std::string(9000, 'h')}});
  EXPECT_NE(r.status, 200);
  EXPECT_EQ(http_request(server.port(), "/healthz").status, 200);  // the server is fine
}

TEST(Limits, ConnectionsPerAddressAreCappedWith429AndFreedOnClose) {
  ServerProcess server({"--max-connections-per-ip", "3"});
  std::vector<std::unique_ptr<WsClient>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<WsClient>(server.port()));
    held.back()->hello("held" + std::to_string(i));
  }
  EXPECT_EQ(http_request(server.port(), "/healthz").status, 429);
  EXPECT_THROW(WsClient extra(server.port()), std::exception);
  EXPECT_EQ(held[0]->request({{"type", "ping"}})["type"], "pong");  // the others play on

  int refused = 2;  // the /healthz and the WebSocket above
  // Closing one gives its slot back once the server has seen the close: until then every
  // request is refused too (and counted).
  const auto wait_for_a_slot = [&] {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    int status = 0;
    while (status != 200 && std::chrono::steady_clock::now() < deadline) {
      status = http_request(server.port(), "/healthz").status;
      refused += status == 429;
    }
    return status;
  };
  held.pop_back();
  EXPECT_EQ(wait_for_a_slot(), 200);
  held.pop_back();
  EXPECT_EQ(wait_for_a_slot(), 200);
  // Read once a request gets through: the last closes may still be on their way (a refused
  // read is counted too).
  std::optional<double> counted;
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!counted && std::chrono::steady_clock::now() < deadline) {
    const HttpResult r = http_request(server.port(), "/metrics");
    if (r.status == 429) {
      ++refused;
    } else {
      counted = metric_value(r.body, "tilerace_connections_refused_total");
    }
  }
  EXPECT_EQ(counted, refused);
}

// Behind a proxy of ours (--trusted-proxy) every player comes from the proxy's address: the
// per-address limit counts the client each request's X-Forwarded-For names instead. From any
// other peer the header changes nothing.
TEST(Limits, BehindATrustedProxyEachClientIsCountedByTheAddressItForwards) {
  ServerProcess server({"--trusted-proxy", "127.0.0.1", "--max-connections-per-ip", "2"});
  const auto from = [](const char* client) {
    return std::vector<std::pair<std::string, std::string>>{{"X-Forwarded-For", client}};
  };
  WsClient a(server.port(), std::nullopt, "/ws", from("203.0.113.9"));
  WsClient b(server.port(), std::nullopt, "/ws", from("203.0.113.9"));
  EXPECT_EQ(a.hello("ann")["type"], "welcome");
  EXPECT_EQ(b.hello("bea")["type"], "welcome");
  EXPECT_THROW(WsClient third(server.port(), std::nullopt, "/ws", from("203.0.113.9")),
               std::exception);
  WsClient other(server.port(), std::nullopt, "/ws", from("203.0.113.10"));
  EXPECT_EQ(other.hello("cid")["type"], "welcome");
  EXPECT_TRUE(server.wait_for_log("203.0.113.10 via 127.0.0.1:"));
  EXPECT_TRUE(server.wait_for_metric("tilerace_connections_refused_total", 1));
  EXPECT_EQ(a.request({{"type", "ping"}})["type"], "pong");  // the others play on

  ServerProcess untrusting({"--max-connections-per-ip", "2"});
  WsClient c(untrusting.port(), std::nullopt, "/ws", from("203.0.113.1"));
  WsClient d(untrusting.port(), std::nullopt, "/ws", from("203.0.113.2"));
  EXPECT_THROW(WsClient e(untrusting.port(), std::nullopt, "/ws", from("203.0.113.3")),
               std::exception);
  EXPECT_EQ(d.hello("dan")["type"], "welcome");  // logged as connected before it was welcomed
  EXPECT_EQ(untrusting.log().find("203.0.113"), std::string::npos);
}

TEST(Limits, RoomsCreatedPerAddressPerMinuteAreCapped) {
  ServerProcess server({"--rooms-per-ip", "2"});
  WsClient a(server.port());
  a.hello("a");
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(a.request({{"type", "create_room"}})["type"], "room");
    EXPECT_EQ(a.request({{"type", "leave_room"}})["type"], "left");
  }
  const json refused = a.request({{"type", "create_room"}, {"rid", 7}});
  EXPECT_EQ(refused["code"], "rate_limited");
  EXPECT_EQ(refused["rid"], 7);
  // The quota is the address's, not the connection's; joining is not limited.
  WsClient b(server.port());
  b.hello("b");
  EXPECT_EQ(b.request({{"type", "create_room"}})["code"], "rate_limited");
  EXPECT_EQ(a.request({{"type", "ping"}})["type"], "pong");
}

}  // namespace
}  // namespace tilerace::e2e
