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
  // A length in a longer form than it needs (RFC 6455 §5.2: the shortest), as Beast refuses it.
  std::string long_form = client_frame(0x81, "hi");
  long_form.replace(1, 1, std::string("\xfe\x00\x02", 3));
  EXPECT_EQ(fails_with(long_form), "1002");
  std::string longest_form = client_frame(0x81, std::string(200, 'x'));
  longest_form.replace(1, 3, std::string("\xff\0\0\0\0\0\0\0\xc8", 9));
  EXPECT_EQ(fails_with(longest_form), "1002");
  // Announced too big: refused from the header alone, before the payload is there.
  EXPECT_EQ(fails_with(client_frame(0x81, std::string(300, 'x')).substr(0, 8), 64), "1009");
}

// Autobahn 6.4.1-4: bad UTF-8 fails at the fragment, or the piece of a frame, that proves it,
// while the rest of the message is still to come.
TEST(WsFrames, BadTextFailsAsSoonAsItArrivesNotWhenTheMessageEnds) {
  const std::string part1 = "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5";
  const std::string part2 = "\xf4\x90\x80\x80";
  // Fragments: the second fails before the third is sent.
  WsFrameReader reader(4096);
  std::string buffer = client_frame(0x01, part1);
  std::size_t used = 0;
  EXPECT_FALSE(reader.next(std::span<char>(buffer.data(), buffer.size()), used));
  EXPECT_EQ(used, buffer.size());
  buffer = client_frame(0x00, part2);
  const auto second = reader.next(std::span<char>(buffer.data(), buffer.size()), used);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->kind, Kind::fail);
  EXPECT_EQ(second->code, 1007);

  // One frame in chops: the chop with 0xF4 0x90 fails, though the frame is not whole.
  const std::string frame = client_frame(0x81, part1 + part2 + "edited");
  const std::size_t header = 6;
  WsFrameReader chopped(4096);
  std::string arrived = frame.substr(0, header + part1.size());
  EXPECT_FALSE(chopped.next(std::span<char>(arrived.data(), arrived.size()), used));
  EXPECT_EQ(used, 0u);
  arrived = frame.substr(0, header + part1.size() + 2);
  const auto chop = chopped.next(std::span<char>(arrived.data(), arrived.size()), used);
  ASSERT_TRUE(chop);
  EXPECT_EQ(chop->kind, Kind::fail);
  EXPECT_EQ(chop->code, 1007);

  // Good text read in chops is still whole and unchanged, however it is cut; a binary frame's
  // bytes are never read as text.
  const std::string good = part1 + "\xf4\x8f\xbf\xbf" + std::string(500, 'z');
  for (const std::size_t step : {std::size_t{1}, std::size_t{3}, std::size_t{64}}) {
    EXPECT_EQ(events(client_frame(0x81, good) + client_frame(0x01, good) +
                         client_frame(0x80, good) + client_frame(0x82, part2),
                     step),
              (std::vector<std::pair<Kind, std::string>>{
                  {Kind::text, good}, {Kind::text, good + good}, {Kind::binary, part2}}))
        << "in pieces of " << step;
  }
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
