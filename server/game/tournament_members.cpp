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

void TournamentMembers::tell_later(const std::string& player,
                                   std::shared_ptr<const std::string> message) {
  std::lock_guard lock(mutex_);
  notices_[player].push_back(std::move(message));
}

std::vector<std::shared_ptr<const std::string>> TournamentMembers::take_notices(
    std::string_view player) {
  std::lock_guard lock(mutex_);
  const auto it = notices_.find(player);
  if (it == notices_.end()) return {};
  std::vector<std::shared_ptr<const std::string>> taken = std::move(it->second);
  notices_.erase(it);
  return taken;
}

}  // namespace tilerace::server
