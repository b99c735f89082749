// WebSocket conformance (RFC 6455) with hand-built frames over a raw socket: protocol
// violations close with 1002, bad UTF-8 with 1007, too-big messages with 1009 before their
// payload is buffered; pings are answered with the same payload; fragments are reassembled.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <optional>
#include <string>

#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {
namespace {

constexpr std::uint8_t kContinuation = 0x0, kText = 0x1, kBinary = 0x2, kClose = 0x8, kPing = 0x9,
                       kPong = 0xA;

struct Frame {
  bool fin = true;
  std::uint8_t opcode = 0;
  std::string payload;
};

// A WebSocket client that writes frames byte by byte as a test builds them.
class RawWs {
 public:
  explicit RawWs(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      throw std::runtime_error("connect failed");
    }
    write_all(
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    while (buffer_.find("\r\n\r\n") == std::string::npos) {
      if (!fill(5s)) throw std::runtime_error("no upgrade response");
    }
    const auto end = buffer_.find("\r\n\r\n") + 4;
    if (buffer_.rfind("HTTP/1.1 101", 0) != 0) throw std::runtime_error("upgrade refused");
    buffer_.erase(0, end);
  }
  ~RawWs() { ::close(fd_); }

  // Sends one frame; the header bits are taken as given (rsv: the three RSV bits),
  // and the payload is masked as a client must unless masked is false.
  void send(std::uint8_t opcode, std::string_view payload, bool fin = true, std::uint8_t rsv = 0,
            bool masked = true) {
    send_bytes(frame(opcode, payload, fin, rsv, masked));
  }
  // Sends bytes as they are (frames built with frame, whole or in pieces).
  void send_bytes(std::string_view bytes) { write_all(bytes); }

  // The bytes of one frame, as send sends it.
  static std::string frame(std::uint8_t opcode, std::string_view payload, bool fin = true,
                           std::uint8_t rsv = 0, bool masked = true) {
    std::string f;
    f += static_cast<char>((fin ? 0x80 : 0) | (rsv << 4) | opcode);
    const char mask_bit = masked ? '\x80' : '\0';
    if (payload.size() < 126) {
      f += static_cast<char>(mask_bit | static_cast<char>(payload.size()));
    } else if (payload.size() < 65536) {
      f += static_cast<char>(mask_bit | 126);
      f += static_cast<char>(payload.size() >> 8);
      f += static_cast<char>(payload.size() & 0xFF);
    } else {
      f += static_cast<char>(mask_bit | 127);
      for (int i = 7; i >= 0; --i) f += static_cast<char>((payload.size() >> (8 * i)) & 0xFF);
    }
    const char key[4] = {'\x12', '\x34', '\x56', '\x78'};
    if (masked) f.append(key, 4);
    for (std::size_t i = 0; i < payload.size(); ++i) {
      f += masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i];
    }
    return f;
  }

  // Only the header of a masked frame announcing `length` payload bytes.
  void send_header_only(std::uint8_t opcode, std::uint64_t length) {
    std::string f;
    f += static_cast<char>(0x80 | opcode);
    f += static_cast<char>(0x80 | 127);
    for (int i = 7; i >= 0; --i) f += static_cast<char>((length >> (8 * i)) & 0xFF);
    f.append("\x12\x34\x56\x78", 4);
    write_all(f);
  }

  // The next frame from the server, or nullopt at end of stream or deadline.
  std::optional<Frame> next(std::chrono::milliseconds deadline = 5s) {
    const auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
      if (auto f = parse()) return f;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !fill(left)) return std::nullopt;
    }
  }

  // Reads until the server's close frame; its status code (1005 when it carried none).
  std::optional<int> close_code(std::chrono::milliseconds deadline = 5s) {
    while (auto f = next(deadline)) {
      if (f->opcode != kClose) continue;
      if (f->payload.size() < 2) return 1005;
      return (static_cast<unsigned char>(f->payload[0]) << 8) |
             static_cast<unsigned char>(f->payload[1]);
    }
    return std::nullopt;
  }

 private:
  void write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may already have closed: the test reads why
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  bool fill(std::chrono::milliseconds deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(deadline.count())) <= 0) return false;
    char chunk[4096];
    const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  std::optional<Frame> parse() {
    if (buffer_.size() < 2) return std::nullopt;
    const auto b0 = static_cast<unsigned char>(buffer_[0]);
    const auto b1 = static_cast<unsigned char>(buffer_[1]);
    std::size_t header = 2;
    std::uint64_t length = b1 & 0x7F;
    if (length == 126) {
      if (buffer_.size() < 4) return std::nullopt;
      length =
          (static_cast<unsigned char>(buffer_[2]) << 8) | static_cast<unsigned char>(buffer_[3]);
      header = 4;
    } else if (length == 127) {
      if (buffer_.size() < 10) return std::nullopt;
      length = 0;
      for (int i = 0; i < 8; ++i)
        length = (length << 8) | static_cast<unsigned char>(buffer_[2 + i]);
      header = 10;
    }
    if (buffer_.size() < header + length) return std::nullopt;
    Frame f{(b0 & 0x80) != 0, static_cast<std::uint8_t>(b0 & 0x0F), buffer_.substr(header, length)};
    buffer_.erase(0, header + length);
    return f;
  }

  int fd_ = -1;
  std::string buffer_;
};

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
