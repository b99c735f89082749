#include "server/store_worker.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace tilerace::server {

namespace asio = boost::asio;

asio::awaitable<void> StoreWorker::run(std::function<void(Store&)> job) {
  co_await asio::co_spawn(
      pool_.get_executor(),
      [this, job = std::move(job)]() -> asio::awaitable<void> {
        job(store_);
        co_return;
      },
      asio::use_awaitable);
}

}  // namespace tilerace::server
