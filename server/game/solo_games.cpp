#include "server/game/solo_games.hpp"

#include <utility>
#include <vector>

namespace tilerace::server {

std::shared_ptr<SoloSlot> SoloGames::slot(std::string_view player_id) {
  std::lock_guard lock(mutex_);
  auto it = slots_.find(player_id);
  if (it == slots_.end()) {
    std::string id(player_id);
    auto slot = std::make_shared<SoloSlot>(id);
    it = slots_.emplace(std::move(id), std::move(slot)).first;
  }
  return it->second;
}

std::shared_ptr<SoloSlot> SoloGames::find(std::string_view player_id) const {
  std::lock_guard lock(mutex_);
  const auto it = slots_.find(player_id);
  return it == slots_.end() ? nullptr : it->second;
}

void SoloGames::for_each(const std::function<void(SoloSlot&)>& f) const {
  std::vector<std::shared_ptr<SoloSlot>> all;
  {
    std::lock_guard lock(mutex_);
    all.reserve(slots_.size());
    for (const auto& [id, slot] : slots_) all.push_back(slot);
  }
  for (const auto& slot : all) f(*slot);
}

}  // namespace tilerace::server
