#include "server/play/widening_search.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/rules/match_window.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

WideningSearch::WideningSearch(asio::any_io_executor executor, RoomDirectory& directory)
    : executor_(std::move(executor)), directory_(directory) {}

void WideningSearch::queued(const std::shared_ptr<Player>& player,
                            const protocol::RoomOptions& options) {
  auto timer = std::make_shared<Timer>(executor_);
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    auto& search = searches_[player.get()];
    if (search) search->cancel();  // queued again: the search starts over
    search = timer;
  }
  asio::co_spawn(executor_, search(player, options, std::move(timer)), asio::detached);
}

void WideningSearch::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  for (auto& [player, timer] : searches_) timer->cancel();
  searches_.clear();
}

bool WideningSearch::current(const Player& player, const std::shared_ptr<Timer>& timer) {
  std::lock_guard lock(mutex_);
  const auto it = searches_.find(&player);
  return it != searches_.end() && it->second == timer;
}

void WideningSearch::end(const Player& player, const std::shared_ptr<Timer>& timer) {
  std::lock_guard lock(mutex_);
  const auto it = searches_.find(&player);
  if (it != searches_.end() && it->second == timer) searches_.erase(it);
}

asio::awaitable<void> WideningSearch::search(std::shared_ptr<Player> player,
                                             protocol::RoomOptions options,
                                             std::shared_ptr<Timer> timer) {
  for (;;) {
    timer->expires_after(kMatchWindow.every);
    const auto [ec] = co_await timer->async_wait(asio::as_tuple(asio::use_awaitable));
    if (ec || !current(*player, timer)) co_return;  // stopped, or searching anew
    QuickMatchResult result;
    try {
      result = co_await directory_.rematch(player, options);
    } catch (const std::exception& e) {  // Redis away: they stay queued; ask again next time
      spdlog::debug("quick match: searching again: {}", e.what());
      continue;
    }
    switch (result.outcome) {
      case QuickMatchResult::Outcome::queued: continue;
      case QuickMatchResult::Outcome::paired: result.room->announce(nullptr, {}); break;
      case QuickMatchResult::Outcome::refused:
      case QuickMatchResult::Outcome::gone: break;
    }
    end(*player, timer);
    co_return;
  }
}

}  // namespace tilerace::server
