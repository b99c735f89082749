#include "server/store/store_worker.hpp"

#include "server/store/store.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <utility>

namespace tilerace::server {

namespace asio = boost::asio;

StoreWorker::StoreWorker(Store& store, Metrics& metrics,
                         std::chrono::steady_clock::duration group_interval)
    : store_(store),
      metrics_(metrics),
      group_interval_(group_interval),
      pool_(static_cast<std::size_t>(store.concurrency())) {}

template <class Surface>
Surface& StoreWorker::surface(Store& store) {
  return store;
}
template Store& StoreWorker::surface<Store>(Store&);
template AccountStore& StoreWorker::surface<AccountStore>(Store&);
template SocialStore& StoreWorker::surface<SocialStore>(Store&);
template GameStore& StoreWorker::surface<GameStore>(Store&);
template BoardStore& StoreWorker::surface<BoardStore>(Store&);
template DailyStore& StoreWorker::surface<DailyStore>(Store&);
template ModerationStore& StoreWorker::surface<ModerationStore>(Store&);
template OperatorStore& StoreWorker::surface<OperatorStore>(Store&);
template TournamentStore& StoreWorker::surface<TournamentStore>(Store&);

asio::awaitable<void> StoreWorker::run_on(const void* job, void (*call)(const void*, Store&)) {
  const auto task = [this, job, call]() -> asio::awaitable<void> {
    call(job, store_);
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

asio::awaitable<std::vector<Grant>> StoreWorker::record(Finished item) {
  Pending mine{.item = item};
  if (store_.concurrency() > 1) {  // a pool: the database groups concurrent commits itself
    const Job save = [&mine](Store& s) { mine.granted = s.record_one(mine.item); };
    co_await run(save);
    co_return std::move(mine.granted);
  }
  {
    const std::lock_guard lock(pending_mutex_);
    pending_.push_back(&mine);
  }
  // Within the interval of the last commit: wait out the rest of it here, holding no thread
  // (the storage thread goes on with other work), while what ends meanwhile joins pending_.
  const auto due = last_commit_.load(std::memory_order_relaxed) + group_interval_;
  if (std::chrono::steady_clock::now() < due) {
    asio::steady_timer interval(co_await asio::this_coro::executor, due);
    co_await interval.async_wait(asio::use_awaitable);
  }
  const Job save = [this, &mine](Store& s) { record_pending(s, mine); };
  co_await run(save);
  co_return std::move(mine.granted);
}

void StoreWorker::record_pending(Store& store, Pending& mine) {
  if (mine.done) {  // an earlier job's group held it
    if (mine.error) {
      mine.done = false;  // a retry (run's) records it anew
      std::rethrow_exception(std::exchange(mine.error, nullptr));
    }
    return;
  }
  const std::vector<Pending*> group = take_group(mine);
  if (group.size() == 1) {
    mine.granted = store.record_one(mine.item);  // a throw fails mine alone
    last_commit_.store(std::chrono::steady_clock::now(), std::memory_order_relaxed);
    return;
  }
  std::vector<Finished> items;
  items.reserve(group.size());
  for (const Pending* p : group) items.push_back(p->item);
  try {
    std::vector<std::vector<Grant>> granted = store.record_finished(items);
    for (std::size_t i = 0; i < group.size(); ++i) {
      group[i]->granted = std::move(granted[i]);
      group[i]->done = true;
    }
  } catch (...) {
    // Nothing was recorded, and any one of them may be what failed: each alone, so that what
    // each meets is its own.
    for (Pending* p : group) {
      try {
        p->granted = store.record_one(p->item);
      } catch (...) {
        p->error = std::current_exception();
      }
      p->done = true;
    }
  }
  last_commit_.store(std::chrono::steady_clock::now(), std::memory_order_relaxed);
  mine.done = false;  // its job ends here: done is for the items of later jobs
  if (mine.error) std::rethrow_exception(std::exchange(mine.error, nullptr));
}

std::vector<StoreWorker::Pending*> StoreWorker::take_group(Pending& mine) {
  std::vector<Pending*> group;
  {
    const std::lock_guard lock(pending_mutex_);
    group.swap(pending_);
  }
  if (std::find(group.begin(), group.end(), &mine) == group.end()) {
    group.insert(group.begin(), &mine);
  }
  return group;
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
