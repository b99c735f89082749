#include "server/store/store_worker.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <exception>
#include <utility>

namespace tilerace::server {

namespace asio = boost::asio;

struct StoreWorker::Queued {
  const Job* job;
  asio::any_completion_handler<void(std::exception_ptr)> done;
  asio::any_io_executor resume_on;  // done's executor, kept busy until done has run
};

StoreWorker::StoreWorker(Store& store, Metrics& metrics)
    : store_(store), metrics_(metrics), pool_(static_cast<std::size_t>(store.concurrency())) {}

StoreWorker::~StoreWorker() { pool_.join(); }

asio::awaitable<void> StoreWorker::run_once(const Job& job) {
  if (store_.concurrency() > 1) {
    const auto task = [this, &job]() -> asio::awaitable<void> {
      job(store_);
      co_return;
    };
    co_await asio::co_spawn(pool_.get_executor(), task, asio::use_awaitable);
    co_return;
  }
  co_await asio::async_initiate<const asio::use_awaitable_t<>&, void(std::exception_ptr)>(
      [this, &job](auto done) {
        asio::any_io_executor resume_on = asio::prefer(asio::get_associated_executor(done),
                                                       asio::execution::outstanding_work.tracked);
        std::lock_guard lock(mutex_);
        queued_.push_back({&job, std::move(done), std::move(resume_on)});
        if (!std::exchange(draining_, true)) asio::post(pool_, [this] { drain(); });
      },
      asio::use_awaitable);
}

void StoreWorker::drain() {
  for (;;) {
    std::vector<Queued> batch;
    {
      std::lock_guard lock(mutex_);
      if (queued_.empty()) {
        draining_ = false;
        return;
      }
      batch.swap(queued_);
    }
    std::vector<std::exception_ptr> errors(batch.size());
    const std::function<void()> calls = [&] {
      for (std::size_t i = 0; i < batch.size(); ++i) {
        try {
          (*batch[i].job)(store_);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    };
    try {
      if (batch.size() == 1) {
        calls();
      } else {
        store_.group(calls);
      }
    } catch (...) {
      // The group's commit failed: nothing of it stands.
      for (std::exception_ptr& e : errors) {
        if (!e) e = std::current_exception();
      }
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      Queued& q = batch[i];
      asio::post(q.resume_on,
                 [done = std::move(q.done), e = errors[i]]() mutable { std::move(done)(e); });
    }
  }
}

asio::awaitable<void> StoreWorker::run(const Job& job) {
  const auto give_up = std::chrono::steady_clock::now() + kRetryFor;
  auto backoff = std::chrono::milliseconds(100);
  for (;;) {
    try {
      co_await run_once(job);
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
