#include "server/game/player_registry.hpp"

namespace tilerace::server {

std::shared_ptr<Player> PlayerRegistry::adopt(const PlayerRecord& record) {
  std::lock_guard lock(mutex_);
  auto& slot = players_[record.id];
  if (!slot) {
    slot = std::make_shared<Player>(record.id, record.name, record.rating);
    slot->registered = record.registered_at > 0;
  }
  return slot;
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

void PlayerRegistry::attach(Player& player, const std::shared_ptr<Participant>& connection) {
  std::shared_ptr<Participant> old;
  {
    std::lock_guard lock(player.mutex);
    old = player.connection.lock();
    player.connection = connection;
  }
  if (old && old != connection) old->close(4000);
}

bool PlayerRegistry::detach(Player& player, const Participant* connection) {
  std::lock_guard lock(player.mutex);
  if (player.connection.lock().get() != connection) return false;
  player.connection.reset();
  return true;
}

}  // namespace tilerace::server
