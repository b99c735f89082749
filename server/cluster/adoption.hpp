#pragma once
// Adopting the races of an orphan — a dead node, or this node after its restart
// (docs/architecture.md, "An adoption"): the whole path in one unit. The orphan's journaled
// races move to this node in the store under their next epoch (one statement: a race moves
// once, never to two nodes, and the orphan, if it still runs, can write them no more), are
// brought up to the move journal in Redis (taken over there first), are rebuilt once — the rooms
// that run them replay each game from seed and moves — and each rebuilt game is checked against the
// journal's last check; then its tournaments follow (their match rooms watched again), this
// node takes over their codes and the orphan is done. A single race a live node released here
// (server/cluster/race_release.hpp) comes the same way.
// Runs on the main context (the store's part on the StoreWorker's thread).
#include <boost/asio/awaitable.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/game/solo_games.hpp"
#include "server/store/game_store.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class RedisConnection;

// What the move journal holds for one race, per racer in record order: the moves appended
// ("!" at the end: resigned) and the check of where they led; nullopt where it has nothing.
struct JournalRead {
  std::vector<std::optional<std::string>> moves;
  std::vector<std::optional<std::string>> checks;
};

// Brings race, as the store journaled it (at most a second old), up to the move journal: a
// racer's moves are taken from it only where they continue the store's.
void merge_moves(ActiveRaceRecord& race, const std::vector<std::optional<std::string>>& moves);

// How many racers' rebuilt games (rebuilt[i]: game_check of racer i's) are not where the
// journal's last check says they were. A check of another move count is not compared (those
// moves were not taken); a racer without a check or a rebuilt game is not either.
std::size_t mismatches(const std::vector<std::string>& rebuilt,
                       const std::vector<std::optional<std::string>>& checks);

class Adoption {
 public:
  // Adopting the orphan's tournaments after its races: returns their codes (Cluster).
  using AdoptMore = std::function<boost::asio::awaitable<std::vector<std::string>>(std::string)>;
  // node: this node, reached at url.
  Adoption(std::string node, std::string url, RedisConnection& redis, StoreWorker& store,
           PlayerRegistry& players, SoloGames& solo, RoomRegistry& rooms, Metrics& metrics,
           AdoptMore adopt_tournaments = {});

  // Adopts each orphan's races (this node holds the leased claim on each). An orphan whose
  // adoption fails stays claimed by this node until the lease runs out; the next heartbeat
  // tries again, and a race already adopted is in no orphan's journal any more. Returns how
  // many rooms came back.
  boost::asio::awaitable<std::size_t> run(std::vector<std::string> orphans);
  // The race of room, which the live node `from` released to this node (RaceRelease), is
  // adopted the same way, alone (and its code taken over from `from`): its record as adopted,
  // or nullopt when `from` has no such race in the store any more. Throws when the store
  // cannot be reached.
  boost::asio::awaitable<std::optional<ActiveRaceRecord>> take(const std::string& from,
                                                               const std::string& room);

 private:
  boost::asio::awaitable<std::size_t> adopt(const std::string& orphan);
  // Steps 2-4 for races the store moved here from orphan: brought up to the move journal,
  // rebuilt, run, and checked; returns the codes of the rooms that run them.
  boost::asio::awaitable<std::vector<std::string>> run_here(std::vector<ActiveRaceRecord>& races,
                                                            const std::string& orphan);
  // Claims codes for this node (from: the live node they may be taken from, or empty).
  boost::asio::awaitable<void> claim(const std::vector<std::string>& codes,
                                     const std::string& from);
  // Makes this node the race's owner in the move journal (a stale copy's appends are refused
  // from here on), then reads what the journal has.
  boost::asio::awaitable<JournalRead> read_journal(const ActiveRaceRecord& race);

  std::string node_;
  std::string url_;
  RedisConnection& redis_;
  StoreWorker& store_;
  PlayerRegistry& players_;
  SoloGames& solo_;
  RoomRegistry& rooms_;
  Metrics& metrics_;
  AdoptMore adopt_tournaments_;
};

}  // namespace tilerace::server
