#pragma once
// The storage thread: every Store call runs here, never on a network thread. A coroutine
// co_awaits run(job) and resumes on its own executor once the job has finished.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>

#include <functional>

#include "server/store.hpp"

namespace tilerace::server {

class StoreWorker {
 public:
  explicit StoreWorker(Store& store) : store_(store) {}
  ~StoreWorker() { pool_.join(); }

  // Runs job on the storage thread; rethrows what it throws.
  boost::asio::awaitable<void> run(std::function<void(Store&)> job);

  // Finishes every job submitted so far and stops the thread.
  void join() { pool_.join(); }

 private:
  Store& store_;
  boost::asio::thread_pool pool_{1};
};

}  // namespace tilerace::server
