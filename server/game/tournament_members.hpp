#pragma once
// Who plays in which tournament here (one at a time): set when a player joins one, cleared when
// they leave it before its start and when it is over. Tournaments own themselves through their
// registry: this keeps them weakly. Its own lock, a leaf; any thread.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace tilerace::server {

class Tournament;

class TournamentMembers {
 public:
  void link(const std::string& player, const std::shared_ptr<Tournament>& tournament);
  // Clears player's link if it is still to tournament.
  void unlink(const std::string& player, const Tournament* tournament);
  // player's tournament here, or null.
  std::shared_ptr<Tournament> of(std::string_view player) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::weak_ptr<Tournament>, std::less<>> members_;
};

}  // namespace tilerace::server
