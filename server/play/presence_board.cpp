#include "server/play/presence_board.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>

#include "server/game/room.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::Presence;
using protocol::PresenceStatus;

namespace {

constexpr auto kSweepEvery = std::chrono::seconds(1);

}  // namespace

Presence PresenceBoard::presence_of(Player& player) const {
  std::shared_ptr<Room> room;
  std::string watching;
  bool solo = false;
  {
    std::lock_guard lock(player.mutex);
    if (player.connection.expired()) return {};
    room = player.room.lock();
  }
  if (const auto slot = solo_.find(player.id)) {
    std::lock_guard lock(slot->mutex);
    solo = slot->game && slot->game->game.state() == engine::GameState::playing &&
           slot->game->game.moves() > 0;
  }
  if (room) {
    Presence p{PresenceStatus::racing, room->code(), {}};
    for (const auto& racer : room->summary().players) {
      if (racer.id != player.id) p.with.push_back(racer.name);
    }
    return p;
  }
  {
    std::lock_guard lock(watching_mutex_);
    if (const auto it = watching_.find(player.id); it != watching_.end()) watching = it->second;
  }
  if (!watching.empty()) return {PresenceStatus::spectating, std::move(watching), {}};
  return {solo ? PresenceStatus::solo : PresenceStatus::online, "", {}};
}

void PresenceBoard::set_watching(const std::string& player, std::string code) {
  std::lock_guard lock(watching_mutex_);
  if (code.empty()) {
    watching_.erase(player);
  } else {
    watching_[player] = std::move(code);
  }
}

bool deliver_here(PlayerRegistry& players, std::string_view player, const SharedMessage& message) {
  const auto p = players.find(player);
  if (!p) return false;
  std::shared_ptr<Participant> connection;
  {
    std::lock_guard lock(p->mutex);
    connection = p->connection.lock();
  }
  if (!connection) return false;
  connection->deliver(message);
  return true;
}

asio::awaitable<void> send_anywhere(PlayerRegistry& players, PlayerReach* reach, std::string player,
                                    std::string message, bool reload) {
  if (deliver_here(players, player, std::make_shared<const std::string>(message))) co_return;
  if (reach == nullptr) co_return;
  try {
    co_await reach->send(player, std::move(message), reload);
  } catch (const std::exception& e) {
    spdlog::debug("to {} on another node: {}", player, e.what());
  }
}

void PresenceBoard::start(asio::any_io_executor executor) {
  timer_ = std::make_shared<asio::steady_timer>(executor);
  asio::co_spawn(executor, sweep(), asio::detached);
}

void PresenceBoard::stop() {
  stopped_ = true;
  if (timer_) timer_->cancel();
}

asio::awaitable<void> PresenceBoard::sweep() {
  const auto timer = timer_;
  while (!stopped_) {
    timer->expires_after(kSweepEvery);
    co_await timer->async_wait(asio::as_tuple(asio::use_awaitable));
    if (stopped_) co_return;
    players_.for_each([this](Player& p) {
      if (!p.bot) refresh(p);
    });
  }
}

void PresenceBoard::refresh(Player& player) {
  Presence now = presence_of(player);
  bool moved = false;  // their connection is on another node now: its presence is theirs
  if (now.status == PresenceStatus::offline) {
    std::lock_guard lock(player.mutex);
    if (player.settling) return;  // not known yet (SessionGuard::settle)
    moved = player.newest_epoch > player.epoch;
  }
  {
    std::lock_guard lock(mutex_);
    if (moved) {
      pushed_.erase(player.id);
      return;
    }
    const auto it = pushed_.find(player.id);
    const Presence& before = it == pushed_.end() ? Presence{} : it->second;
    if (before == now) return;
    if (now.status == PresenceStatus::offline) {
      pushed_.erase(it);
    } else if (it == pushed_.end()) {
      pushed_.emplace(player.id, now);
    } else {
      it->second = now;
    }
  }
  const std::vector<std::string> friends = friends_.of(player.id);
  std::string text = protocol::encode_presence(player.id, now);
  const auto message = std::make_shared<const std::string>(text);
  std::vector<std::string> elsewhere;
  for (const std::string& f : friends) {
    if (!deliver_here(players_, f, message)) elsewhere.push_back(f);
  }
  if (reach_ != nullptr) reach_->publish(player.id, std::move(text), std::move(elsewhere));
}

asio::awaitable<std::map<std::string, Presence>> PresenceBoard::presences(
    std::vector<std::string> players) {
  std::map<std::string, Presence> out;
  std::vector<std::string> elsewhere;
  for (const std::string& id : players) {
    const auto p = players_.find(id);
    Presence here = p ? presence_of(*p) : Presence{};
    if (here.status == PresenceStatus::offline) elsewhere.push_back(id);
    out[id] = std::move(here);
  }
  if (reach_ == nullptr || elsewhere.empty()) co_return out;
  try {
    const auto remote = co_await reach_->presences(std::move(elsewhere));
    for (const auto& [id, text] : remote) {
      if (auto decoded = protocol::decode_presence(text)) out[id] = std::move(decoded->second);
    }
  } catch (const std::exception& e) {
    spdlog::debug("presence: {}", e.what());  // shown as offline until the cluster answers
  }
  co_return out;
}

asio::awaitable<void> PresenceBoard::tell(std::string to, std::string of) {
  std::vector<std::string> who{of};  // named: GCC 12 and braced lists in co_await
  auto known = co_await presences(std::move(who));
  deliver_here(players_, to,
               std::make_shared<const std::string>(protocol::encode_presence(of, known[of])));
}

}  // namespace tilerace::server
