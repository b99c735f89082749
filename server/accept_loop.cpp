#include "server/accept_loop.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <array>

#include "server/net/http_session.hpp"
#include "server/net/tls_certificates.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using asio::as_tuple;
using asio::use_awaitable;
using asio::ip::tcp;

namespace {

constexpr int kSocketSendBuffer = 64 * 1024;

// A plain connection over its address's limit gets a 429 and is closed. What it sent is read
// and dropped for up to a second first, so that closing does not reset the 429 away. (On the
// TLS port the connection is closed without a word: plain text there reads to a TLS client as
// a broken handshake, "wrong version number".)
asio::awaitable<void> refuse_busy(TcpSocket socket) {
  static constexpr std::string_view kResponse =
      "HTTP/1.1 429 Too Many Requests\r\nServer: tilerace\r\nConnection: close\r\n"
      "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
      "Content-Type: text/plain\r\nContent-Length: 39\r\n\r\n"
      "too many connections from your address\n";
  HttpStream stream(std::move(socket));
  stream.expires_after(std::chrono::seconds(1));
  auto [ec, n] =
      co_await asio::async_write(stream, asio::buffer(kResponse), as_tuple(use_awaitable));
  if (ec) co_return;  // the peer is gone already
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  std::array<char, 1024> sink;
  while (!ec) {
    std::tie(ec, n) = co_await stream.async_read_some(asio::buffer(sink), as_tuple(use_awaitable));
  }
}

}  // namespace

asio::awaitable<void> accept_loop(NetworkThreads& threads, tcp::acceptor& acceptor,
                                  ServerContext& context) {
  asio::steady_timer pause(acceptor.get_executor());
  for (;;) {
    // The socket is bound to the network thread that will serve the connection.
    auto [ec, socket] =
        co_await acceptor.async_accept(threads.next().get_executor(), as_tuple(use_awaitable));
    // Shutdown closes the acceptor on this loop's thread: the loop ends (a connection accepted
    // in that instant is closed unserved) instead of accepting on a closed acceptor forever.
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (ec) {
      // E.g. out of file descriptors: keep serving the others, and do not spin on an accept
      // that fails at once.
      spdlog::warn("accept: {}", ec.message());
      pause.expires_after(std::chrono::milliseconds(50));
      co_await pause.async_wait(as_tuple(use_awaitable));
      continue;
    }
    const auto peer = socket.remote_endpoint(ec);
    if (ec) continue;  // already gone
    // A proxy of ours carries many clients: each is counted once its request names it.
    bool admitted = true;
    AddressLimits::Slot slot = context.proxies.trusts(peer.address())
                                   ? AddressLimits::Slot()
                                   : context.limits.connect(peer.address(), admitted);
    if (!admitted) {
      context.metrics.connections_refused_total.fetch_add(1, std::memory_order_relaxed);
      if (context.tls == nullptr) {
        asio::co_spawn(socket.get_executor(), refuse_busy(std::move(socket)), asio::detached);
      }
      continue;  // over TLS: the socket closes here, nothing written
    }
    socket.set_option(tcp::no_delay(true), ec);
    // A game connection never needs a big window; a fixed kernel buffer keeps what a slow
    // reader can pin in the kernel small (the send queue bound does the rest).
    socket.set_option(asio::socket_base::send_buffer_size(kSocketSendBuffer), ec);
    if (context.tls != nullptr) {
      // The handshake is the session's first step, under its deadline.
      std::make_shared<HttpsSession>(
          TlsStream(HttpStream(std::move(socket)), *context.tls->current()), context,
          std::move(slot))
          ->start();
    } else {
      std::make_shared<HttpSession>(HttpStream(std::move(socket)), context, std::move(slot))
          ->start();
    }
  }
}

}  // namespace tilerace::server
