#include "server/game/tournament_members.hpp"

namespace tilerace::server {

void TournamentMembers::link(const std::string& player,
                             const std::shared_ptr<Tournament>& tournament) {
  std::lock_guard lock(mutex_);
  members_[player] = tournament;
}

void TournamentMembers::unlink(const std::string& player, const Tournament* tournament) {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(player);
  if (it != members_.end() && it->second.lock().get() == tournament) members_.erase(it);
}

std::shared_ptr<Tournament> TournamentMembers::of(std::string_view player) const {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(player);
  return it == members_.end() ? nullptr : it->second.lock();
}

}  // namespace tilerace::server
