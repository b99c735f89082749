#pragma once
// The journal of active solo games: once a second (and once more at shutdown) the moves of
// every solo game that changed are written to the store, so a restart — clean or a crash —
// gives players their game back. A crash loses at most the last second of moves.
#include <boost/asio/awaitable.hpp>

#include <chrono>

#include "server/metrics.hpp"
#include "server/player_registry.hpp"
#include "server/store_worker.hpp"

namespace tilerace::server {

inline constexpr std::chrono::seconds kJournalInterval{1};

// Writes every changed, still playing solo game to the store; resumes when committed.
boost::asio::awaitable<void> flush_journal(PlayerRegistry& players, StoreWorker& store,
                                           Metrics& metrics);

}  // namespace tilerace::server
