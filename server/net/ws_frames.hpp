#pragma once
// WebSocket frames (RFC 6455) on the server's side of an upgraded connection: a reader that
// decodes the frames in a receive buffer where they lie (unmasking them there), and the header
// of a frame the server sends. Pure: no I/O, no Asio. Beast does the HTTP upgrade; the session
// carries its messages with these (docs/performance.md, "Against the Bun peer").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "protocol/utf8.hpp"

namespace tilerace::server {

enum class WsOp : std::uint8_t { text = 0x1, close = 0x8, ping = 0x9, pong = 0xA };

struct WsEvent {
  enum class Kind {
    text,    // a whole text message, valid UTF-8
    binary,  // a whole binary message (the protocol has none)
    ping,
    pong,
    close,  // the peer's close: code (0 when it gave none) and reason in payload
    fail,   // the peer broke the protocol: close with code, read nothing more
  };
  Kind kind;
  // Valid until the next call to next() or until data changes; for a fail, what was wrong.
  std::string_view payload;
  std::uint16_t code = 0;
};

// A frame's header as read (RFC 6455 §5.2): the final bit, the opcode, the header's length
// (the mask not counted) and the payload's.
struct FrameHeader {
  bool fin = false;
  std::uint8_t op = 0;
  std::size_t length = 2;
  std::uint64_t size = 0;
};

class WsFrameReader {
 public:
  // The reason a fail gives for a 64-bit length with its top bit set (RFC 6455 §5.2). Beast
  // refuses such a frame as too big (1009), having checked its size first; the differential
  // fuzzer (fuzz/ws_frames_fuzz.cpp) forgives it that.
  static constexpr std::string_view kOver63Bits = "a frame length over 63 bits";
  // The reason a fail gives for a close whose reason is not UTF-8: 1007 (RFC 6455 §7.4.1,
  // §8.1), where Beast sends 1002; Autobahn's 7.5.1 takes either.
  static constexpr std::string_view kBadCloseReason = "a close reason that is not UTF-8";

  // Lengths must be in their shortest form (RFC 6455 §5.2; refused with 1002, as Beast does).
  // Messages longer than max_message bytes (in one frame or in fragments) fail with 1009 as
  // soon as a frame header announces them.
  explicit WsFrameReader(std::size_t max_message) : max_message_(max_message) {}

  // Reads frames from the front of data (unmasking their payloads in place) up to the next
  // event; consumed says how many bytes it used, also when it returns nullopt for want of a
  // whole frame. Text is checked as it arrives, fragment by fragment and within a frame not
  // yet whole, so bad UTF-8 fails (1007) at the first piece that proves it. Requires that the
  // next call's data begins with the bytes this call did not consume, as they were (a partial
  // frame is read, never changed, until it is whole). After a fail it must not be called again.
  std::optional<WsEvent> next(std::span<char> data, std::size_t& consumed);

 private:
  // A fail if a frame of h may not come now (a bad control frame, a data frame out of order, a
  // message over the limit).
  std::optional<WsEvent> check_order(const FrameHeader& h) const;
  // A data frame of h, its payload body unmasked, unchecked the part of its text not yet
  // checked (empty for binary): the message it completes, a fail, or nullopt for more.
  std::optional<WsEvent> data_frame(const FrameHeader& h, std::string_view body,
                                    std::string_view unchecked);
  // Checks the text of payload[from, to), still masked with mask (from: its offset in the
  // frame), without changing it.
  bool check_masked(const char* payload, const char* mask, std::size_t from, std::size_t to);

  std::size_t max_message_;
  bool in_message_ = false;       // a fragmented message has begun and not ended
  bool binary_ = false;           // it is binary
  std::string fragments_;         // its payload so far
  protocol::Utf8Validator utf8_;  // the text message being read, as far as it is checked
  std::size_t checked_ = 0;       // payload bytes of the frame at the front already checked
};

// The header of an unmasked final frame of op carrying size bytes, written to out (at least
// kMaxWsHeader bytes); returns its length.
inline constexpr std::size_t kMaxWsHeader = 10;
std::size_t ws_frame_header(WsOp op, std::size_t size, char* out) noexcept;

}  // namespace tilerace::server
