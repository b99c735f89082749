#pragma once
// One plain HTTP connection: serves static files, /healthz, /metrics and /api/*, and hands a
// WebSocket upgrade of /ws to a WsSession. Headers are limited to 8 KiB and each request
// must arrive within 10 s.
#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include "server/server_context.hpp"

namespace tilerace::server {

// slot is the connection's hold on its address's connection count, kept until it closes.
boost::asio::awaitable<void> run_http_session(boost::beast::tcp_stream stream,
                                              ServerContext& context, AddressLimits::Slot slot);

}  // namespace tilerace::server
