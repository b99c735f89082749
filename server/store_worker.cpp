#include "server/store_worker.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace tilerace::server {

namespace asio = boost::asio;

asio::awaitable<void> StoreWorker::run(const Job& job) {
  const auto task = [this, &job]() -> asio::awaitable<void> {
    job(store_);
    co_return;
  };
  co_await asio::co_spawn(pool_.get_executor(), task, asio::use_awaitable);
}

}  // namespace tilerace::server
