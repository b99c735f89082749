#pragma once
// The storage threads: every Store call runs here, never on a network thread. A coroutine
// co_awaits run(job) and resumes on its own executor once the job has finished. The store
// says how many jobs may run at once (Store::concurrency: SQLite one, PostgreSQL its pool).
//
// A job that throws StoreUnavailable (the database went away; nothing was changed) is run
// again with backoff, 100 ms doubling to 2 s, for at most kRetryFor; meanwhile the awaiting
// coroutine waits on its own executor, holding no thread. At most kMaxWaiting jobs wait so at
// once; past that, or past kRetryFor, the job fails with the StoreUnavailable and the caller
// answers as for any store failure (server/store.hpp). Metrics::store_available says whether
// the last job reached the database.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <chrono>
#include <functional>

#include "server/base/metrics.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

class StoreWorker {
 public:
  static constexpr std::chrono::seconds kRetryFor{30};
  static constexpr int kMaxWaiting = 10000;

  StoreWorker(Store& store, Metrics& metrics)
      : store_(store), metrics_(metrics), pool_(static_cast<std::size_t>(store.concurrency())) {}
  ~StoreWorker() { pool_.join(); }

  using Job = std::function<void(Store&)>;

  // Runs job on a storage thread; rethrows what it throws (after the retries above). job must
  // outlive the await. Callers pass a named Job, never a temporary: GCC 12 mishandles
  // temporaries that live across a co_await (it destroyed a std::function twice here), so
  // none may cross one.
  boost::asio::awaitable<void> run(const Job& job);

  // Asks the store once whether the database answers (Store::ping), for Metrics and /healthz;
  // never throws, never retries.
  boost::asio::awaitable<void> probe();

  // Finishes every job submitted so far and stops the threads.
  void join() { pool_.join(); }

 private:
  void reachable();
  void unreachable(const StoreUnavailable& e);

  Store& store_;
  Metrics& metrics_;
  std::atomic<int> waiting_{0};
  boost::asio::thread_pool pool_;
};

}  // namespace tilerace::server
