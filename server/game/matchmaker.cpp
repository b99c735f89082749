#include "server/game/matchmaker.hpp"

#include <algorithm>
#include <cmath>

namespace tilerace::server {

double Matchmaker::window_of(const Waiting& w, Clock::time_point now) const {
  return window_.at(w.seeking.rd,
                    std::chrono::duration_cast<std::chrono::milliseconds>(now - w.since));
}

Matchmaker::Outcome Matchmaker::pair_in(Pool& pool, std::size_t self, Clock::time_point now,
                                        const Pair& pair) {
  for (;;) {
    const Waiting& mine = pool[self];
    const double my_window = window_of(mine, now);
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      if (i == self) continue;
      const Waiting& w = pool[i];
      if (!within_reach(mine.seeking.rating, my_window, w.seeking.rating, window_of(w, now))) {
        continue;
      }
      const double gap = std::abs(w.seeking.rating - mine.seeking.rating);
      if (!best || gap < std::abs(pool[*best].seeking.rating - mine.seeking.rating)) best = i;
    }
    if (!best) return Outcome::queued;
    const std::shared_ptr<Player> waiting = pool[*best].player.lock();
    const Claim claim = waiting ? pair(waiting) : Claim::waiting_busy;
    if (claim == Claim::waiting_busy) {
      pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(*best));
      if (*best < self) --self;
      continue;
    }
    // Paired: both leave the pool (the later entry first, so the earlier one's index holds).
    // Refused: the asker leaves it.
    const bool paired = claim == Claim::paired;
    if (paired) pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(std::max(self, *best)));
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(paired ? std::min(self, *best) : self));
    return paired ? Outcome::paired : Outcome::refused;
  }
}

Matchmaker::Outcome Matchmaker::match(const Key& key, const std::shared_ptr<Player>& player,
                                      Seeking seeking, Clock::time_point now, const Pair& pair) {
  std::lock_guard lock(mutex_);
  std::optional<Clock::time_point> since;
  for (auto& [k, pool] : pools_) {
    std::erase_if(pool, [&](const Waiting& w) {
      const auto p = w.player.lock();
      if (p == player && k == key) since = w.since;
      return !p || p == player;
    });
  }
  Pool& pool = pools_[key];
  pool.push_back({player, seeking, since.value_or(now)});
  return pair_in(pool, pool.size() - 1, now, pair);
}

Matchmaker::Outcome Matchmaker::rematch(const Key& key, const std::shared_ptr<Player>& player,
                                        Clock::time_point now, const Pair& pair) {
  std::lock_guard lock(mutex_);
  const auto it = pools_.find(key);
  if (it == pools_.end()) return Outcome::gone;
  Pool& pool = it->second;
  std::erase_if(pool, [](const Waiting& w) { return w.player.expired(); });
  const auto self = std::find_if(pool.begin(), pool.end(),
                                 [&](const Waiting& w) { return w.player.lock() == player; });
  if (self == pool.end()) return Outcome::gone;
  return pair_in(pool, static_cast<std::size_t>(self - pool.begin()), now, pair);
}

bool Matchmaker::cancel(const Player& player) {
  std::lock_guard lock(mutex_);
  bool found = false;
  for (auto& [k, pool] : pools_) {
    found |= std::erase_if(pool, [&](const Waiting& w) {
               const auto p = w.player.lock();
               return !p || p.get() == &player;
             }) > 0;
  }
  return found;
}

}  // namespace tilerace::server
