#pragma once
// What a WebSocket session hands its connection's messages to: the game (DispatchSink) or, in
// the conformance harness, an echo (tests/conformance). The session frames, limits and writes;
// a sink sees only whole text messages, already checked as UTF-8 and within the size and rate
// limits, one at a time per connection, on the connection's thread.
#include <boost/asio/awaitable.hpp>

#include <exception>
#include <optional>
#include <string_view>

#include "protocol/decode.hpp"
#include "server/play/connection.hpp"

namespace tilerace::server {

class MessageSink {
 public:
  // What is left of a message's work when message returns: nullopt when it is done.
  using Work = std::optional<boost::asio::awaitable<void>>;

  virtual ~MessageSink() = default;
  // Reads one text message into decoded, the session's storage for what the sink makes of it
  // (kept until the next message, so past the work handle returns); true when the message is a
  // move, whose reply is timed.
  virtual bool read(std::string_view text, std::optional<protocol::Decoded>& decoded) = 0;
  // Handles the message read last: its text, and what read made of it. The returned work is
  // awaited before the connection's next message.
  virtual Work handle(Connection& connection, std::string_view text,
                      const std::optional<protocol::Decoded>& decoded) = 0;
  // A message the rate limit refused: answered, not handled.
  virtual void refused(Connection& connection, std::string_view text) = 0;
  // Handling the last message threw (already logged): decoded is what read left in it.
  virtual void failed(Connection& connection, const std::optional<protocol::Decoded>& decoded) = 0;
  // The connection has closed.
  virtual void disconnected(Connection& connection) = 0;
};

}  // namespace tilerace::server
