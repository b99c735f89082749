#pragma once
// Runs a coroutine on a fresh io_context to its end and returns its result (or rethrows):
// for tests and benchmarks of coroutine APIs outside any server.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

namespace tilerace::testing {

template <typename T>
T run_coroutine(boost::asio::awaitable<T> work) {
  boost::asio::io_context ioc;
  auto result = boost::asio::co_spawn(ioc, std::move(work), boost::asio::use_future);
  ioc.run();
  return result.get();
}

}  // namespace tilerace::testing
