#include "server/journal.hpp"

#include <spdlog/spdlog.h>

namespace tilerace::server {

boost::asio::awaitable<void> flush_journal(PlayerRegistry& players, StoreWorker& store,
                                           Metrics& metrics) {
  std::vector<ActiveGameRecord> batch;
  players.for_each([&batch](Player& p) {
    std::lock_guard lock(p.mutex);
    if (!p.journal_dirty) return;
    p.journal_dirty = false;
    if (!p.solo || p.solo->game.state() != engine::GameState::playing) return;
    const SoloGame& s = *p.solo;
    batch.push_back({p.id, s.id, s.game.config(), s.explicit_seed, s.game.history(), s.started_at});
  });
  if (!batch.empty()) {
    try {
      const StoreWorker::Job save = [&batch](Store& s) { s.journal(batch); };
      co_await store.run(save);
    } catch (const std::exception& e) {
      spdlog::error("journaling {} games failed: {}", batch.size(), e.what());
    }
  }
  metrics.journal_flushes_total.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace tilerace::server
