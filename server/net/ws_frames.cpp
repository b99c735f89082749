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

}  // namespace

std::optional<WsEvent> WsFrameReader::next(std::span<char> data, std::size_t& consumed) {
  consumed = 0;
  for (;;) {
    const std::span<char> rest = data.subspan(consumed);
    if (rest.size() < 2) return std::nullopt;
    const std::uint8_t b0 = byte(rest, 0), b1 = byte(rest, 1);
    const bool fin = (b0 & 0x80) != 0;
    const std::uint8_t op = b0 & 0x0F;
    if ((b0 & 0x70) != 0) return fail(kProtocolError, "a frame with reserved bits set");
    if ((b1 & 0x80) == 0) return fail(kProtocolError, "an unmasked frame");
    std::size_t header = 2;
    std::uint64_t size = b1 & 0x7F;
    if (size == 126) {
      if (rest.size() < 4) return std::nullopt;
      size = (std::uint64_t{byte(rest, 2)} << 8) | byte(rest, 3);
      if (size < 126) return fail(kProtocolError, kLongForm);
      header = 4;
    } else if (size == 127) {
      if (rest.size() < 10) return std::nullopt;
      size = 0;
      for (std::size_t i = 2; i < 10; ++i) size = (size << 8) | byte(rest, i);
      if ((size >> 63) != 0) return fail(kProtocolError, kOver63Bits);
      if (size <= 0xFFFF) return fail(kProtocolError, kLongForm);
      header = 10;
    }
    const bool control = (op & 0x8) != 0;
    if (control) {
      if (!fin || size > 125 || op > 0xA) return fail(kProtocolError, "a bad control frame");
    } else {
      if (op > 0x2 || (op == 0) != in_message_) return fail(kProtocolError, "a frame out of order");
      if (size > max_message_ - (op == 0 ? fragments_.size() : 0))
        return fail(kTooBig, "a message over the limit");
    }
    // Text: a text frame, or a continuation of a text message.
    const bool text = op == 0x1 || (op == 0x0 && !binary_);
    if (op == 0x1 && checked_ == 0) utf8_ = {};  // a text message begins
    if (rest.size() - header < 4 + size) {
      // Not whole yet: what has arrived of its text is checked now (Autobahn 6.4.3-4).
      if (text && rest.size() >= header + 4) {
        const std::size_t have = std::min<std::size_t>(rest.size() - header - 4, size);
        if (!check_masked(rest.data() + header + 4, rest.data() + header, checked_, have))
          return fail(kBadData, kNotUtf8);
        checked_ = have;
      }
      return std::nullopt;
    }
    char* payload = rest.data() + header + 4;
    const char* mask = rest.data() + header;
    for (std::size_t i = 0; i < size; ++i) payload[i] ^= mask[i & 3];
    consumed += header + 4 + size;
    const std::string_view body(payload, size);
    const std::size_t checked = std::exchange(checked_, 0);

    switch (op) {
      case 0x9: return WsEvent{WsEvent::Kind::ping, body};
      case 0xA: return WsEvent{WsEvent::Kind::pong, body};
      case 0x8: {
        if (size == 1) return fail(kProtocolError, "a one-byte close frame");
        if (size == 0) return WsEvent{WsEvent::Kind::close, {}, 0};
        const auto code =
            static_cast<std::uint16_t>((byte(rest, header + 4) << 8) | byte(rest, header + 5));
        if (!valid_close_code(code)) return fail(kProtocolError, "an invalid close code");
        const std::string_view reason = body.substr(2);
        if (!protocol::valid_utf8(reason)) return fail(kBadData, kBadCloseReason);
        return WsEvent{WsEvent::Kind::close, reason, code};
      }
      default: break;
    }
    // A data frame: a whole message, or a piece of one. Its text is checked as far as it was
    // not already, and a message must end on a whole character.
    if (text && !utf8_.feed(body.substr(checked))) return fail(kBadData, kNotUtf8);
    if (op != 0) {
      binary_ = op == 0x2;
      if (fin) {
        if (binary_) return WsEvent{WsEvent::Kind::binary, body};
        if (!utf8_.complete()) return fail(kBadData, kNotUtf8);
        return WsEvent{WsEvent::Kind::text, body};
      }
      in_message_ = true;
      fragments_.assign(body);
      continue;
    }
    fragments_.append(body);
    if (!fin) continue;
    in_message_ = false;
    if (binary_) return WsEvent{WsEvent::Kind::binary, fragments_};
    if (!utf8_.complete()) return fail(kBadData, kNotUtf8);
    return WsEvent{WsEvent::Kind::text, fragments_};
  }
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
