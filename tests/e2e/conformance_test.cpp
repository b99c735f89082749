// WebSocket conformance (RFC 6455) with hand-built frames over a raw socket: protocol
// violations close with 1002, bad UTF-8 with 1007, too-big messages with 1009 before their
// payload is buffered; pings are answered with the same payload; fragments are reassembled.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tests/e2e/harness.hpp"
#include "tests/raw_ws.hpp"

namespace tilerace::e2e {
namespace {

using namespace tilerace::testing;

std::string close_payload(int code) {
  return {static_cast<char>(code >> 8), static_cast<char>(code & 0xFF)};
}

class Conformance : public ::testing::Test {
 protected:
  ServerProcess server;
};

TEST_F(Conformance, RsvBitsCloseWith1002) {
  RawWs ws(server.port());
  ws.send(kText, R"({"type":"ping"})", true, 0x4);  // RSV1 without a negotiated extension
  EXPECT_EQ(ws.close_code(), 1002);
}

TEST_F(Conformance, UnknownOpcodeClosesWith1002) {
  RawWs ws(server.port());
  ws.send(0x3, "x");
  EXPECT_EQ(ws.close_code(), 1002);
  RawWs ws2(server.port());
  ws2.send(0xB, "x");  // a reserved control opcode
  EXPECT_EQ(ws2.close_code(), 1002);
}

TEST_F(Conformance, FragmentedPingClosesWith1002) {
  RawWs ws(server.port());
  ws.send(kPing, "abc", false);
  EXPECT_EQ(ws.close_code(), 1002);
}

TEST_F(Conformance, OversizedPingClosesWith1002) {
  RawWs ws(server.port());
  ws.send(kPing, std::string(126, 'p'));  // control frames carry at most 125 bytes
  EXPECT_EQ(ws.close_code(), 1002);
}

TEST_F(Conformance, UnmaskedClientFrameClosesWith1002) {
  RawWs ws(server.port());
  ws.send(kText, R"({"type":"ping"})", true, 0, false);
  EXPECT_EQ(ws.close_code(), 1002);
}

TEST_F(Conformance, ContinuationWithoutAStartClosesWith1002) {
  RawWs ws(server.port());
  ws.send(kContinuation, "x");
  EXPECT_EQ(ws.close_code(), 1002);
}

TEST_F(Conformance, InvalidUtf8TextClosesWith1007) {
  RawWs ws(server.port());
  ws.send(kText, "{\"type\":\"ping\",\"x\":\"\xc3\x28\"}");
  EXPECT_EQ(ws.close_code(), 1007);
}

TEST_F(Conformance, InvalidUtf8SplitAcrossFragmentsClosesWith1007) {
  RawWs ws(server.port());
  ws.send(kText, "{\"x\":\"\xe2\x82", false);
  ws.send(kContinuation, "\x28\"}");  // E2 82 28: a broken three-byte sequence
  EXPECT_EQ(ws.close_code(), 1007);
}

TEST_F(Conformance, InvalidCloseCodesCloseWith1002) {
  // The codes Autobahn's cases 7.9.x send. (Codes from 5000 up, which RFC 6455 leaves
  // undefined and Autobahn grades informational, are echoed by Beast like 4000–4999.)
  for (int code : {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999}) {
    RawWs ws(server.port());
    ws.send(kClose, close_payload(code));
    EXPECT_EQ(ws.close_code(), 1002) << code;
  }
  RawWs one_byte(server.port());
  one_byte.send(kClose, "\x03");  // a close payload of one byte
  EXPECT_EQ(one_byte.close_code(), 1002);
}

TEST_F(Conformance, ValidCloseIsEchoed) {
  for (int code : {1000, 1001, 3000, 4999}) {
    RawWs ws(server.port());
    ws.send(kClose, close_payload(code) + "bye");
    EXPECT_EQ(ws.close_code(), code);
  }
}

TEST_F(Conformance, PingIsAnsweredWithAPongCarryingTheSamePayload) {
  RawWs ws(server.port());
  const std::string payload = "tilerace \x01\x02 ping";
  ws.send(kPing, payload);
  const auto pong = ws.next();
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->opcode, kPong);
  EXPECT_EQ(pong->payload, payload);
  ws.send(kPing, "");
  const auto empty = ws.next();
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->opcode, kPong);
  EXPECT_EQ(empty->payload, "");
}

