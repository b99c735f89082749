// SocketReadiness over real sockets on 127.0.0.1: watchers are told of data and of the peer's end,
// of room to send once they asked, a watch stopped in the middle of a batch is not told, and a
// context with nothing watched runs out of work.
#include "server/net/socket_readiness.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "server/net/raw_socket.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Counts what it is told; on_told runs on each.
struct Counting final : SocketReadiness::Watcher {
  void readable(bool ended) override {
    ++told;
    if (ended) ++ends;
    if (on_told) on_told();
  }
  void writable() override { ++writes; }
  int told = 0;
  int ends = 0;
  int writes = 0;
  std::function<void()> on_told;
};

// Connects theirs to a new listener on 127.0.0.1 and returns the accepted end.
TcpSocket accept_from(asio::io_context& ioc, tcp::socket& theirs) {
  asio::basic_socket_acceptor<tcp, NetExecutor> acceptor(
      ioc.get_executor(), tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  theirs.connect(acceptor.local_endpoint());
  return acceptor.accept();
}

// A connected pair: `ours` (out of Asio's reactor, as a session's) and `theirs` (the peer).
struct Pair {
  explicit Pair(asio::io_context& ioc) : theirs(ioc), ours(accept_from(ioc, theirs)) {}
  tcp::socket theirs;
  RawSocket ours;
};

// Runs ioc until done() or 10 s.
template <class Done>
bool run_until(asio::io_context& ioc, Done done) {
  ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!done() && std::chrono::steady_clock::now() < deadline) ioc.run_one_for(50ms);
  return done();
}

// One connected pair whose socket is watched by a Counting watcher.
struct OneWatch {
  OneWatch() : watch(readiness.watch(pair.ours.native_handle(), watcher)) {}
  ~OneWatch() { readiness.stop(watch); }
  asio::io_context ioc;
  SocketReadiness& readiness = asio::use_service<SocketReadiness>(ioc);
  Pair pair{ioc};
  std::shared_ptr<Counting> watcher = std::make_shared<Counting>();
  std::uint64_t watch;
};

TEST(SocketReadiness, TellsOfDataAndOfThePeersEnd) {
  OneWatch w;
  auto& [ioc, readiness, pair, watcher, watch] = w;
  asio::write(pair.theirs, asio::buffer(std::string("move")));
  ASSERT_TRUE(run_until(ioc, [&] { return watcher->told == 1; }));
  EXPECT_EQ(watcher->ends, 0);
  std::array<char, 16> buffer{};
  boost::system::error_code ec;
  EXPECT_EQ(pair.ours.read_some(asio::buffer(buffer), ec), 4u);
  EXPECT_EQ(watcher->writes, 0) << "not asked";

  pair.theirs.shutdown(tcp::socket::shutdown_send);
  ASSERT_TRUE(run_until(ioc, [&] { return watcher->ends == 1; }));
}

TEST(SocketReadiness, TellsOfRoomToSendOnceAskedAfterAShortSend) {
  OneWatch w;
  auto& [ioc, readiness, pair, watcher, watch] = w;
  // Sends until the socket takes no more (the peer reads nothing meanwhile).
  const std::vector<char> chunk(64 * 1024, 'x');
  const asio::const_buffer out = asio::buffer(chunk);
  std::size_t sent = 0;
  boost::system::error_code ec;
  for (;;) {
    const std::size_t n = pair.ours.write_some(std::span(&out, 1), ec);
    if (ec) break;
    sent += n;
  }
  ASSERT_EQ(ec, asio::error::would_block);
  readiness.want_writable(watch);
  ioc.restart();
  ioc.poll();
  EXPECT_EQ(watcher->writes, 0) << "told of room while the socket had none";
  // The peer reads it all: the socket has room again, and the watcher is told.
  std::vector<char> received(sent);
  asio::read(pair.theirs, asio::buffer(received));
  ASSERT_TRUE(run_until(ioc, [&] { return watcher->writes >= 1; }));
  EXPECT_GT(pair.ours.write_some(std::span(&out, 1), ec), 0u);
  EXPECT_FALSE(ec);
  EXPECT_EQ(watcher->told, 0) << "nothing to read";
}

TEST(SocketReadiness, AWatchStoppedDuringABatchIsNotToldAndItsWatcherLivesOnUntilAfter) {
  asio::io_context ioc;
  SocketReadiness& readiness = asio::use_service<SocketReadiness>(ioc);
  Pair first(ioc), second(ioc);
  auto a = std::make_shared<Counting>();
  auto b = std::make_shared<Counting>();
  std::weak_ptr<Counting> a_alive = a, b_alive = b;
  const std::uint64_t watch_a = readiness.watch(first.ours.native_handle(), std::move(a));
  const std::uint64_t watch_b = readiness.watch(second.ours.native_handle(), std::move(b));
  // Whichever is told first stops both, as a session's end can end another's: the other is
  // not told, and neither is destroyed inside the batch.
  bool alive_in_batch = true;
  const auto stop_both = [&] {
    readiness.stop(watch_a);
    readiness.stop(watch_b);
    alive_in_batch = !a_alive.expired() && !b_alive.expired();
  };
  a_alive.lock()->on_told = stop_both;
  b_alive.lock()->on_told = stop_both;
  asio::write(first.theirs, asio::buffer(std::string("x")));
  asio::write(second.theirs, asio::buffer(std::string("y")));
  ASSERT_TRUE(run_until(ioc, [&] { return a_alive.expired() && b_alive.expired(); }));
  EXPECT_TRUE(alive_in_batch);
}

TEST(SocketReadiness, AContextWithNothingWatchedRunsOutOfWork) {
  asio::io_context ioc;
  SocketReadiness& readiness = asio::use_service<SocketReadiness>(ioc);
  Pair pair(ioc);
  auto watcher = std::make_shared<Counting>();
  int told_total = 0;
  watcher->on_told = [&] { ++told_total; };
  const std::uint64_t watch = readiness.watch(pair.ours.native_handle(), watcher);
  readiness.stop(watch);
  ioc.restart();
  // run() returns only when no work is left: the wait for readiness has gone with the watch.
  // Should it not, the context is stopped after 5 s and the test fails.
  std::promise<void> returned;
  std::future<void> has_returned = returned.get_future();
  bool stopped = false;
  std::thread stopper([&] {
    if (has_returned.wait_for(5s) == std::future_status::timeout) {
      stopped = true;
      ioc.stop();
    }
  });
  ioc.run();
  returned.set_value();
  stopper.join();
  EXPECT_FALSE(stopped) << "the context still had work with nothing watched";
  EXPECT_EQ(told_total, 0);
}

}  // namespace
}  // namespace tilerace::server
