#include "tests/conformance/echo_server.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>

#include <memory>

#include "server/net/ws_session.hpp"

namespace tilerace::conformance {

namespace asio = boost::asio;
namespace beast = boost::beast;

EchoServer::EchoServer(std::size_t max_message)
    : edge_{.max_message = max_message, .rate = 1e6, .keepalive = 60},
      acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
  port_ = acceptor_.local_endpoint().port();
  spdlog::set_level(spdlog::level::warn);  // a line per connection would bury the table
  asio::co_spawn(io_, accept(), asio::detached);
  thread_ = std::thread([this] { io_.run(); });
}

EchoServer::~EchoServer() {
  io_.stop();
  thread_.join();
}

server::MessageSink::Work EchoServer::Echo::handle(server::Connection& connection,
                                                   std::string_view text,
                                                   const std::optional<protocol::Decoded>&) {
  connection.send(std::string(text));
  return std::nullopt;
}

asio::awaitable<void> EchoServer::accept() {
  for (;;) {
    server::TcpSocket socket = co_await acceptor_.async_accept(asio::use_awaitable);
    socket.set_option(asio::ip::tcp::no_delay(true));
    // The upgrade request: clients of the suite send nothing more before the answer.
    beast::flat_buffer buffer;
    beast::http::request<beast::http::string_body> request;
    beast::error_code ec;
    co_await beast::http::async_read(socket, buffer, request,
                                     asio::redirect_error(asio::use_awaitable, ec));
    if (ec || buffer.size() != 0) {
      spdlog::warn("echo: a bad upgrade request: {}", ec ? ec.message() : "bytes after it");
      continue;
    }
    const std::string remote = socket.remote_endpoint().address().to_string();
    std::make_shared<server::WsSession>(std::move(socket), context_, server::AddressLimits::Slot{},
                                        remote)
        ->start(std::move(request));
  }
}

}  // namespace tilerace::conformance
