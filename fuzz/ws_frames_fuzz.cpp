// libFuzzer, structure-aware and differential: the input is read as a client's stream of
// WebSocket frames (random FIN and RSV bits, opcodes, 7/16/64-bit lengths, masks or none,
// fragmented messages with control frames between them, text that is UTF-8 or not, close codes
// and reasons, a message limit) and the cuts TCP might make in it. The bytes go through our
// WsFrameReader, fed as the session feeds it (the unconsumed rest first, then what arrives),
// and through Beast's websocket::stream (server role, over Beast's in-memory test stream).
// Oracle: both agree on every message, ping and pong, in order, and on how the stream ends:
// the peer's close (its code and reason), a failure (the close code each sends back), or
// nothing more (the stream stops inside a frame). Where Beast is wrong, agree() says why and
// forgives exactly that.
#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz/byte_source.hpp"
#include "protocol/decode.hpp"
#include "server/net/ws_frames.hpp"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tilerace::fuzz::ByteSource;
using tilerace::server::WsEvent;
using tilerace::server::WsFrameReader;

// What a reader made of the stream: its events in order ("t:" text, "b:" binary, "p:" ping,
// "q:" pong, each with its payload), then how it ended.
struct Reading {
  std::vector<std::string> events;
  enum class End { open, closed, failed } end = End::open;
  int code = 0;        // closed: the peer's code (0: none); failed: the code sent back
  std::string reason;  // closed: the peer's reason; failed (ours): what was wrong
};

// Ours and Beast's agree: everything the same (a failure's reason is ours alone), but for two
// rulings where ours is the more exact: a 64-bit length with its top bit set breaks RFC 6455
// §5.2 (1002, ours), which Beast calls too big (1009) because it checks the size first; and a
// close reason that is not UTF-8 is data of the wrong kind (1007, §7.4.1), which Beast calls a
// protocol error (1002).
//
// And one where Beast is wrong: a fragmented text message whose last character is cut short
// by an empty final fragment (E0, then a continuation of nothing) is not UTF-8; ours fails it
// (1007), Beast delivers it as text and reads on. Forgiven when Beast's next event after ours
// is exactly such a text.
bool agree(const Reading& ours, const Reading& beast) {
  if (ours.end == Reading::End::failed && ours.code == 1007 &&
      beast.events.size() > ours.events.size() &&
      std::equal(ours.events.begin(), ours.events.end(), beast.events.begin())) {
    const std::string& next = beast.events[ours.events.size()];
    if (next.rfind("t:", 0) == 0 && !tilerace::protocol::valid_utf8(next.substr(2))) return true;
  }
  if (ours.events != beast.events || ours.end != beast.end) return false;
  if (ours.end != Reading::End::failed)
    return ours.code == beast.code && ours.reason == beast.reason;
  return ours.code == beast.code ||
         (ours.reason == WsFrameReader::kOver63Bits && ours.code == 1002 && beast.code == 1009) ||
         (ours.reason == WsFrameReader::kBadCloseReason && ours.code == 1007 && beast.code == 1002);
}

std::string show(const Reading& r) {
  std::string s;
  for (const std::string& e : r.events) s += e.substr(0, 2) + std::to_string(e.size() - 2) + " ";
  const char* ends[] = {"open", "closed", "failed"};
  return s + ends[static_cast<int>(r.end)] + " " + std::to_string(r.code) + " " + r.reason;
}

struct Stream {
  std::string bytes;
  std::vector<std::size_t> cuts;  // how TCP hands it over: pieces of these sizes, in turn
  std::size_t limit = 0;          // the message limit, for both readers
};

// One frame's header: shortest length form unless forced longer (the RFC says shortest).
void header(std::string& out, std::uint8_t b0, bool masked, std::uint64_t length, int form) {
  out += static_cast<char>(b0);
  const char m = masked ? '\x80' : '\0';
  if (form == 0) form = length < 126 ? 7 : length <= 0xFFFF ? 16 : 64;
  if (form == 7) {
    out += static_cast<char>(m | static_cast<char>(length & 0x7F));
  } else if (form == 16) {
    out += static_cast<char>(m | 126);
    out += static_cast<char>((length >> 8) & 0xFF);
    out += static_cast<char>(length & 0xFF);
  } else {
    out += static_cast<char>(m | 127);
    for (int i = 7; i >= 0; --i) out += static_cast<char>((length >> (8 * i)) & 0xFF);
  }
}

