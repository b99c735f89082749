#pragma once
// What a WebSocket session needs of the server: the limits it holds its peer to, the metrics
// it counts in, the live sessions (for shutdown) and what handles its messages.
#include <cstddef>

#include "server/base/metrics.hpp"
#include "server/net/message_sink.hpp"
#include "server/net/session_set.hpp"

namespace tilerace::server {

// The limits and timeouts every WebSocket connection is held to (from the command line).
struct EdgeLimits {
  std::size_t max_message = 4096;  // bytes of one message
  double rate = 60;                // messages per second; the burst is twice this
  int keepalive = 15;              // seconds of silence before a ping; twice this before closing
};

// Each part outlives every session.
struct WsContext {
  const EdgeLimits& edge;
  Metrics& metrics;
  SessionSet& sessions;
  MessageSink& sink;
};

}  // namespace tilerace::server
