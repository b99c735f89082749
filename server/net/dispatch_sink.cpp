#include "server/net/dispatch_sink.hpp"

#include <variant>

namespace tilerace::server {

bool DispatchSink::read(std::string_view text, std::optional<protocol::Decoded>& decoded) {
  decoded = protocol::decode_client(text);
  return decoded->ok() && (std::holds_alternative<protocol::Move>(decoded->message()) ||
                           std::holds_alternative<protocol::Slide>(decoded->message()));
}

MessageSink::Work DispatchSink::handle(Connection& connection, std::string_view,
                                       const std::optional<protocol::Decoded>& decoded) {
  return dispatcher_.handle(connection, *decoded);
}

void DispatchSink::refused(Connection& connection, std::string_view text) {
  const protocol::Decoded decoded = protocol::decode_client(text);
  dispatcher_.send_error(connection,
                         {protocol::ErrorCode::rate_limited, "too many messages: slow down", ""},
                         decoded.rid);
}

void DispatchSink::failed(Connection& connection, const std::optional<protocol::Decoded>& decoded) {
  dispatcher_.send_error(connection, {protocol::ErrorCode::internal, "internal error", ""},
                         decoded ? decoded->rid : protocol::Rid{});
}

void DispatchSink::disconnected(Connection& connection) { dispatcher_.disconnected(connection); }

}  // namespace tilerace::server