Stream generate(ByteSource& in) {
  Stream s;
  s.limit = 1 + in.below(5000);
  const std::uint8_t ops[] = {0x1, 0x1, 0x0, 0x0, 0x2, 0x9, 0xA, 0x8, 0x1, 0x0, 0x3, 0xB};
  for (int frames = 0; frames < 48 && !in.empty(); ++frames) {
    const std::uint8_t kind = in.byte();
    std::uint8_t op = ops[kind % 12];
    if (kind >= 0xF0) op = kind & 0x0F;  // any opcode, now and then
    const std::uint8_t bits = in.byte();
    const bool fin = (bits & 0x07) != 0;  // mostly final
    const std::uint8_t rsv = (bits & 0xF8) == 0xF8 ? (bits >> 4) & 0x7 : 0;
    const bool masked = (bits & 0xF0) != 0x10;
    const std::uint8_t shape = in.byte();
    std::string payload;
    std::uint64_t announced;
    int form = 0;
    if (op == 0x8 && shape % 4 != 0) {
      // A close: a code (common ones, or any) and a reason.
      const std::uint16_t codes[] = {1000, 1001, 1002, 1005, 1006, 1012,
                                     1014, 1016, 2999, 3000, 4999};
      const auto code =
          static_cast<std::uint16_t>(shape % 4 == 1 ? codes[in.below(11)] : in.below(65536));
      payload = {static_cast<char>(code >> 8), static_cast<char>(code & 0xFF)};
      payload += in.bytes(in.below(130));
    } else if (shape % 8 == 7) {
      // UTF-8 from code points (valid but for what the generator lets through: surrogates).
      for (std::uint64_t n = in.below(40); n > 0; --n) {
        const auto cp = static_cast<std::uint32_t>(in.below(0x110000));
        if (cp < 0x80) {
          payload += static_cast<char>(cp);
        } else if (cp < 0x800) {
          payload += {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
        } else if (cp < 0x10000) {
          payload +=
              {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
               static_cast<char>(0x80 | (cp & 0x3F))};
        } else {
          payload +=
              {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
               static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
        }
      }
    } else if (shape % 8 == 6) {
      payload = std::string(in.below(70000), 'x');  // long: 16- and 64-bit lengths, the limit
    } else {
      payload = in.bytes(in.below(shape % 8 == 5 ? 300 : 40));
    }
    announced = payload.size();
    if (shape >= 0xF8) {
      form = shape & 1 ? 16 : 64;  // a length in a longer form than it needs
    } else if (shape >= 0xF4) {
      announced = in.below(0) | (shape & 1 ? 0 : 1ULL << 63);  // a length the payload never fills
      payload.clear();
    }
    header(s.bytes, static_cast<std::uint8_t>((fin ? 0x80 : 0) | (rsv << 4) | op), masked,
           announced, form);
    std::string key = in.bytes(4);
    key.resize(4, '\x5a');
    if (masked) s.bytes += key;
    for (std::size_t i = 0; i < payload.size(); ++i) {
      s.bytes += masked ? static_cast<char>(payload[i] ^ key[i & 3]) : payload[i];
    }
  }
  // What is left of the input cuts the stream; nothing left: one piece.
  while (!in.empty()) s.cuts.push_back(1 + in.below(s.bytes.size() + 1));
  return s;
}

Reading ours(const Stream& s) {
  WsFrameReader reader(s.limit);
  Reading r;
  std::string buffer;
  std::size_t at = 0, cut = 0;
  while (at < s.bytes.size()) {
    const std::size_t n = s.cuts.empty() ? s.bytes.size() : s.cuts[cut++ % s.cuts.size()];
    buffer.append(s.bytes, at, n);
    at += n;
    for (;;) {
      std::size_t used = 0;
      const auto e = reader.next(std::span<char>(buffer.data(), buffer.size()), used);
      const std::string payload = e ? std::string(e->payload) : "";
      buffer.erase(0, used);
      if (!e) break;
      switch (e->kind) {
        case WsEvent::Kind::text: r.events.push_back("t:" + payload); break;
        case WsEvent::Kind::binary: r.events.push_back("b:" + payload); break;
        case WsEvent::Kind::ping: r.events.push_back("p:" + payload); break;
        case WsEvent::Kind::pong: r.events.push_back("q:" + payload); break;
        case WsEvent::Kind::close:
          r.end = Reading::End::closed;
          r.code = e->code;
          r.reason = payload;
          return r;
        case WsEvent::Kind::fail:
          r.end = Reading::End::failed;
          r.code = e->code;
          r.reason = payload;
          return r;
      }
    }
  }
  return r;
}

// The close code in what Beast sent (after its 101), or 0.
int close_sent(const std::string& out) {
  std::size_t at = out.find("\r\n\r\n");
  if (at == std::string::npos) return 0;
  at += 4;
  while (at + 2 <= out.size()) {
    const auto op = static_cast<std::uint8_t>(out[at]) & 0x0F;
    std::size_t len = static_cast<std::uint8_t>(out[at + 1]) & 0x7F;
    std::size_t head = 2;
    if (len == 126) {
      len = (static_cast<std::uint8_t>(out[at + 2]) << 8) | static_cast<std::uint8_t>(out[at + 3]);
      head = 4;
    }
    if (op == 0x8) {
      return len >= 2 ? (static_cast<std::uint8_t>(out[at + head]) << 8) |
                            static_cast<std::uint8_t>(out[at + head + 1])
                      : 1005;
    }
    at += head + len;
  }
  return 0;
}

Reading beasts(const Stream& s) {
  asio::io_context io;
  beast::test::stream client(io);
  beast::test::stream server(io);
  server.connect(client);
  websocket::stream<beast::test::stream> ws(std::move(server));
  ws.read_message_max(s.limit);
  ws.next_layer().append(
      "GET / HTTP/1.1\r\nHost: fuzz\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
  ws.next_layer().append(s.bytes);
  ws.next_layer().close_remote();
  if (!s.cuts.empty()) ws.next_layer().read_size(s.cuts.front());
  Reading r;
  ws.control_callback([&r](websocket::frame_type kind, beast::string_view payload) {
    if (kind == websocket::frame_type::ping) r.events.push_back("p:" + std::string(payload));
    if (kind == websocket::frame_type::pong) r.events.push_back("q:" + std::string(payload));
  });
  beast::error_code ec;
  ws.accept(ec);
  if (ec) std::abort();  // the upgrade is ours and well formed
  for (;;) {
    beast::flat_buffer message;
    ws.read(message, ec);
    if (ec) break;
    r.events.push_back((ws.got_text() ? "t:" : "b:") + beast::buffers_to_string(message.data()));
  }
  if (ec == websocket::error::closed) {
    r.end = Reading::End::closed;
    r.code = ws.reason().code;
    r.reason = std::string(ws.reason().reason.data(), ws.reason().reason.size());
  } else if (const int code = close_sent(client.str()); code != 0) {
    r.end = Reading::End::failed;
    r.code = code;
  }
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteSource in(data, size);
  const Stream s = generate(in);
  const Reading a = ours(s);
  const Reading b = beasts(s);
  if (!agree(a, b)) {
    std::fprintf(stderr, "ours:  %s\nbeast: %s\nlimit %zu, stream:", show(a).c_str(),
                 show(b).c_str(), s.limit);
    for (std::size_t i = 0; i < s.bytes.size() && i < 256; ++i) {
      std::fprintf(stderr, " %02x", static_cast<unsigned char>(s.bytes[i]));
    }
    std::fprintf(stderr, "\n");
    std::abort();
  }
  return 0;
}
