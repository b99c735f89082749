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

  using Job = std::function<void(Store&)>;

  // Runs job on the storage thread; rethrows what it throws. job must outlive the await.
  // Callers pass a named Job, never a temporary: GCC 12 mishandles temporaries that live
  // across a co_await (it destroyed a std::function twice here), so none may cross one.
  boost::asio::awaitable<void> run(const Job& job);

  // Finishes every job submitted so far and stops the thread.
  void join() { pool_.join(); }

 private:
  Store& store_;
  boost::asio::thread_pool pool_{1};
};

}  // namespace tilerace::server
