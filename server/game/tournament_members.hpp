#pragma once
// Who plays in which tournament here (one at a time): set when a player joins one, cleared when
// they leave it before its start and when it is over. Tournaments own themselves through their
// registry: this keeps them weakly. And what a player not connected is to be told when they
// sign in here (a walkover's race_over), the tournament over or not. Its own lock, a leaf; any
// thread.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tilerace::server {

class Tournament;

class TournamentMembers {
 public:
  void link(const std::string& player, const std::shared_ptr<Tournament>& tournament);
  // Clears player's link if it is still to tournament.
  void unlink(const std::string& player, const Tournament* tournament);
  // player's tournament here, or null.
  std::shared_ptr<Tournament> of(std::string_view player) const;
  // message is for player when they next sign in here; take_notices hands them over, in order.
  void tell_later(const std::string& player, std::shared_ptr<const std::string> message);
  std::vector<std::shared_ptr<const std::string>> take_notices(std::string_view player);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::weak_ptr<Tournament>, std::less<>> members_;
  std::map<std::string, std::vector<std::shared_ptr<const std::string>>, std::less<>> notices_;
};

}  // namespace tilerace::server