TEST_F(Conformance, FragmentedTextIsReassembledWithControlFramesBetween) {
  RawWs ws(server.port());
  ws.send(kText, R"({"type":)", false);
  ws.send(kPing, "mid");  // control frames may come between fragments
  ws.send(kContinuation, R"("ping",)", false);
  ws.send(kContinuation, R"("rid":5})");
  const auto pong = ws.next();
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->opcode, kPong);
  EXPECT_EQ(pong->payload, "mid");
  const auto reply = ws.next();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->opcode, kText);
  const json j = json::parse(reply->payload);
  EXPECT_EQ(j["type"], "error");  // ping before hello: the message was read whole
  EXPECT_EQ(j["code"], "not_hello");
  EXPECT_EQ(j["rid"], 5);
}

TEST_F(Conformance, FragmentsOverTheMessageLimitCloseWith1009) {
  RawWs ws(server.port());
  ws.send(kText, std::string(3000, ' '), false);
  ws.send(kContinuation, std::string(3000, ' '));  // 6,000 bytes > --max-message 4096
  EXPECT_EQ(ws.close_code(), 1009);
}

TEST_F(Conformance, AnAnnounced1MiBFrameClosesWith1009BeforeItsPayload) {
  RawWs ws(server.port());
  ws.send_header_only(kText, 1 << 20);  // and not one byte of the payload
  EXPECT_EQ(ws.close_code(2s), 1009);
}

TEST_F(Conformance, BinaryFrameClosesWith1003AndTheServerPlaysOn) {
  RawWs ws(server.port());
  ws.send(kBinary, "\x01\x02");
  EXPECT_EQ(ws.close_code(), 1003);
  WsClient other(server.port());
  EXPECT_EQ(other.hello("after")["type"], "welcome");
}

// The text of the next text frame (skipping control frames), or "" at the deadline.
json next_text(RawWs& ws) {
  while (auto f = ws.next()) {
    if (f->opcode == kText) return json::parse(f->payload);
  }
  return json{};
}

TEST(ConformanceOneThread, AFrameTricklingInByteByByteStaysWholeWhileAnotherConnectionReads) {
  // One network thread: both connections read through the same receive buffer.
  ServerProcess server({"--threads", "1"});
  RawWs slow(server.port());
  RawWs quick(server.port());
  for (int rid = 1; rid <= 3; ++rid) {
    const std::string f =
        RawWs::frame(kText, R"({"type":"ping","rid":)" + std::to_string(rid) + "}");
    for (std::size_t i = 0; i < f.size(); ++i) {
      slow.send_bytes(f.substr(i, 1));
      // The other connection's whole frame is read and answered between two of its bytes.
      const int other = 100 * rid + static_cast<int>(i);
      quick.send(kText, R"({"type":"ping","rid":)" + std::to_string(other) + "}");
      const json reply = next_text(quick);
      ASSERT_EQ(reply.value("rid", -1), other) << reply;
      ASSERT_EQ(reply.value("code", ""), "not_hello") << reply;
    }
    const json reply = next_text(slow);
    EXPECT_EQ(reply.value("rid", -1), rid) << reply;
    EXPECT_EQ(reply.value("code", ""), "not_hello") << reply;
  }
}

TEST(ConformanceOneThread, FramesBehindOneThatWaitsForStorageAreAnsweredInOrder) {
  ServerProcess server({"--threads", "1"});
  RawWs ws(server.port());
  RawWs other(server.port());
  // One write: a hello (its handling waits for the store), then pings behind it, the last one
  // cut short; the other connection reads while they wait.
  std::string bytes = RawWs::frame(kText, R"({"type":"hello","name":"waiter","rid":1})");
  for (int rid = 2; rid <= 5; ++rid) {
    bytes += RawWs::frame(kText, R"({"type":"ping","rid":)" + std::to_string(rid) + "}");
  }
  const std::string last = RawWs::frame(kText, R"({"type":"ping","rid":6})");
  ws.send_bytes(bytes + last.substr(0, 5));
  other.send(kText, R"({"type":"ping","rid":99})");
  EXPECT_EQ(next_text(other).value("rid", -1), 99);
  ws.send_bytes(last.substr(5));
  const json welcome = next_text(ws);
  EXPECT_EQ(welcome.value("type", ""), "welcome") << welcome;
  EXPECT_EQ(welcome.value("rid", -1), 1) << welcome;
  for (int rid = 2; rid <= 6; ++rid) {
    const json pong = next_text(ws);
    EXPECT_EQ(pong.value("type", ""), "pong") << pong;
    EXPECT_EQ(pong.value("rid", -1), rid) << pong;
  }
}

}  // namespace
}  // namespace tilerace::e2e
