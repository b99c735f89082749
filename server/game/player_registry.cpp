#include "server/game/player_registry.hpp"

#include <algorithm>

namespace tilerace::server {

std::shared_ptr<Player> PlayerRegistry::adopt(const PlayerRecord& record) {
  std::shared_ptr<Player> known;
  {
    std::lock_guard lock(mutex_);
    auto& slot = players_[record.id];
    if (!slot) {
      slot = std::make_shared<Player>(record.id, record.name, record.ratings);
      slot->registered = record.registered_at > 0;
      slot->bot_account = record.bot;
      return slot;
    }
    known = slot;
  }
  if (record.bot) known->bot_account = true;
  // The store's ratings are never behind this node's (a result is committed before it is
  // applied): races on other nodes sharing the store count from now on.
  std::lock_guard lock(known->mutex);
  known->ratings = record.ratings;
  return known;
}

std::shared_ptr<Player> PlayerRegistry::find(std::string_view id) const {
  std::lock_guard lock(mutex_);
  const auto it = players_.find(id);
  return it == players_.end() ? nullptr : it->second;
}

void PlayerRegistry::for_each(const std::function<void(Player&)>& f) const {
  std::vector<std::shared_ptr<Player>> all;
  {
    std::lock_guard lock(mutex_);
    all.reserve(players_.size());
    for (const auto& [id, p] : players_) all.push_back(p);
  }
  for (const auto& p : all) f(*p);
}

bool PlayerRegistry::attach(Player& player, const std::shared_ptr<Participant>& connection,
                            std::int64_t epoch, std::string session) {
  std::shared_ptr<Participant> old;
  bool superseded = false;  // another node took over before this connection began
  {
    std::lock_guard lock(player.mutex);
    superseded = epoch != 0 && epoch < player.newest_epoch;
    if (!superseded) {
      old = player.connection.lock();
      player.connection = connection;
      player.epoch = epoch;
      player.newest_epoch = epoch;
      player.session = std::move(session);
      player.settling = false;
    }
  }
  if (superseded) {
    if (connection) connection->close(4000);
    return false;
  }
  if (old && old != connection) old->close(4000);
  return true;
}

bool PlayerRegistry::detach(Player& player, const Participant* connection) {
  std::lock_guard lock(player.mutex);
  if (player.connection.lock().get() != connection) return false;
  player.connection.reset();
  player.settling = player.epoch != 0;
  return true;
}

std::shared_ptr<Participant> PlayerRegistry::superseded(Player& player, std::int64_t epoch) {
  std::lock_guard lock(player.mutex);
  player.newest_epoch = std::max(player.newest_epoch, epoch);
  if (player.epoch >= epoch) return nullptr;
  return player.connection.lock();
}

}  // namespace tilerace::server
