#include "server/net/ws_frames.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "protocol/decode.hpp"

namespace tilerace::server {

namespace {

constexpr std::uint16_t kProtocolError = 1002;
constexpr std::uint16_t kBadData = 1007;
constexpr std::uint16_t kTooBig = 1009;
constexpr std::string_view kNotUtf8 = "text that is not UTF-8";
constexpr std::string_view kLongForm = "a length not in its shortest form";

WsEvent fail(std::uint16_t code, std::string_view why) { return {WsEvent::Kind::fail, why, code}; }

// The codes a peer may send in a close frame (RFC 6455 §7.4 and IANA's registry: 1012 and
// 1013 are in use; 1004–1006, 1014–2999 are not), as Beast judged them before.
bool valid_close_code(std::uint16_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1013) || code >= 3000;
}

std::uint8_t byte(const std::span<char> data, std::size_t i) {
  return static_cast<std::uint8_t>(data[i]);
}

// A close frame's event (RFC 6455 §5.5.1): none, or a valid code and a UTF-8 reason.
WsEvent close_event(std::string_view body) {
  if (body.size() == 1) return fail(kProtocolError, "a one-byte close frame");
  if (body.empty()) return WsEvent{WsEvent::Kind::close, {}, 0};
  const auto code = static_cast<std::uint16_t>((static_cast<std::uint8_t>(body[0]) << 8) |
                                               static_cast<std::uint8_t>(body[1]));
  if (!valid_close_code(code)) return fail(kProtocolError, "an invalid close code");
  const std::string_view reason = body.substr(2);
  if (!protocol::valid_utf8(reason)) return fail(kBadData, WsFrameReader::kBadCloseReason);
  return WsEvent{WsEvent::Kind::close, reason, code};
}

// The frame header (RFC 6455 §5.2) at the front of rest: nullopt while it has not all arrived,
// or when it breaks the rules (then refused has the fail).
std::optional<FrameHeader> read_header(std::span<char> rest, std::optional<WsEvent>& refused) {
  const auto refuse = [&refused](std::uint16_t code, std::string_view why) {
    refused = fail(code, why);
    return std::nullopt;
  };
  if (rest.size() < 2) return std::nullopt;
  const std::uint8_t b0 = byte(rest, 0), b1 = byte(rest, 1);
  FrameHeader h{(b0 & 0x80) != 0, static_cast<std::uint8_t>(b0 & 0x0F), 2, b1 & 0x7Fu};
  if ((b0 & 0x70) != 0) return refuse(kProtocolError, "a frame with reserved bits set");
  if ((b1 & 0x80) == 0) return refuse(kProtocolError, "an unmasked frame");
  if (h.size == 126) {
    if (rest.size() < 4) return std::nullopt;
    h.size = (std::uint64_t{byte(rest, 2)} << 8) | byte(rest, 3);
    if (h.size < 126) return refuse(kProtocolError, kLongForm);
    h.length = 4;
  } else if (h.size == 127) {
    if (rest.size() < 10) return std::nullopt;
    h.size = 0;
    for (std::size_t i = 2; i < 10; ++i) h.size = (h.size << 8) | byte(rest, i);
    if ((h.size >> 63) != 0) return refuse(kProtocolError, WsFrameReader::kOver63Bits);
    if (h.size <= 0xFFFF) return refuse(kProtocolError, kLongForm);
    h.length = 10;
  }
  return h;
}

}  // namespace

