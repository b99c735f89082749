#include "tests/tcp_relay.hpp"

#include <fcntl.h>

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
#include <random>
#include <thread>

namespace tilerace::testing {

namespace {

// The relay's sockets stay its own: a server a test starts later must not hold them open.
void keep_from_children(int fd) { ::fcntl(fd, F_SETFD, FD_CLOEXEC); }

}  // namespace

namespace asio = boost::asio;
using asio::as_tuple;
using asio::use_awaitable;
using asio::ip::tcp;

struct TcpRelay::Impl {
  explicit Impl(std::uint16_t target_port)
      : target(target_port), acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    keep_from_children(acceptor.native_handle());
  }

  // Resumes once the link is not cut (looks every 5 ms), after the chunk's delay.
  asio::awaitable<void> passable() {
    asio::steady_timer timer(ioc);
    const auto base = std::chrono::milliseconds(delay_ms.load());
    const auto jitter = jitter_ms.load();
    if (base.count() > 0 || jitter > 0) {
      std::uniform_int_distribution<int> spread(0, jitter);
      timer.expires_after(base + std::chrono::milliseconds(spread(random)));
      co_await timer.async_wait(as_tuple(use_awaitable));
    }
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
        auto [wec, written] = co_await asio::async_write(*to, asio::buffer(buffer.data(), n),
                                                         as_tuple(use_awaitable));
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
      keep_from_children(client->native_handle());
      auto server = std::make_shared<tcp::socket>(ioc);
      server->open(tcp::v4());
      keep_from_children(server->native_handle());
      const tcp::endpoint to(asio::ip::make_address("127.0.0.1"), target.load());
      auto [cec] = co_await server->async_connect(to, as_tuple(use_awaitable));
      if (cec) continue;  // the target is down: the client's connection goes
      asio::co_spawn(ioc, pump(client, server), asio::detached);
      asio::co_spawn(ioc, pump(server, client), asio::detached);
    }
  }

  asio::io_context ioc;
  std::atomic<std::uint16_t> target;
  tcp::acceptor acceptor;
  std::atomic<bool> cut{false};
  std::atomic<int> delay_ms{0};
  std::atomic<int> jitter_ms{0};
  std::minstd_rand random{2048};  // used on the relay's thread only
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
void TcpRelay::retarget(std::uint16_t target) { impl_->target.store(target); }
void TcpRelay::delay(std::chrono::milliseconds base, std::chrono::milliseconds jitter) {
  impl_->delay_ms.store(static_cast<int>(base.count()));
  impl_->jitter_ms.store(static_cast<int>(jitter.count()));
}

}  // namespace tilerace::testing
