#include "tests/tcp_relay.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <thread>

namespace tilerace::testing {

namespace asio = boost::asio;
using asio::as_tuple;
using asio::use_awaitable;
using asio::ip::tcp;

struct TcpRelay::Impl {
  explicit Impl(std::uint16_t target_port)
      : target(asio::ip::make_address("127.0.0.1"), target_port),
        acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {}

  // Resumes once the link is not cut (looks every 5 ms).
  asio::awaitable<void> passable() {
    asio::steady_timer timer(ioc);
    while (cut.load()) {
      timer.expires_after(std::chrono::milliseconds(5));
      co_await timer.async_wait(as_tuple(use_awaitable));
    }
  }

  // Copies from → to until from ends, then ends to's sending side; each chunk waits while the
  // link is cut.
  asio::awaitable<void> pump(std::shared_ptr<tcp::socket> from, std::shared_ptr<tcp::socket> to) {
    std::array<char, 16384> buffer;
    for (;;) {
      auto [ec, n] = co_await from->async_read_some(asio::buffer(buffer), as_tuple(use_awaitable));
      co_await passable();
      if (n > 0) {
        auto [wec, written] =
            co_await asio::async_write(*to, asio::buffer(buffer.data(), n), as_tuple(use_awaitable));
        if (wec) break;
      }
      if (ec) break;
    }
    boost::system::error_code ignored;
    to->shutdown(tcp::socket::shutdown_send, ignored);
    from->shutdown(tcp::socket::shutdown_receive, ignored);
  }

  asio::awaitable<void> accept() {
    for (;;) {
      auto [ec, socket] = co_await acceptor.async_accept(as_tuple(use_awaitable));
      if (ec) co_return;
      auto client = std::make_shared<tcp::socket>(std::move(socket));
      auto server = std::make_shared<tcp::socket>(ioc);
      auto [cec] = co_await server->async_connect(target, as_tuple(use_awaitable));
      if (cec) continue;  // the target is down: the client's connection goes
      asio::co_spawn(ioc, pump(client, server), asio::detached);
      asio::co_spawn(ioc, pump(server, client), asio::detached);
    }
  }

  asio::io_context ioc;
  tcp::endpoint target;
  tcp::acceptor acceptor;
  std::atomic<bool> cut{false};
  std::thread thread;
};

TcpRelay::TcpRelay(std::uint16_t target) : impl_(std::make_unique<Impl>(target)) {
  asio::co_spawn(impl_->ioc, impl_->accept(), asio::detached);
  impl_->thread = std::thread([this] { impl_->ioc.run(); });
}

TcpRelay::~TcpRelay() {
  impl_->ioc.stop();
  impl_->thread.join();
}

std::uint16_t TcpRelay::port() const { return impl_->acceptor.local_endpoint().port(); }
void TcpRelay::cut() { impl_->cut.store(true); }
void TcpRelay::heal() { impl_->cut.store(false); }

}  // namespace tilerace::testing
