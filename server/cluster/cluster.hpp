#pragma once
// This node's part in a cluster (--redis): several nodes, one world. Redis holds coordination
// only, all of it leased or rebuildable; PostgreSQL stays the authority (docs/operations.md,
// "Cluster mode", has the key layout):
// - a lease per node (its public URL, PX lease, refreshed every lease/5 by the heartbeat) in
//   the set of known nodes;
// - room codes: `code → node`, claimed atomically (absent or already ours) before a room
//   exists, released when it closes; the node's public rooms as one leased list;
// - the quick-match pools: entries `node|player` by rating; pairing takes the closest entry of
//   a live node within both windows in one script, or queues the asker (and asks again as
//   their window widens: the pool's order is the rating's). The node that pairs hosts the race and
//   leaves `match:<player>` (code and URL) for the partner's node, with a wake-up on that
//   node's control channel; the partner's node also looks on every heartbeat, so a lost
//   wake-up strands nobody.
// - a dead node (lease expired, not announced as restarting, or not back within its restart
//   grace) is reaped by the first survivor that notices: its listing goes and it becomes an
//   orphan. One live node at a time (a leased claim) adopts an orphan's journaled races
//   (Store::adopt_races moves them in one statement, so none is taken twice), runs them
//   (every racer away with a full grace from now; the clock goes on with the time it had
//   left) and takes over their codes. A node's own earlier races come back the same way
//   after its first heartbeat, never at start-up, so that it and a survivor never both run
//   one.
// - fencing (docs/operations.md, "Fencing"): each adoption gives a race its next epoch in the
//   store; the move journal keeps the race's owner beside its moves and refuses an append under
//   an earlier epoch, as the store refuses such a journal write or recording. A node whose lease
//   is not confirmed (no heartbeat went through for 4/5 of the lease, counted from its sending)
//   stops journaling moves in Redis: the store confirms each instead, fenced by the epoch.
// - gray failure (a slow, lossy link to Redis): the lease is renewed every lease/5 whether or
//   not the previous renewal was answered (up to kRenewalsInFlight at once), so a round trip
//   of up to 3/5 of the lease keeps it confirmed; the directory's housekeeping (reaping,
//   adoption, matches) runs beside the renewals, never in their way; moves are journaled on
//   a connection of their own, and an append still unanswered when the lease lapses fails
//   at that moment (its move goes to the store), not when the connection gives up.
//
// Threading (docs/architecture.md): the heartbeat, the Redis connections and the reaping run
// on the main context. The public calls may come from any thread; awaitables resume on the
// caller's executor.
// Everything that needs Redis throws RedisUnavailable while it cannot be reached; the node
// keeps serving what it hosts and the connection comes back by itself.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "server/base/metrics.hpp"
#include "server/cluster/cluster_events.hpp"
#include "server/cluster/race_release.hpp"
#include "server/cluster/redis_types.hpp"
#include "server/game/matchmaker.hpp"
#include "server/game/move_journal.hpp"
#include "server/game/solo_games.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

class PlayerRegistry;
class RedisConnection;
class RoomRegistry;
class StoreWorker;

struct ClusterSettings {
  std::string node;        // this node's name (--node-name), unique in the cluster
  std::string public_url;  // where clients reach this node (--public-url)
  RedisAddress redis;
  std::chrono::milliseconds lease{5000};  // a node silent this long is dead
  std::chrono::seconds restart_grace{
      60};  // how long a node that left on SIGTERM may take to return
};

class Cluster final : public MoveJournal {
 public:
  static constexpr int kRenewalsInFlight = 3;
  // A player waiting in a quick-match queue, on some node.
  struct Waiting {
    std::string node;
    std::string player;
  };

  // rooms and events are used from start() on only (they may be built after the cluster).
  Cluster(boost::asio::io_context& main, ClusterSettings settings, RoomRegistry& rooms,
          PlayerRegistry& players, SoloGames& solo, StoreWorker& store, Metrics& metrics,
          ClusterEvents& events);

  ~Cluster();

  // Connects and starts the heartbeat. Call once, on the main context's thread.
  void start();
  // SIGTERM: takes this node out of the directory (its lease, its listing, the codes of rooms
  // that end with it, its queue entries), marks it as restarting for restart_grace, and stops.
  // Never throws; gives up on Redis after a bounded wait. Call on the main context's thread.
  boost::asio::awaitable<void> leave();

  const ClusterSettings& settings() const noexcept { return settings_; }
  // Before start(): the URL is known once the port is bound.
  // Redis answers and this node's lease is in place (its last heartbeat went through).
  bool available() const noexcept;
  // The lease is confirmed: a heartbeat sent less than 4/5 of the lease ago went through, so no
  // other node can have taken this node for dead (the margin: docs/operations.md, "Fencing").
  bool lease_confirmed() const noexcept;

  // A code no room of any node has, claimed for a new room of this node.
  boost::asio::awaitable<std::string> claim_new_code();
  // The public URL of the live node hosting code (never this node); nullopt if none does.
  // beating: only a node heard from within its last two heartbeats is named (3/5 of its lease
  // left; one that missed two may be dead).
  boost::asio::awaitable<std::optional<std::string>> locate(const std::string& code,
                                                            bool beating = false);
  // The live node that has code, this one included (locate's reading of beating).
  boost::asio::awaitable<std::optional<NodeAddress>> owner_of(const std::string& code,
                                                              bool beating);
  // Where a racer of code's race who came back through this node is to go: its owner's URL (a
  // node heard from within two heartbeats), or this node's when the race runs here or is on
  // its way — an owner none of whose racers still holds the race there releases it here
  // (server/cluster/race_release.hpp); nullopt when no live node has it.
  boost::asio::awaitable<std::optional<std::string>> follow(const std::string& code);
  // The room closed: its code is free again (done in the background).
  void release(const std::string& code);
  // The public rooms of the other live nodes as of the last heartbeat: one encoded list each
  // (protocol::encode_room_list).
  std::vector<std::string> remote_rooms() const;
  // Where clients reach the other live nodes (their public URLs), as of the last heartbeat.
  std::vector<std::string> node_urls() const;
  // This node's rooms changed: the listing is published again soon.
  void rooms_changed();

