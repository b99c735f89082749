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
#include "server/store/store_worker.hpp"

namespace tilerace::server {

inline constexpr std::chrono::seconds kJournalInterval{1};

// Writes every changed, still playing solo game and every running race to the store; resumes
// when committed (a failure is logged; the next pass writes the same again).
boost::asio::awaitable<void> flush_journal(PlayerRegistry& players, const RoomRegistry& rooms,
                                           StoreWorker& store, Metrics& metrics);

// Brings back journaled races (their players loaded from the store, with their journaled
// solo games) so racers and spectators who return find them; a race whose room already runs
// here is skipped. Calls the store directly: call it before serving or inside a StoreWorker
// job. Returns the codes of the rooms that came back.
std::vector<std::string> restore_races(const std::vector<ActiveRaceRecord>& races, Store& store,
                                       PlayerRegistry& players, RoomRegistry& rooms,
                                       Metrics& metrics);

// Brings race, as the store journaled it (at most a second old), up to what the move journal
// holds: journaled[i] is racer i's moves there ("!" at the end: resigned), or nullopt. A
// racer's moves are taken from the move journal only where they continue the store's.
void merge_moves(ActiveRaceRecord& race, const std::vector<std::optional<std::string>>& journaled);

// How many of race's racers, rebuilt from its seed and their moves, are not where the move
// journal's last check (game_check) says they were; checks[i] is racer i's, or nullopt. A
// check of another move count (its moves were not taken) is not compared.
std::size_t contradicted(const ActiveRaceRecord& race,
                         const std::vector<std::optional<std::string>>& checks);

// Rebuilds a journaled solo game for a player loaded after a restart (no-op if the player
// already has a game in memory or the moves do not replay).
void restore_solo(Player& player, const ActiveGameRecord& active, Metrics& metrics);

}  // namespace tilerace::server
