#pragma once
// Players by id, loaded from the Store on first use and kept while the process runs, and the
// rule that one player has one connection: attaching a new one closes the old with 4000.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/game/player.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

class PlayerRegistry {
 public:
  // The in-memory player for record, created from it on first use; one already in memory
  // takes the record's ratings (the store's, current).
  std::shared_ptr<Player> adopt(const PlayerRecord& record);
  // The player already in memory, or null.
  std::shared_ptr<Player> find(std::string_view id) const;

  // Calls f for every player in memory (not under the registry's lock).
  void for_each(const std::function<void(Player&)>& f) const;

  // Makes connection (under epoch, of session: cluster mode; else 0 and empty) the player's one
  // connection; an older one is closed with 4000. False, and connection closed with 4000
  // instead, when a newer epoch than this one is known (another node took over meanwhile).
  bool attach(Player& player, const std::shared_ptr<Participant>& connection,
              std::int64_t epoch = 0, std::string session = {});
  // Forgets connection if it is still the player's (a replaced one's late close is a no-op).
  // Returns true when it was; then, in cluster mode (an epoch), the player is settling.
  bool detach(Player& player, const Participant* connection);
  // Another node's connection of player took epoch: this node's, if older, is returned (for
  // closing with 4000) and the epoch is remembered.
  static std::shared_ptr<Participant> superseded(Player& player, std::int64_t epoch);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Player>, std::less<>> players_;
};

}  // namespace tilerace::server