  // Friends across nodes (server/play/cluster_reach.hpp). One Redis command (a Redis error reply
  // throws, as RedisUnavailable does).
  boost::asio::awaitable<RedisReply> command(std::vector<std::string> args);
  // Sends message on node's control channel (it reaches ClusterEvents::on_control there).
  boost::asio::awaitable<void> tell(const std::string& node, std::string message);

  // Arguments passed by reference must outlive the await.
  // Quick match for key (mode/size): the partner taken from the pool, or nullopt when player
  // was queued instead (kPair). again: player is waiting already (their window grew); then
  // gone is set when they are not in the pool any more.
  boost::asio::awaitable<std::optional<Waiting>> pair(const std::string& key,
                                                      const std::string& player, Seeking seeking,
                                                      bool again, bool& gone);
  // What player (of this node) waits in a pool with, if they do.
  std::optional<Seeking> seeking_of(const std::string& player) const;
  // Takes player out of its queue; false when it was not queued (a pairing took it already).
  boost::asio::awaitable<bool> unqueue(const std::string& player);
  // Takes player out of its queue in the background (it left or disconnected).
  void leave_queue(std::string player);
  // player (of this node) was paired here: no pairing will be left for them.
  void forget_queued(const std::string& player);
  // Tells waiting's node that its player was paired into room code here.
  boost::asio::awaitable<void> announce_match(const Waiting& waiting, const std::string& code);

  // The move journal (MoveJournal): each racer's moves appended to a Redis string
  // (moves:<race>:<position>, "!" at the end once resigned; a day's expiry), read back when a
  // race is adopted, fenced by the race's owner (owner:<race>). A race whose append failed once
  // (Redis away, the lease unconfirmed) is journaled there no further: the store confirms its
  // moves from then on, and its journal knows more than Redis does.
  boost::asio::awaitable<std::optional<RaceOwner>> append(MoveJournalEntry entry) override;
  void forget(const std::string& race_id) override;
  std::string url() const override { return settings_.public_url; }

 private:
  boost::asio::awaitable<void> heartbeat_loop();
  // One renewal of the lease (a beat), in the background of the heartbeat.
  boost::asio::awaitable<void> renew();
  boost::asio::awaitable<void> beat();
  // Reaps the dead nodes a beat found, starts adopting orphans, looks for matches.
  boost::asio::awaitable<void> tend(std::vector<std::string> dead);
  // Fails the journal's appends in flight the moment the lease lapses.
  boost::asio::awaitable<void> watch_lease();
  // Adopts the races of orphans (leased to this node; one pass of an Adoption, on the main
  // context, in the background of the heartbeat).
  boost::asio::awaitable<void> adopt(std::vector<std::string> orphans);
  // Adopts the race of room, which node released here (RaceRelease::Take).
  boost::asio::awaitable<std::optional<ActiveRaceRecord>> take_race(std::string node,
                                                                    std::string room);
  boost::asio::awaitable<void> check_matches();
  // After each (re)connection: claims the codes of this node's rooms, queues its waiting
  // players again and writes its players' records again (Redis may have restarted empty).
  boost::asio::awaitable<void> reclaim();
  boost::asio::awaitable<RedisReply> eval(std::string_view script,
                                          const std::vector<std::string>& args);
  // A beat soon (main context only): now if the heartbeat is idle, else right after this one.
  void wake();

  boost::asio::io_context& main_;
  ClusterSettings settings_;
  RoomRegistry& rooms_;
  PlayerRegistry& players_;
  SoloGames& solo_;  // adopted racers' solo games come back here
  ClusterEvents& events_;
  StoreWorker& store_;
  Metrics& metrics_;
  std::shared_ptr<RedisConnection> commands_;
  std::shared_ptr<RedisConnection> control_;  // SUBSCRIBEd to this node's control channel
  std::shared_ptr<RedisConnection> journal_;  // the move journal's appends only
  std::unique_ptr<RaceRelease> release_;      // races that follow their racers here
  boost::asio::steady_timer timer_;
  boost::asio::steady_timer lapse_;  // watch_lease's: at the end of the confirmed lease
  int renewing_ = 0;                 // renewals in flight
  bool tending_ = false;             // tend is running
  bool stopped_ = false;
  bool outage_reported_ = false;
  bool adopting_ = false;  // adopt is running
  bool joined_ = false;    // a beat went through since this process started
  bool dirty_ = false;     // woken since the last beat began
  bool idle_ = false;      // the heartbeat waits out its interval (a wake cuts it short)
  // Until when the lease is confirmed (steady clock, ns since its epoch).
  std::atomic<std::int64_t> lease_confirmed_until_{0};

  mutable std::mutex mutex_;  // guards what follows
  std::vector<std::string> remote_rooms_;
  std::vector<std::string> node_urls_;
  struct Queued {
    std::string key;
    Seeking seeking;
  };
  std::map<std::string, Queued> queued_;  // this node's players in a pool
  std::set<std::string> unjournaled_;     // races an append failed for
};

}  // namespace tilerace::server
