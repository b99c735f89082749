#include "tests/conformance/peer.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace tilerace::conformance {

using namespace std::chrono_literals;
using testing::Frame;

namespace {

constexpr auto kWait = 5s;
// The longest rid the game takes (PROTOCOL.md: 64 characters); longer text gets an error back,
// which still answers the message.
constexpr std::size_t kMaxRid = 64;

std::string describe(const std::optional<Frame>& f, const testing::RawWs& ws) {
  if (!f) return ws.ended() ? "the end of the stream" : "nothing within the deadline";
  std::string what = "a frame of opcode " + std::to_string(f->opcode) + " (" +
                     std::to_string(f->payload.size()) + " bytes)";
  if (f->opcode == testing::kClose && f->payload.size() >= 2) {
    what += " with code " + std::to_string((static_cast<unsigned char>(f->payload[0]) << 8) |
                                           static_cast<unsigned char>(f->payload[1]));
  }
  return what;
}

// JSON's escapes for what a JSON string cannot hold as it is; every other byte unchanged.
std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || c == '"' || c == '\\') {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", u);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string close_code(int code) {
  return {static_cast<char>(code >> 8), static_cast<char>(code & 0xFF)};
}

std::vector<std::string> Peer::carry(std::vector<std::string> parts) const {
  if (target_ == Target::echo) return parts;
  for (std::string& part : parts) part = escape(part);
  parts.front().insert(0, R"({"type":"ping","rid":")");
  parts.back() += R"("})";
  return parts;
}

std::string Peer::echo(std::string_view text) {
  const std::optional<Frame> f = ws_.next(kWait);
  if (!f || f->opcode != testing::kText || !f->fin) {
    return "expected the answer to a message, got " + describe(f, ws_);
  }
  if (target_ == Target::echo) {
    if (f->payload == text) return "";
    return "the echo differs (" + std::to_string(f->payload.size()) + " bytes, sent " +
           std::to_string(text.size()) + ")";
  }
  const auto reply = nlohmann::json::parse(f->payload, nullptr, false);
  if (!reply.is_object() || reply.value("type", "") != "error") {
    return "the game's answer is not an error: " + f->payload.substr(0, 200);
  }
  if (text.size() > kMaxRid) return "";  // refused as a rid, answered all the same
  if (reply.contains("rid") && reply["rid"] == text) return "";
  return "the game's answer carries another rid: " + f->payload.substr(0, 200);
}

std::string Peer::pong(std::string_view payload) {
  const std::optional<Frame> f = ws_.next(kWait);
  if (!f || f->opcode != testing::kPong) return "expected a pong, got " + describe(f, ws_);
  if (f->payload != payload) return "the pong carries another payload";
  return "";
}

std::string Peer::close_among(const std::vector<int>& codes, std::string& payload) {
  const std::optional<Frame> f = ws_.next(kWait);
  if (!f || f->opcode != testing::kClose) return "expected a close, got " + describe(f, ws_);
  const int code = f->payload.size() >= 2 ? (static_cast<unsigned char>(f->payload[0]) << 8) |
                                                static_cast<unsigned char>(f->payload[1])
                                          : 1005;
  if (std::find(codes.begin(), codes.end(), code) == codes.end()) {
    return "closed with " + std::to_string(code);
  }
  payload = f->payload;
  return "";
}

std::string Peer::ended(const char* after) {
  const std::optional<Frame> f = ws_.next(kWait);
  if (f || !ws_.ended()) return std::string(after) + ": " + describe(f, ws_);
  return "";
}

std::string Peer::closed(const std::vector<int>& codes) {
  std::string payload;
  if (std::string problem = close_among(codes, payload); !problem.empty()) return problem;
  // After its close the server sends nothing more and ends the stream.
  return ended("after the close");
}

std::string Peer::closed_by_server(const std::vector<int>& codes) {
  std::string payload;
  if (std::string problem = close_among(codes, payload); !problem.empty()) return problem;
  ws_.send(testing::kClose, payload.substr(0, 2));
  return ended("after the close was answered");
}

std::string Peer::clean_close(int code, const std::vector<int>& answers) {
  return close_with(code == 1005 ? "" : close_code(code), answers);
}

std::string Peer::close_with(std::string_view payload, const std::vector<int>& answers) {
  ws_.send(testing::kClose, payload);
  return closed(answers);
}

std::string Peer::quiet(std::chrono::milliseconds wait) {
  const std::optional<Frame> f = ws_.next(wait);
  if (f || ws_.ended()) return "expected nothing yet, got " + describe(f, ws_);
  return "";
}

}  // namespace tilerace::conformance
