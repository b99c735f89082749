#pragma once
// Each player's current solo game, by player id: solo play's own state (new_game replaces the
// game, its moves change it), the journal's (it writes what changed once a second), and what
// presence and sign-in read of it. Kept while the process runs, as players are
// (PlayerRegistry). A slot per player with its own lock: a move takes only its player's.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "server/rules/solo_game.hpp"

namespace tilerace::server {

struct SoloSlot {
  explicit SoloSlot(std::string player) : player_id(std::move(player)) {}
  const std::string player_id;
  std::mutex mutex;              // guards the fields below
  std::optional<SoloGame> game;  // the current game, until new_game replaces it
  bool dirty = false;            // game changed since the journal last wrote it
};

class SoloGames {
 public:
  // player_id's slot, made empty on first use. Never dropped: a caller may keep it.
  std::shared_ptr<SoloSlot> slot(std::string_view player_id);
  // player_id's slot if made, else null.
  std::shared_ptr<SoloSlot> find(std::string_view player_id) const;
  // Calls f for every slot, not under this registry's lock (f takes the slot's).
  void for_each(const std::function<void(SoloSlot&)>& f) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<SoloSlot>, std::less<>> slots_;
};

}  // namespace tilerace::server
