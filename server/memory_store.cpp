#include "server/memory_store.hpp"

namespace tilerace::server {

void MemoryStore::add_player(const PlayerRecord& player) {
  std::lock_guard lock(mutex_);
  players_.emplace(player.id, player);
}

std::optional<PlayerRecord> MemoryStore::find_player(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = players_.find(id);
  if (it == players_.end()) return std::nullopt;
  return it->second;
}

void MemoryStore::record_game(const GameRecord& game) {
  std::lock_guard lock(mutex_);
  games_.emplace(game.id, game);
}

std::optional<GameRecord> MemoryStore::find_game(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = games_.find(id);
  if (it == games_.end()) return std::nullopt;
  return it->second;
}

void MemoryStore::record_race(const RaceRecord& race) {
  std::lock_guard lock(mutex_);
  if (!races_.emplace(race.id, race).second) return;
  for (const GameRecord& game : race.games) games_.emplace(game.id, game);
  for (const RatingUpdate& u : race.ratings) {
    const auto it = players_.find(u.player_id);
    if (it == players_.end()) continue;
    it->second.rating = u.after;
    it->second.wins += u.won;
    it->second.losses += u.lost;
  }
}

}  // namespace tilerace::server
