#pragma once
// The journal of what is being played: once a second (and once more at shutdown) the moves of
// every solo game that changed, and every running race (seed, moves per racer, time left), are
// written to the store, so a restart — clean or a crash — gives players their game or race
// back. A crash loses at most the last second of moves.
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/game/solo_games.hpp"
#include "server/store/account_store.hpp"
#include "server/store/game_store.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

inline constexpr std::chrono::seconds kJournalInterval{1};

// Writes every changed, still playing solo game and every running race to the store; resumes
// when committed (a failure is logged; the next pass writes the same again). A race the store
// says is another node's now (cluster mode) is handed over (Room::lose).
boost::asio::awaitable<void> flush_journal(SoloGames& solo, const RoomRegistry& rooms,
                                           StoreWorker& store, Metrics& metrics);

// A journaled race with its racers: their Players in record order, null for the computer and
// the ghost; a ghost room's run.
struct LoadedRace {
  ActiveRaceRecord race;
  std::vector<std::shared_ptr<Player>> racers;
  std::shared_ptr<const GhostRun> ghost;
};

// The racers of races, from the registry or else from the store (with their journaled solo
// games, restored), and a ghost's run from the store. A race with a racer or run the store does
// not know is left out (logged). Calls the
// store directly: run it inside a StoreWorker job, or before serving.
std::vector<LoadedRace> load_races(const std::vector<ActiveRaceRecord>& races,
                                   AccountStore& accounts, GameStore& games,
                                   PlayerRegistry& players, SoloGames& solo, Metrics& metrics);

// Runs loaded races here again (RoomRegistry::restore: every racer away with a full grace),
// so racers and spectators who return find them; a racer already connected here is told at
// once. Returns the codes of the rooms that came back.
std::vector<std::string> restore_races(const std::vector<LoadedRace>& races, RoomRegistry& rooms);

// Ends the daily attempts of days before today that were abandoned (rules/daily.hpp): each is
// recorded as it was last journaled. Returns false when the store failed (try again later).
// Every node may run it: recording a game twice changes nothing.
boost::asio::awaitable<bool> close_dailies(StoreWorker& store, std::string today);

// Rebuilds a journaled solo game for its player (active.player_id) loaded after a restart
// (no-op if the moves do not replay, or if the player already has a game in memory — unless
// replace: a shared store says another node went on with it, and its journal is the current
// game).
void restore_solo(SoloGames& solo, const ActiveGameRecord& active, Metrics& metrics,
                  bool replace = false);

}  // namespace tilerace::server
