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

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <random>
#include <string>
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
  using Clock = std::chrono::steady_clock;
  // Linux's least retransmission timeout: what a lost segment costs on a short link.
  static constexpr auto kRetransmission = std::chrono::milliseconds(200);
  static constexpr std::size_t kHeld = 4 << 20;  // bytes a direction holds before it stops reading

  explicit Impl(std::uint16_t target_port)
      : target(target_port), acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    keep_from_children(acceptor.native_handle());
  }

  // When a chunk read now is due at the far end: after the delay and jitter, and a
  // retransmission timeout more when it is "lost"; never before the chunk ahead of it (TCP
  // delivers in order: everything behind a lost segment waits for it).
  Clock::time_point due(Clock::time_point ahead) {
    const auto now = Clock::now();
    auto at = now + std::chrono::milliseconds(delay_ms.load());
    if (const int jitter = jitter_ms.load(); jitter > 0) {
      at += std::chrono::milliseconds(std::uniform_int_distribution<int>(0, jitter)(random));
    }
    if (const int per_mille = loss_per_mille.load();
        per_mille > 0 && std::uniform_int_distribution<int>(1, 1000)(random) <= per_mille) {
      at += kRetransmission;
    }
    return std::max(at, ahead);
  }

  // One direction of a connection: chunks read from one end, each sent on to the other once
  // it is due and the link is not cut. Reading goes on meanwhile (the link is a pipe, not a
  // stop-and-wait), up to kHeld bytes.
  struct Pipe {
    explicit Pipe(asio::io_context& ioc) : wake(ioc) {}
    std::deque<std::pair<Clock::time_point, std::string>> chunks;
    std::size_t held = 0;
    bool ended = false;       // the reading end closed
    bool broken = false;      // the sending end failed: what is read goes nowhere
    asio::steady_timer wake;  // the sender's wait: cancelled when a chunk arrives
  };

  asio::awaitable<void> receive(std::shared_ptr<tcp::socket> from, std::shared_ptr<Pipe> pipe) {
    std::array<char, 16384> buffer;
    asio::steady_timer pause(ioc);
    for (;;) {
      while (pipe->held > kHeld) {
        pause.expires_after(std::chrono::milliseconds(5));
        co_await pause.async_wait(as_tuple(use_awaitable));
      }
      auto [ec, n] = co_await from->async_read_some(asio::buffer(buffer), as_tuple(use_awaitable));
      if (n > 0 && !pipe->broken) {
        const auto at = due(pipe->chunks.empty() ? Clock::time_point{} : pipe->chunks.back().first);
        pipe->chunks.emplace_back(at, std::string(buffer.data(), n));
        pipe->held += n;
      }
      if (ec) pipe->ended = true;
      pipe->wake.cancel();
      if (ec) break;
    }
    boost::system::error_code ignored;
    from->shutdown(tcp::socket::shutdown_receive, ignored);
  }

  asio::awaitable<void> send(std::shared_ptr<tcp::socket> to, std::shared_ptr<Pipe> pipe) {
    for (;;) {
      if (pipe->chunks.empty()) {
        if (pipe->ended) break;
        pipe->wake.expires_at(Clock::time_point::max());
      } else if (pipe->chunks.front().first > Clock::now()) {
        pipe->wake.expires_at(pipe->chunks.front().first);
      } else if (cut.load()) {
        pipe->wake.expires_after(std::chrono::milliseconds(5));
      } else {
        std::string chunk = std::move(pipe->chunks.front().second);
        pipe->chunks.pop_front();
        pipe->held -= chunk.size();
        auto [ec, written] =
            co_await asio::async_write(*to, asio::buffer(chunk), as_tuple(use_awaitable));
        if (ec) {
          pipe->broken = true;
          pipe->chunks.clear();
          pipe->held = 0;
          break;
        }
        continue;
      }
      co_await pipe->wake.async_wait(as_tuple(use_awaitable));
    }
    boost::system::error_code ignored;
    to->shutdown(tcp::socket::shutdown_send, ignored);
  }

  // Relays from → to until from ends, then ends to's sending side.
  void pump(std::shared_ptr<tcp::socket> from, std::shared_ptr<tcp::socket> to) {
    auto pipe = std::make_shared<Pipe>(ioc);
    asio::co_spawn(ioc, receive(from, pipe), asio::detached);
    asio::co_spawn(ioc, send(to, pipe), asio::detached);
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
      pump(client, server);
      pump(server, client);
    }
  }

  asio::io_context ioc;
  std::atomic<std::uint16_t> target;
  tcp::acceptor acceptor;
  std::atomic<bool> cut{false};
  std::atomic<int> delay_ms{0};
  std::atomic<int> jitter_ms{0};
  std::atomic<int> loss_per_mille{0};
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
void TcpRelay::loss(double fraction) {
  impl_->loss_per_mille.store(static_cast<int>(fraction * 1000 + 0.5));
}

}  // namespace tilerace::testing
