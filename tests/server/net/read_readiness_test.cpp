// ReadReadiness over real sockets on 127.0.0.1: watchers are told of data and of the peer's end,
// a watch stopped in the middle of a batch is not told, and a context with nothing watched runs
// out of work.
#include "server/net/read_readiness.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Counts what it is told; on_told runs on each.
struct Counting final : ReadReadiness::Watcher {
  void readable(bool ended) override {
    ++told;
    if (ended) ++ends;
    if (on_told) on_told();
  }
  int told = 0;
  int ends = 0;
  std::function<void()> on_told;
};

// A connected pair: `ours` (on the context under test) and `theirs` (the peer).
struct Pair {
  explicit Pair(asio::io_context& ioc) : ours(ioc.get_executor()), theirs(ioc) {
    asio::basic_socket_acceptor<tcp, NetExecutor> acceptor(
        ioc.get_executor(), tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    theirs.connect(acceptor.local_endpoint());
    acceptor.accept(ours);
    ours.non_blocking(true);
  }
  TcpSocket ours;
  tcp::socket theirs;
};

// Runs ioc until done() or 10 s.
template <class Done>
bool run_until(asio::io_context& ioc, Done done) {
  ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!done() && std::chrono::steady_clock::now() < deadline) ioc.run_one_for(50ms);
  return done();
}

TEST(ReadReadiness, TellsOfDataAndOfThePeersEnd) {
  asio::io_context ioc;
  ReadReadiness& readiness = asio::use_service<ReadReadiness>(ioc);
  Pair pair(ioc);
  auto watcher = std::make_shared<Counting>();
  const std::uint64_t watch = readiness.watch(pair.ours.native_handle(), watcher);

  asio::write(pair.theirs, asio::buffer(std::string("move")));
  ASSERT_TRUE(run_until(ioc, [&] { return watcher->told == 1; }));
  EXPECT_EQ(watcher->ends, 0);
  std::array<char, 16> buffer{};
  EXPECT_EQ(pair.ours.read_some(asio::buffer(buffer)), 4u);

  pair.theirs.shutdown(tcp::socket::shutdown_send);
  ASSERT_TRUE(run_until(ioc, [&] { return watcher->ends == 1; }));
  readiness.stop(watch);
}

TEST(ReadReadiness, AWatchStoppedDuringABatchIsNotToldAndItsWatcherLivesOnUntilAfter) {
  asio::io_context ioc;
  ReadReadiness& readiness = asio::use_service<ReadReadiness>(ioc);
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

TEST(ReadReadiness, AContextWithNothingWatchedRunsOutOfWork) {
  asio::io_context ioc;
  ReadReadiness& readiness = asio::use_service<ReadReadiness>(ioc);
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
