#include "server/net/ws_frames.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tilerace::server {
namespace {

// A client frame: masked with a fixed key, as RFC 6455 requires of clients.
std::string client_frame(std::uint8_t first, const std::string& payload) {
  std::string f(1, static_cast<char>(first));
  const char key[4] = {0x12, 0x34, 0x56, 0x78};
  if (payload.size() < 126) {
    f += static_cast<char>(0x80 | payload.size());
  } else {
    f += static_cast<char>(0x80 | 126);
    f += static_cast<char>(payload.size() >> 8);
    f += static_cast<char>(payload.size() & 0xFF);
  }
  f.append(key, 4);
  for (std::size_t i = 0; i < payload.size(); ++i) f += static_cast<char>(payload[i] ^ key[i & 3]);
  return f;
}

// Every event the reader finds in bytes, fed in pieces of `step` bytes as a socket might
// deliver them; kinds and payloads.
std::vector<std::pair<WsEvent::Kind, std::string>> events(const std::string& bytes,
                                                          std::size_t step,
                                                          std::size_t max = 4096) {
  WsFrameReader reader(max);
  std::vector<std::pair<WsEvent::Kind, std::string>> out;
  std::string buffer;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    buffer += bytes.substr(at, step);
    for (;;) {
      std::size_t used = 0;
      const auto e = reader.next(std::span<char>(buffer.data(), buffer.size()), used);
      const std::string payload = e ? std::string(e->payload) : "";
      buffer.erase(0, used);
      if (!e) break;
      // A close shows its code and reason, a failure its code, the rest their payload.
      out.emplace_back(e->kind, e->kind == WsEvent::Kind::fail ? std::to_string(e->code)
                                : e->kind == WsEvent::Kind::close
                                    ? std::to_string(e->code) + payload
                                    : payload);
      if (e->kind == WsEvent::Kind::fail) return out;
    }
  }
  return out;
}

using Kind = WsEvent::Kind;

TEST(WsFrames, MessagesAndControlFramesArriveWholeHoweverTheBytesAreCut) {
  const std::string bytes = client_frame(0x81, R"({"type":"move","dir":"left"})") +
                            client_frame(0x01, "frag") + client_frame(0x89, "p") +
                            client_frame(0x80, "mented") +
                            client_frame(0x81, std::string(300, 'x')) +
                            client_frame(0x88, std::string("\x03\xe8", 2) + "bye");
  const std::vector<std::pair<Kind, std::string>> expected = {
      {Kind::text, R"({"type":"move","dir":"left"})"},
      {Kind::ping, "p"},
      {Kind::text, "fragmented"},
      {Kind::text, std::string(300, 'x')},
      {Kind::close, "1000bye"}};
  for (const std::size_t step : {bytes.size(), std::size_t{1}, std::size_t{7}}) {
    EXPECT_EQ(events(bytes, step), expected) << "in pieces of " << step;
  }
}

TEST(WsFrames, ViolationsFailWithTheirCloseCode) {
  const auto fails_with = [](const std::string& bytes, std::size_t max = 4096) {
    const auto e = events(bytes, bytes.size(), max);
    return !e.empty() && e.back().first == Kind::fail ? e.back().second : "no failure";
  };
  std::string unmasked = client_frame(0x81, "hi");
  unmasked[1] = static_cast<char>(unmasked[1] & 0x7F);
  EXPECT_EQ(fails_with(unmasked), "1002");
  EXPECT_EQ(fails_with(client_frame(0xC1, "hi")), "1002");                   // RSV1
  EXPECT_EQ(fails_with(client_frame(0x83, "hi")), "1002");                   // opcode 3
  EXPECT_EQ(fails_with(client_frame(0x09, "hi")), "1002");                   // fragmented ping
  EXPECT_EQ(fails_with(client_frame(0x89, std::string(126, 'p'))), "1002");  // long ping
  EXPECT_EQ(fails_with(client_frame(0x80, "hi")), "1002");  // continuation, no start
  EXPECT_EQ(fails_with(client_frame(0x01, "a") + client_frame(0x81, "b")), "1002");
  EXPECT_EQ(fails_with(client_frame(0x88, "\x03")), "1002");  // a one-byte close
  EXPECT_EQ(fails_with(client_frame(0x88, std::string("\x03\xed", 2))), "1002");  // 1005
  EXPECT_EQ(fails_with(client_frame(0x81, "\xff")), "1007");
  EXPECT_EQ(fails_with(client_frame(0x01, "\xe2\x82") + client_frame(0x80, "\xff")), "1007");
  EXPECT_EQ(fails_with(client_frame(0x81, std::string(65, 'x')), 64), "1009");
  EXPECT_EQ(
      fails_with(
          client_frame(0x01, std::string(40, 'x')) + client_frame(0x80, std::string(40, 'x')), 64),
      "1009");
  // Announced too big: refused from the header alone, before the payload is there.
  EXPECT_EQ(fails_with(client_frame(0x81, std::string(300, 'x')).substr(0, 8), 64), "1009");
}

TEST(WsFrames, ServerHeadersCarryTheLengthInTheShortestForm) {
  char h[kMaxWsHeader];
  EXPECT_EQ(ws_frame_header(WsOp::text, 125, h), 2u);
  EXPECT_EQ(static_cast<unsigned char>(h[0]), 0x81);
  EXPECT_EQ(h[1], 125);
  EXPECT_EQ(ws_frame_header(WsOp::close, 126, h), 4u);
  EXPECT_EQ(static_cast<unsigned char>(h[0]), 0x88);
  EXPECT_EQ(std::string(h + 1, 3), std::string("\x7e\x00\x7e", 3));
  EXPECT_EQ(ws_frame_header(WsOp::pong, 65536, h), 10u);
  EXPECT_EQ(std::string(h + 1, 9), std::string("\x7f\0\0\0\0\0\x01\0\0", 9));
}

}  // namespace
}  // namespace tilerace::server
