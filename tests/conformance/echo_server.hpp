#pragma once
// The conformance suite's echo endpoint: the server's own WebSocket transport (the session's
// upgrade, RawSocket, SocketReadiness, WsFrameReader, its write path and close handshake) on
// 127.0.0.1, with every text message sent straight back instead of to the game. Runs one
// network thread of its own from construction to destruction.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <thread>

#include "server/base/metrics.hpp"
#include "server/net/message_sink.hpp"
#include "server/net/network_threads.hpp"
#include "server/net/session_set.hpp"
#include "server/net/ws_context.hpp"

namespace tilerace::conformance {

class EchoServer {
 public:
  // max_message: the sessions' message limit (larger: close 1009).
  explicit EchoServer(std::size_t max_message);
  ~EchoServer();
  EchoServer(const EchoServer&) = delete;
  EchoServer& operator=(const EchoServer&) = delete;

  std::uint16_t port() const { return port_; }

 private:
  // Sends each message back as it came; nothing else.
  class Echo final : public server::MessageSink {
   public:
    bool read(std::string_view, std::optional<protocol::Decoded>&) override { return false; }
    Work handle(server::Connection& connection, std::string_view text,
                const std::optional<protocol::Decoded>&) override;
    void refused(server::Connection&, std::string_view) override {}
    void failed(server::Connection&, const std::optional<protocol::Decoded>&) override {}
    void disconnected(server::Connection&) override {}
  };

  boost::asio::awaitable<void> accept();

  // What the sessions refer to outlives them: they go with io_ (declared after).
  server::Metrics metrics_;
  server::SessionSet sessions_;
  Echo echo_;
  server::EdgeLimits edge_;
  server::WsContext context_{edge_, metrics_, sessions_, echo_};
  boost::asio::io_context io_;
  boost::asio::basic_socket_acceptor<boost::asio::ip::tcp, server::NetExecutor> acceptor_;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace tilerace::conformance