std::optional<WsEvent> WsFrameReader::next(std::span<char> data, std::size_t& consumed) {
  consumed = 0;
  for (;;) {
    const std::span<char> rest = data.subspan(consumed);
    std::optional<WsEvent> refused;
    const std::optional<FrameHeader> h = read_header(rest, refused);
    if (refused) return refused;
    if (!h) return std::nullopt;
    if (auto out_of_order = check_order(*h)) return out_of_order;
    // Text: a text frame, or a continuation of a text message.
    const bool text = h->op == 0x1 || (h->op == 0x0 && !binary_);
    if (h->op == 0x1 && checked_ == 0) utf8_ = {};  // a text message begins
    const std::size_t header = h->length;
    if (rest.size() - header < 4 + h->size) {
      // Not whole yet: what has arrived of its text is checked now (Autobahn 6.4.3-4).
      if (text && rest.size() >= header + 4) {
        const std::size_t have = std::min<std::size_t>(rest.size() - header - 4, h->size);
        if (!check_masked(rest.data() + header + 4, rest.data() + header, checked_, have))
          return fail(kBadData, kNotUtf8);
        checked_ = have;
      }
      return std::nullopt;
    }
    char* payload = rest.data() + header + 4;
    const char* mask = rest.data() + header;
    for (std::size_t i = 0; i < h->size; ++i) payload[i] ^= mask[i & 3];
    consumed += header + 4 + h->size;
    const std::string_view body(payload, h->size);
    const std::size_t checked = std::exchange(checked_, 0);
    switch (h->op) {
      case 0x9: return WsEvent{WsEvent::Kind::ping, body};
      case 0xA: return WsEvent{WsEvent::Kind::pong, body};
      case 0x8: return close_event(body);
      default: break;
    }
    if (auto event = data_frame(*h, body, text ? body.substr(checked) : std::string_view())) {
      return event;
    }
  }
}

std::optional<WsEvent> WsFrameReader::check_order(const FrameHeader& h) const {
  if ((h.op & 0x8) != 0) {  // a control frame
    if (!h.fin || h.size > 125 || h.op > 0xA) return fail(kProtocolError, "a bad control frame");
    return std::nullopt;
  }
  if (h.op > 0x2 || (h.op == 0) != in_message_) return fail(kProtocolError, "a frame out of order");
  if (h.size > max_message_ - (h.op == 0 ? fragments_.size() : 0))
    return fail(kTooBig, "a message over the limit");
  return std::nullopt;
}

std::optional<WsEvent> WsFrameReader::data_frame(const FrameHeader& h, std::string_view body,
                                                 std::string_view unchecked) {
  // A whole message, or a piece of one. Its text is checked as far as it was not already, and a
  // message must end on a whole character.
  if (!unchecked.empty() && !utf8_.feed(unchecked)) return fail(kBadData, kNotUtf8);
  if (h.op != 0) {
    binary_ = h.op == 0x2;
    if (!h.fin) {
      in_message_ = true;
      fragments_.assign(body);
      return std::nullopt;
    }
  } else {
    fragments_.append(body);
    if (!h.fin) return std::nullopt;
    in_message_ = false;
    body = fragments_;
  }
  if (binary_) return WsEvent{WsEvent::Kind::binary, body};
  if (!utf8_.complete()) return fail(kBadData, kNotUtf8);
  return WsEvent{WsEvent::Kind::text, body};
}

bool WsFrameReader::check_masked(const char* payload, const char* mask, std::size_t from,
                                 std::size_t to) {
  std::array<char, 256> plain;
  while (from < to) {
    const std::size_t n = std::min(plain.size(), to - from);
    for (std::size_t i = 0; i < n; ++i) plain[i] = payload[from + i] ^ mask[(from + i) & 3];
    if (!utf8_.feed({plain.data(), n})) return false;
    from += n;
  }
  return true;
}

std::size_t ws_frame_header(WsOp op, std::size_t size, char* out) noexcept {
  out[0] = static_cast<char>(0x80 | static_cast<std::uint8_t>(op));
  if (size < 126) {
    out[1] = static_cast<char>(size);
    return 2;
  }
  if (size <= 0xFFFF) {
    out[1] = 126;
    out[2] = static_cast<char>(size >> 8);
    out[3] = static_cast<char>(size & 0xFF);
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<char>((size >> (56 - 8 * i)) & 0xFF);
  return 10;
}

}  // namespace tilerace::server
