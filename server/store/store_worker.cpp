#include "server/store/store_worker.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace tilerace::server {

namespace asio = boost::asio;

asio::awaitable<void> StoreWorker::run(const Job& job) {
  const auto task = [this, &job]() -> asio::awaitable<void> {
    job(store_);
    co_return;
  };
  const auto give_up = std::chrono::steady_clock::now() + kRetryFor;
  auto backoff = std::chrono::milliseconds(100);
  for (;;) {
    try {
      co_await asio::co_spawn(pool_.get_executor(), task, asio::use_awaitable);
      reachable();
      co_return;
    } catch (const StoreUnavailable& e) {
      unreachable(e);
      if (std::chrono::steady_clock::now() + backoff > give_up ||
          waiting_.load(std::memory_order_relaxed) >= kMaxWaiting) {
        throw;
      }
    }
    metrics_.store_retries_total.fetch_add(1, std::memory_order_relaxed);
    waiting_.fetch_add(1, std::memory_order_relaxed);
    asio::steady_timer timer(co_await asio::this_coro::executor, backoff);
    co_await timer.async_wait(asio::use_awaitable);
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
  }
}

asio::awaitable<void> StoreWorker::probe() {
  const auto task = [this]() -> asio::awaitable<void> {
    store_.ping();
    co_return;
  };
  try {
    co_await asio::co_spawn(pool_.get_executor(), task, asio::use_awaitable);
    reachable();
  } catch (const StoreUnavailable& e) {
    unreachable(e);
  } catch (const std::exception& e) {
    spdlog::error("database: {}", e.what());
  }
}

void StoreWorker::reachable() {
  if (metrics_.store_available.exchange(1, std::memory_order_relaxed) == 0) {
    spdlog::info("database: reachable again");
  }
}

void StoreWorker::unreachable(const StoreUnavailable& e) {
  if (metrics_.store_available.exchange(0, std::memory_order_relaxed) == 1) {
    spdlog::error("database: {} (degraded until it answers again)", e.what());
  }
}

}  // namespace tilerace::server
