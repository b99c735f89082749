#include "server/journal_loop.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/base/unix_time.hpp"
#include "server/game/store_journal.hpp"
#include "server/rules/daily.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

JournalLoop::JournalLoop(asio::io_context& ioc, SoloGames& solo, const RoomRegistry& rooms,
                         Tournaments& tournaments, StoreWorker& worker, Metrics& metrics)
    : timer_(ioc),
      solo_(solo),
      rooms_(rooms),
      tournaments_(tournaments),
      worker_(worker),
      metrics_(metrics) {}

void JournalLoop::start() { asio::co_spawn(timer_.get_executor(), run(), asio::detached); }

void JournalLoop::stop() {
  stopped_ = true;
  timer_.cancel();
}

asio::awaitable<void> JournalLoop::run() {
  while (!stopped_) {
    timer_.expires_after(kJournalInterval);
    auto [ec] = co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (ec || stopped_) co_return;  // shutdown: drain writes the last pass
    // A tournament before its matches' races: a journaled match race's tournament knows it.
    co_await tournaments_.journal(worker_);
    co_await flush_journal(solo_, rooms_, worker_, metrics_);
    co_await worker_.probe();  // /healthz notices the database leaving or coming back
    // Once a day (and at start): the abandoned daily attempts of the days before.
    if (std::string today = day_of(unix_ms()); today != closed_before_) {
      if (co_await close_dailies(worker_, today)) closed_before_ = std::move(today);
    }
  }
}

}  // namespace tilerace::server
