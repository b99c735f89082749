#pragma once
// A WebSocket client over a plain socket that writes frames exactly as a test builds them
// (any bits, any length, cut anywhere) and reads the server's frames one at a time, for the
// conformance tests (tests/e2e/conformance_test.cpp, tests/conformance/). Every read has a
// deadline.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tilerace::testing {

inline constexpr std::uint8_t kContinuation = 0x0, kText = 0x1, kBinary = 0x2, kClose = 0x8,
                              kPing = 0x9, kPong = 0xA;

struct Frame {
  bool fin = true;
  std::uint8_t opcode = 0;
  std::string payload;
};

class RawWs {
 public:
  // Connects to 127.0.0.1:port and completes the upgrade of /ws.
  explicit RawWs(std::uint16_t port) {
    using namespace std::chrono_literals;
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      throw std::runtime_error("connect failed");
    }
    write_all(
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    while (buffer_.find("\r\n\r\n") == std::string::npos) {
      if (!fill(5s)) {
        ::close(fd_);
        throw std::runtime_error("no upgrade response");
      }
    }
    const auto end = buffer_.find("\r\n\r\n") + 4;
    if (buffer_.rfind("HTTP/1.1 101", 0) != 0) {
      ::close(fd_);
      throw std::runtime_error("upgrade refused");
    }
    buffer_.erase(0, end);
  }
  ~RawWs() { ::close(fd_); }
  RawWs(const RawWs&) = delete;
  RawWs& operator=(const RawWs&) = delete;

  // Sends one frame; the header bits are taken as given (rsv: the three RSV bits), and the
  // payload is masked as a client must unless masked is false.
  void send(std::uint8_t opcode, std::string_view payload, bool fin = true, std::uint8_t rsv = 0,
            bool masked = true) {
    send_bytes(frame(opcode, payload, fin, rsv, masked));
  }
  // Sends bytes as they are (frames built with frame, whole or in pieces).
  void send_bytes(std::string_view bytes) { write_all(bytes); }
  // Sends bytes in pieces of chop bytes, each its own send (TCP_NODELAY: its own segment).
  void send_chopped(std::string_view bytes, std::size_t chop) {
    for (std::size_t at = 0; at < bytes.size(); at += chop) write_all(bytes.substr(at, chop));
  }

  // The bytes of one frame, as send sends it.
  static std::string frame(std::uint8_t opcode, std::string_view payload, bool fin = true,
                           std::uint8_t rsv = 0, bool masked = true) {
    std::string f = header(opcode, payload.size(), fin, rsv, masked);
    const char key[4] = {'\x12', '\x34', '\x56', '\x78'};
    for (std::size_t i = 0; i < payload.size(); ++i) {
      f += masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i];
    }
    return f;
  }
  // A frame's header announcing length payload bytes, in the shortest form, mask included.
  static std::string header(std::uint8_t opcode, std::uint64_t length, bool fin = true,
                            std::uint8_t rsv = 0, bool masked = true) {
    std::string f;
    f += static_cast<char>((fin ? 0x80 : 0) | (rsv << 4) | opcode);
    const char mask_bit = masked ? '\x80' : '\0';
    if (length < 126) {
      f += static_cast<char>(mask_bit | static_cast<char>(length));
    } else if (length < 65536) {
      f += static_cast<char>(mask_bit | 126);
      f += static_cast<char>(length >> 8);
      f += static_cast<char>(length & 0xFF);
    } else {
      f += static_cast<char>(mask_bit | 127);
      for (int i = 7; i >= 0; --i) f += static_cast<char>((length >> (8 * i)) & 0xFF);
    }
    if (masked) f.append("\x12\x34\x56\x78", 4);
    return f;
  }

  // Only the header of a masked frame announcing `length` payload bytes (64-bit form).
  void send_header_only(std::uint8_t opcode, std::uint64_t length) {
    std::string f;
    f += static_cast<char>(0x80 | opcode);
    f += static_cast<char>(0x80 | 127);
    for (int i = 7; i >= 0; --i) f += static_cast<char>((length >> (8 * i)) & 0xFF);
    f.append("\x12\x34\x56\x78", 4);
    write_all(f);
  }

  // The next frame from the server, or nullopt at the end of the stream (ended()) or the
  // deadline.
  std::optional<Frame> next(std::chrono::milliseconds deadline = std::chrono::seconds(5)) {
    const auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
      if (auto f = parse()) return f;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      if (ended_ || left.count() <= 0 || !fill(left)) return std::nullopt;
    }
  }

  // Reads until the server's close frame; its status code (1005 when it carried none).
  std::optional<int> close_code(std::chrono::milliseconds deadline = std::chrono::seconds(5)) {
    while (auto f = next(deadline)) {
      if (f->opcode != kClose) continue;
      if (f->payload.size() < 2) return 1005;
      return (static_cast<unsigned char>(f->payload[0]) << 8) |
             static_cast<unsigned char>(f->payload[1]);
    }
    return std::nullopt;
  }

  // The server has ended the stream (or reset it), and every frame before that has been read.
  bool ended() const { return ended_ && buffer_.empty(); }

 private:
  void write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may already have closed: the test reads why
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  // Waits up to deadline for bytes; false at the deadline or the end of the stream.
  bool fill(std::chrono::milliseconds deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(deadline.count())) <= 0) return false;
    char chunk[16384];
    const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      ended_ = true;
      return false;
    }
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
  bool ended_ = false;
};

}  // namespace tilerace::testing
