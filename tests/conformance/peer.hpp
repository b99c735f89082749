#pragma once
// One connection of a conformance case: frames sent exactly as the case builds them, and checks
// of what comes back, each with a deadline, each "" when met or a description of what came
// instead. Against the echo harness a message comes back as sent; the game answers no echo, so
// there a message travels as the rid of a ping (answered before hello with not_hello and that
// rid), its bytes unchanged but for JSON's escapes of ASCII controls, quotes and backslashes.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tests/raw_ws.hpp"

namespace tilerace::conformance {

enum class Target { echo, game };

class Peer {
 public:
  Peer(std::uint16_t port, Target target) : ws_(port), target_(target) {}

  testing::RawWs& ws() { return ws_; }
  Target target() const { return target_; }

  // The parts of the message that carries text, cut where text's parts are cut.
  std::vector<std::string> carry(std::vector<std::string> parts) const;
  std::string carry(std::string text) const { return carry(std::vector{std::move(text)}).front(); }

  // The next frame is the answer to the message that carried text.
  std::string echo(std::string_view text);
  // The next frame is a pong carrying payload.
  std::string pong(std::string_view payload);
  // The next frame is the server's close with one of codes (an empty close is 1005), then the
  // stream ends: how a failed connection ends, and one whose close the server answered.
  std::string closed(const std::vector<int>& codes);
  // The server closes with one of codes and waits for the answer (its close handshake, not a
  // failure): the next frame is its close, the close is answered, then the stream ends.
  std::string closed_by_server(const std::vector<int>& codes);
  // Sends a close with code (1005: an empty close), and the close handshake completes: as
  // closed(answers).
  std::string clean_close(int code = 1000, const std::vector<int>& answers = {1000});
  // Sends a close with payload as it is, then as clean_close.
  std::string close_with(std::string_view payload, const std::vector<int>& answers);
  // Nothing arrives for a while (what a case that waits for the absence of an answer needs).
  std::string quiet(std::chrono::milliseconds wait);

 private:
  // The next frame is a close with one of codes (payload: its payload).
  std::string close_among(const std::vector<int>& codes, std::string& payload);
  // The stream ends next (after: how a description of anything else begins).
  std::string ended(const char* after);

  testing::RawWs ws_;
  Target target_;
};

// The two bytes of a close code.
std::string close_code(int code);

}  // namespace tilerace::conformance
