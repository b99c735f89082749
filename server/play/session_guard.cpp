#include "server/play/session_guard.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

#include "protocol/encode.hpp"
#include "server/game/room.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

// What the guard knows of one open connection here.
struct Open {
  std::shared_ptr<Player> player;
  std::shared_ptr<Participant> connection;
  std::int64_t epoch = 0;
  std::string session;
};

}  // namespace

void SessionGuard::start(asio::any_io_executor executor) {
  if (reach_ == nullptr) return;
  timer_ = std::make_shared<asio::steady_timer>(executor);
  asio::co_spawn(executor, sweep(), asio::detached);
}

void SessionGuard::stop() {
  stopped_ = true;
  if (timer_) timer_->cancel();
}

asio::awaitable<void> SessionGuard::sweep() {
  const auto timer = timer_;
  while (!stopped_) {
    timer->expires_after(every_);
    co_await timer->async_wait(asio::as_tuple(asio::use_awaitable));
    if (stopped_) co_return;
    try {
      co_await check();
    } catch (const std::exception& e) {
      spdlog::debug("connections check: {}", e.what());  // the next one tries again
    }
  }
}

asio::awaitable<std::int64_t> SessionGuard::take(std::string player_id) {
  if (reach_ == nullptr) co_return 0;
  std::int64_t epoch = 0;
  const StoreWorker::JobOn<AccountStore> take = [&](AccountStore& s) {
    epoch = s.take_connection(player_id);
  };
  co_await store_.run(take);
  try {
    co_await reach_->take_connection(player_id, epoch);
  } catch (const std::exception& e) {
    spdlog::debug("connection record of {}: {}", player_id, e.what());  // the sweep covers it
  }
  co_return epoch;
}

void SessionGuard::settle(const std::shared_ptr<Player>& player, std::function<void()> refresh) {
  std::int64_t epoch = 0;
  {
    std::lock_guard lock(player->mutex);
    epoch = player->epoch;
  }
  if (epoch == 0) return refresh();  // a single node (take gave no epoch): offline at once
  reach_->release_connection(player->id, epoch);
  // Redis's connection record first (a newer connection writes it before its welcome), the
  // store where Redis cannot say.
  auto work = [](StoreWorker& store, PlayerReach& reach, Metrics& metrics,
                 std::shared_ptr<Player> p, std::int64_t epoch,
                 std::function<void()> done) -> asio::awaitable<void> {
    std::int64_t newest = 0;
    bool recorded = false;
    try {
      newest = co_await reach.connection_elsewhere(p->id);
      recorded = true;
    } catch (const std::exception&) {
      // Redis cannot say: the store does, below.
    }
    if (!recorded) {
      ConnectionStates states;
      const std::vector<std::string> who{p->id};
      const StoreWorker::JobOn<AccountStore> read = [&](AccountStore& s) {
        states = s.check_connections(who, {});
      };
      try {
        co_await store.run(read);
      } catch (const std::exception& e) {
        spdlog::debug("where {} went: {}", p->id, e.what());  // offline, as far as is known
      }
      const auto it = states.players.find(p->id);
      newest = it == states.players.end() ? 0 : it->second.epoch;
    }
    if (newest > epoch) metrics.connections_moved_total.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard lock(p->mutex);
      p->newest_epoch = std::max(p->newest_epoch, newest);
      p->settling = false;
    }
    done();
  };
  asio::co_spawn(timer_->get_executor(),
                 work(store_, *reach_, metrics_, player, epoch, std::move(refresh)),
                 asio::detached);
}

void SessionGuard::taken_over(const std::string& player_id, std::int64_t epoch) {
  const auto player = players_.find(player_id);
  if (!player) return;
  if (const auto old = PlayerRegistry::superseded(*player, epoch)) {
    metrics_.connections_taken_over_total.fetch_add(1, std::memory_order_relaxed);
    old->close(4000);
  }
}

void SessionGuard::changed(const std::string& player_id) {
  if (reach_ != nullptr) reach_->recheck(player_id);
}

asio::awaitable<void> SessionGuard::check(std::vector<std::string> players) {
  // Asked for: those in memory, connected or not (a rename shows in their room); the sweep:
  // every open connection.
  const bool asked = !players.empty();
  if (!asked) players_.for_each([&players](Player& p) { players.push_back(p.id); });
  std::vector<Open> open;
  std::vector<std::string> ids, sessions;
  for (const std::string& id : players) {
    auto p = players_.find(id);
    if (!p || p->bot) continue;
    Open o;
    {
      std::lock_guard lock(p->mutex);
      o = {p, p->connection.lock(), p->epoch, p->session};
    }
    if (!o.connection && !asked) continue;
    ids.push_back(id);
    if (o.connection) sessions.push_back(o.session);
    open.push_back(std::move(o));
  }
  if (open.empty()) co_return;
  ConnectionStates states;
  const StoreWorker::JobOn<AccountStore> read = [&](AccountStore& s) {
    states = s.check_connections(ids, sessions);
  };
  co_await store_.run(read);
  for (const Open& o : open) {
    const auto it = states.players.find(o.player->id);
    if (it == states.players.end()) continue;
    const bool superseded = o.connection && it->second.epoch > o.epoch;
    // A newer connection elsewhere, whose message was lost (or this one closes slowly):
    if (superseded) taken_over(o.player->id, it->second.epoch);
    if (o.connection && !superseded && !states.sessions.contains(o.session)) {
      metrics_.sessions_revoked_total.fetch_add(1, std::memory_order_relaxed);
      o.connection->deliver(std::make_shared<const std::string>(protocol::encode_error(
          {protocol::ErrorCode::bad_token, "this session was signed out: sign in again", "token"},
          {})));
      o.connection->close(kSignedOutClose);
      continue;
    }
    if (it->second.name != o.player->name()) {
      o.player->set_name(it->second.name);
      if (o.connection) {
        o.connection->deliver(std::make_shared<const std::string>(
            protocol::encode_renamed({o.player->id, it->second.name}, {})));
      }
      if (const auto room = room_of(*o.player)) room->renamed(o.player->id, it->second.name);
    }
  }
}

}  // namespace tilerace::server
