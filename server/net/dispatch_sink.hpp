#pragma once
// The game's side of a WebSocket session: each message decoded and routed by the dispatcher.
#include "server/net/message_sink.hpp"
#include "server/play/dispatcher.hpp"

namespace tilerace::server {

class DispatchSink final : public MessageSink {
 public:
  explicit DispatchSink(Dispatcher& dispatcher) : dispatcher_(dispatcher) {}

  // Decodes the message.
  bool read(std::string_view text, std::optional<protocol::Decoded>& decoded) override;
  // Routes it (decoded is set).
  Work handle(Connection& connection, std::string_view text,
              const std::optional<protocol::Decoded>& decoded) override;
  // Answered `rate_limited`, with the message's rid when it has one.
  void refused(Connection& connection, std::string_view text) override;
  // Answered `internal`.
  void failed(Connection& connection, const std::optional<protocol::Decoded>& decoded) override;
  void disconnected(Connection& connection) override;

 private:
  Dispatcher& dispatcher_;
};

}  // namespace tilerace::server
