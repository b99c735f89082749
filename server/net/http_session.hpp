#pragma once
// One plain HTTP connection: serves static files, /healthz, /metrics and /api/*, and hands a
// WebSocket upgrade of /ws to a WsSession. Headers are limited to 8 KiB and each request
// must arrive within 10 s. In the SessionSet from start() until it ends or hands over.
#include <boost/asio/awaitable.hpp>

#include <memory>

#include "server/net/network_threads.hpp"
#include "server/net/server_context.hpp"

namespace tilerace::server {

class HttpSession final : public Session, public std::enable_shared_from_this<HttpSession> {
 public:
  // slot is the connection's hold on its address's connection count, kept until it closes.
  HttpSession(HttpStream&& stream, ServerContext& context, AddressLimits::Slot slot);

  void start();
  // Either closes the socket: a request being answered is cut short.
  void shutdown() override { abort(); }
  void abort() override;

 private:
  // self keeps the session alive for as long as the coroutine exists, from its creation.
  boost::asio::awaitable<void> run(std::shared_ptr<HttpSession> self);

  HttpStream stream_;
  NetExecutor executor_;  // the stream's, kept for after a hand-over
  ServerContext& context_;
  AddressLimits::Slot slot_;
  bool handed_over_ = false;  // the stream belongs to a WsSession now
};

}  // namespace tilerace::server
