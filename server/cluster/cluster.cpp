#include "server/cluster/cluster.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <set>
#include <utility>

#include "protocol/encode.hpp"
#include "server/cluster/redis_connection.hpp"
#include "server/game/journal.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using asio::as_tuple;
using asio::use_awaitable;

namespace {

// Keys (all under tilerace:): node:<n> its URL, leased; nodes the set of known nodes;
// rooms:<n> its public rooms (an encoded list), leased; code:<c> → node; codes:<n> the
// codes it claimed; leaving:<n> it left on SIGTERM and may come back; orphans the nodes whose
// journaled races wait to be adopted; adopting:<n> → the node adopting them, leased;
// queue:<key> the quick-match queue (entries node|player); match:<player> "code url" of its
// paired room; channel control:<n>.

// ARGV: node, url, lease ms, rooms, 1 on this process's first beat. Refreshes this node;
// returns {lists of the other live nodes, names of nodes whose lease is gone}. A first beat
// makes this node's earlier races (if any) orphans, to be adopted like a dead node's.
constexpr std::string_view kBeat = R"lua(
redis.call('SET', 'tilerace:node:' .. ARGV[1], ARGV[2], 'PX', ARGV[3])
redis.call('SET', 'tilerace:rooms:' .. ARGV[1], ARGV[4], 'PX', ARGV[3])
redis.call('SADD', 'tilerace:nodes', ARGV[1])
if ARGV[5] == '1' then redis.call('SADD', 'tilerace:orphans', ARGV[1]) end
local live, dead = {}, {}
for _, n in ipairs(redis.call('SMEMBERS', 'tilerace:nodes')) do
  if n ~= ARGV[1] then
    if redis.call('EXISTS', 'tilerace:node:' .. n) == 1 then
      table.insert(live, redis.call('GET', 'tilerace:rooms:' .. n) or '[]')
    elseif redis.call('EXISTS', 'tilerace:leaving:' .. n) == 0 then
      table.insert(dead, n)
    end
  end
end
return {live, dead}
)lua";

// ARGV: node. Takes a dead node out of the directory (its listing; its codes stay until its
// races are adopted) and makes it an orphan; 1 for the one caller that did it.
constexpr std::string_view kReap = R"lua(
local n = ARGV[1]
if redis.call('EXISTS', 'tilerace:node:' .. n) == 1 then return 0 end
if redis.call('EXISTS', 'tilerace:leaving:' .. n) == 1 then return 0 end
if redis.call('SREM', 'tilerace:nodes', n) == 0 then return 0 end
redis.call('DEL', 'tilerace:rooms:' .. n)
redis.call('SADD', 'tilerace:orphans', n)
return 1
)lua";

// ARGV: node, lease ms. The orphans this node may adopt now: itself (after a restart), or a
// node still dead, that nobody else is adopting (adopting:<o> is leased: an adopter that dies
// lets go). Returns their names, each now leased to this node.
constexpr std::string_view kOrphans = R"lua(
local out = {}
for _, o in ipairs(redis.call('SMEMBERS', 'tilerace:orphans')) do
  if o == ARGV[1] or redis.call('EXISTS', 'tilerace:node:' .. o) == 0 then
    local holder = redis.call('GET', 'tilerace:adopting:' .. o)
    if not holder or holder == ARGV[1] then
      redis.call('SET', 'tilerace:adopting:' .. o, ARGV[1], 'PX', ARGV[2])
      table.insert(out, o)
    end
  end
end
return out
)lua";

// ARGV: node, orphan. The orphan's races are adopted: the codes of its rooms that did not come
// back are freed and it is an orphan no more. 0 if the lease on it was lost meanwhile.
constexpr std::string_view kAdopted = R"lua(
local o = ARGV[2]
if redis.call('GET', 'tilerace:adopting:' .. o) ~= ARGV[1] then return 0 end
if o ~= ARGV[1] then
  for _, c in ipairs(redis.call('SMEMBERS', 'tilerace:codes:' .. o)) do
    if redis.call('GET', 'tilerace:code:' .. c) == o then redis.call('DEL', 'tilerace:code:' .. c) end
  end
  redis.call('DEL', 'tilerace:codes:' .. o)
end
redis.call('SREM', 'tilerace:orphans', o)
redis.call('DEL', 'tilerace:adopting:' .. o)
return 1
)lua";

// ARGV: moves key, moves, check key, check. Appends a racer's moves to their journal and
// keeps the check of where they led (both kept a day at most).
constexpr std::string_view kJournal = R"lua(
redis.call('APPEND', ARGV[1], ARGV[2])
redis.call('PEXPIRE', ARGV[1], 86400000)
redis.call('SET', ARGV[3], ARGV[4], 'PX', 86400000)
return 1
)lua";

std::string moves_key(const std::string& race_id, std::size_t position) {
  return "tilerace:moves:" + race_id + ":" + std::to_string(position);
}
std::string check_key(const std::string& race_id, std::size_t position) {
  return "tilerace:check:" + race_id + ":" + std::to_string(position);
}

// ARGV: code, node. 1 if the code is now this node's (it was free, ours already, or held by
// an orphan this node is adopting).
constexpr std::string_view kClaim = R"lua(
local owner = redis.call('GET', 'tilerace:code:' .. ARGV[1])
if owner and owner ~= ARGV[2] and
   redis.call('GET', 'tilerace:adopting:' .. owner) ~= ARGV[2] then return 0 end
redis.call('SET', 'tilerace:code:' .. ARGV[1], ARGV[2])
redis.call('SADD', 'tilerace:codes:' .. ARGV[2], ARGV[1])
if owner and owner ~= ARGV[2] then redis.call('SREM', 'tilerace:codes:' .. owner, ARGV[1]) end
return 1
)lua";

// ARGV: node, codes… Frees codes of this node.
constexpr std::string_view kRelease = R"lua(
for i = 2, #ARGV do
  if redis.call('GET', 'tilerace:code:' .. ARGV[i]) == ARGV[1] then
    redis.call('DEL', 'tilerace:code:' .. ARGV[i])
  end
  redis.call('SREM', 'tilerace:codes:' .. ARGV[1], ARGV[i])
end
return 1
)lua";

// ARGV: code. {node, url} of the live node that has it, or nil.
constexpr std::string_view kLocate = R"lua(
local owner = redis.call('GET', 'tilerace:code:' .. ARGV[1])
if not owner then return nil end
local url = redis.call('GET', 'tilerace:node:' .. owner)
if not url then return nil end
return {owner, url}
)lua";

// ARGV: queue key, node, player. Pops the longest-waiting entry of another player on a live
// node ({node, player}); otherwise queues the asker (once) and returns nil. Entries of a node
// whose lease lapsed but which is not reaped yet (or is restarting) keep their places; those
// of a reaped node are dropped.
constexpr std::string_view kPair = R"lua(
local q = 'tilerace:queue:' .. ARGV[1]
local mine = ARGV[2] .. '|' .. ARGV[3]
redis.call('LREM', q, 0, mine)
local kept = {}
local found = nil
while true do
  local head = redis.call('LPOP', q)
  if not head then break end
  local bar = string.find(head, '|', 1, true)
  if bar then
    local node, player = string.sub(head, 1, bar - 1), string.sub(head, bar + 1)
    if player ~= ARGV[3] and redis.call('EXISTS', 'tilerace:node:' .. node) == 1 then
      found = {node, player}
      break
    end
    if redis.call('SISMEMBER', 'tilerace:nodes', node) == 1 or
       redis.call('EXISTS', 'tilerace:leaving:' .. node) == 1 then
      table.insert(kept, head)
    end
  end
end
for i = #kept, 1, -1 do redis.call('LPUSH', q, kept[i]) end
if found then return found end
redis.call('RPUSH', q, mine)
return nil
)lua";

// ARGV: queue key, node, player [, 1 to queue it again at the end]. The number removed.
constexpr std::string_view kUnqueue = R"lua(
local q = 'tilerace:queue:' .. ARGV[1]
local removed = redis.call('LREM', q, 0, ARGV[2] .. '|' .. ARGV[3])
if ARGV[4] then redis.call('RPUSH', q, ARGV[2] .. '|' .. ARGV[3]) end
return removed
)lua";

// ARGV: players… Takes the pairings left for them: {player, "code url", …}.
constexpr std::string_view kTakeMatches = R"lua(
local out = {}
for _, p in ipairs(ARGV) do
  local v = redis.call('GETDEL', 'tilerace:match:' .. p)
  if v then table.insert(out, p); table.insert(out, v) end
end
return out
)lua";

// ARGV: node, restart grace ms, codes to free… Takes the node out of the directory.
constexpr std::string_view kLeave = R"lua(
local n = ARGV[1]
redis.call('DEL', 'tilerace:node:' .. n, 'tilerace:rooms:' .. n)
redis.call('SET', 'tilerace:leaving:' .. n, '1', 'PX', ARGV[2])
for i = 3, #ARGV do
  if redis.call('GET', 'tilerace:code:' .. ARGV[i]) == n then
    redis.call('DEL', 'tilerace:code:' .. ARGV[i])
  end
  redis.call('SREM', 'tilerace:codes:' .. n, ARGV[i])
end
return 1
)lua";

constexpr auto kMatchKept = std::chrono::seconds(30);
constexpr auto kMinBeatGap = std::chrono::milliseconds(50);
constexpr int kCodeAttempts = 16;

}  // namespace

Cluster::Cluster(asio::io_context& main, ClusterSettings settings, RoomRegistry& rooms,
                 PlayerRegistry& players, StoreWorker& store, Metrics& metrics)
    : main_(main),
      settings_(std::move(settings)),
      rooms_(rooms),
      players_(players),
      store_(store),
      metrics_(metrics),
      commands_(
          std::make_shared<RedisConnection>(main.get_executor(), settings_.redis, "commands")),
      control_(std::make_shared<RedisConnection>(main.get_executor(), settings_.redis, "control")),
      timer_(main) {}

void Cluster::start() {
  commands_->start([this] {
    asio::co_spawn(main_, reclaim(), asio::detached);
    wake();
  });
  control_->start(
      [this] {
        control_->send({"SUBSCRIBE", "tilerace:control:" + settings_.node});
      },
      [this](const RedisReply& push) {
        // ["message", channel, payload]: a pairing waits for one of our players.
        if (push.elements.size() == 3 && push.elements[0].str == "message") {
          asio::co_spawn(main_, check_matches(), asio::detached);
        }
      });
  asio::co_spawn(main_, heartbeat_loop(), asio::detached);
}

bool Cluster::available() const noexcept {
  return commands_->connected() && metrics_.cluster_available.load() == 1;
}

void Cluster::wake() {
  dirty_ = true;
  if (idle_) timer_.cancel();
}

void Cluster::rooms_changed() {
  asio::post(main_, [this] { wake(); });
}

asio::awaitable<RedisReply> Cluster::eval(std::string_view script,
                                          const std::vector<std::string>& args) {
  std::vector<std::string> command{"EVAL", std::string(script), "0"};
  command.insert(command.end(), args.begin(), args.end());
  RedisReply reply = co_await commands_->command(std::move(command));
  if (reply.error()) throw std::runtime_error("redis: " + reply.str);
  co_return reply;
}

asio::awaitable<void> Cluster::heartbeat_loop() {
  const auto every = settings_.lease / 5;
  while (!stopped_) {
    dirty_ = false;
    bool beaten = false;
    try {
      // Until the first connection there is nothing to report (the connection logs its tries).
      if (commands_->connected() || metrics_.cluster_available.load() == 1) {
        co_await beat();
        beaten = true;
      }
    } catch (const std::exception& e) {
      if (metrics_.cluster_available.exchange(0, std::memory_order_relaxed) == 1) {
        spdlog::error("cluster: {} (cross-node features unavailable until it answers)", e.what());
        outage_reported_ = true;
      }
    }
    if (stopped_) co_return;
    // At most one beat per kMinBeatGap however often rooms change; then one per `every`,
    // sooner when woken (a connection made, a room opened or closed).
    if (beaten) {
      timer_.expires_after(kMinBeatGap);
      co_await timer_.async_wait(as_tuple(use_awaitable));
      if (stopped_) co_return;
      if (dirty_) continue;
    }
    idle_ = true;
    timer_.expires_after(beaten ? every - kMinBeatGap : every);
    co_await timer_.async_wait(as_tuple(use_awaitable));
    idle_ = false;
  }
}

asio::awaitable<void> Cluster::beat() {
  const std::string listing = protocol::encode_room_list(rooms_.public_rooms());
  const std::vector<std::string> args{settings_.node, settings_.public_url,
                                      std::to_string(settings_.lease.count()), listing,
                                      joined_ ? "0" : "1"};
  const RedisReply reply = co_await eval(kBeat, args);
  joined_ = true;
  metrics_.cluster_available.store(1, std::memory_order_relaxed);
  if (std::exchange(outage_reported_, false)) spdlog::info("cluster: redis answers again");
  std::vector<std::string> remote;
  std::vector<std::string> dead;
  if (reply.elements.size() == 2) {
    for (const auto& e : reply.elements[0].elements) remote.push_back(e.str);
    for (const auto& e : reply.elements[1].elements) dead.push_back(e.str);
  }
  metrics_.cluster_nodes.store(static_cast<std::int64_t>(remote.size() + 1),
                               std::memory_order_relaxed);
  {
    std::lock_guard lock(mutex_);
    remote_rooms_ = std::move(remote);
  }
  for (const std::string& node : dead) {
    const std::vector<std::string> reap_args{node};
    const RedisReply reaped = co_await eval(kReap, reap_args);
    if (reaped.integer == 1) {
      spdlog::warn("cluster: node {} is gone (lease expired): its races are to be adopted", node);
    }
  }
  if (!adopting_) {
    const std::vector<std::string> orphan_args{settings_.node,
                                               std::to_string(settings_.lease.count())};
    const RedisReply orphans = co_await eval(kOrphans, orphan_args);
    std::vector<std::string> names;
    for (const auto& e : orphans.elements) names.push_back(e.str);
    // Never awaited here: the store may take its time (PostgreSQL away), the lease may not.
    if (!names.empty()) {
      adopting_ = true;
      asio::co_spawn(main_, adopt(std::move(names)), asio::detached);
    }
  }
  co_await check_matches();
}

asio::awaitable<void> Cluster::adopt(std::vector<std::string> orphans) {
  for (const std::string& orphan : orphans) {
    std::vector<ActiveRaceRecord> races;
    std::vector<std::string> codes;
    const StoreWorker::Job take = [&](Store& s) { races = s.adopt_races(orphan); };
    const StoreWorker::Job run = [&](Store& s) {
      codes = restore_races(races, s, players_, rooms_, metrics_);
    };
    try {
      co_await store_.run(take);
      try {
        co_await read_journal(races);
      } catch (const std::exception& e) {
        // They are this node's now: they run with what the store's journal has.
        spdlog::error("cluster: the move journal of node {} cannot be read: {}", orphan, e.what());
      }
      co_await store_.run(run);
      for (const std::string& code : codes) {
        const std::vector<std::string> claim_args{code, settings_.node};
        const RedisReply claimed = co_await eval(kClaim, claim_args);
        if (claimed.integer != 1) {
          spdlog::error("cluster: room {} came back here but its code is taken", code);
        }
      }
      const std::vector<std::string> done_args{settings_.node, orphan};
      co_await eval(kAdopted, done_args);
    } catch (const std::exception& e) {
      // Still an orphan leased to this node: the next heartbeat tries again (a race adopted
      // already is in no other node's journal: it is not taken twice).
      spdlog::error("cluster: adopting the races of node {}: {}", orphan, e.what());
      continue;
    }
    if (!codes.empty()) {
      spdlog::warn("cluster: {} races of node {} adopted", codes.size(), orphan);
      rooms_changed();
    }
  }
  adopting_ = false;
}

asio::awaitable<void> Cluster::read_journal(std::vector<ActiveRaceRecord>& races) {
  for (ActiveRaceRecord& race : races) {
    const std::size_t n = race.racers.size();
    std::vector<std::string> command{"MGET"};
    for (std::size_t i = 0; i < n; ++i) command.push_back(moves_key(race.id, i));
    for (std::size_t i = 0; i < n; ++i) command.push_back(check_key(race.id, i));
    const RedisReply reply = co_await commands_->command(std::move(command));
    std::vector<std::optional<std::string>> journaled, checks;
    for (std::size_t i = 0; i < reply.elements.size(); ++i) {
      const RedisReply& e = reply.elements[i];
      (i < n ? journaled : checks)
          .push_back(e.type == RedisReply::Type::string ? std::optional(e.str) : std::nullopt);
    }
    merge_moves(race, journaled);
    // The rebuilt games run either way (seed and moves are the truth); a contradiction means
    // the nodes disagree on the rules (different versions) and is worth an operator's look.
    if (const std::size_t wrong = contradicted(race, checks); wrong > 0) {
      metrics_.adoption_mismatches_total.fetch_add(wrong, std::memory_order_relaxed);
      spdlog::error("cluster: race {} rebuilt: {} racers' games differ from their journal's check",
                    race.id, wrong);
    }
  }
}

asio::awaitable<void> Cluster::append(JournalEntry entry) {
  {
    std::lock_guard lock(mutex_);
    if (unjournaled_.count(entry.race_id) > 0) {
      throw RedisUnavailable("this race's journal missed a move: it is journaled no further");
    }
  }
  const std::vector<std::string> args{moves_key(entry.race_id, entry.position),
                                      entry.resigned ? entry.moves + "!" : entry.moves,
                                      check_key(entry.race_id, entry.position), entry.check};
  try {
    co_await eval(kJournal, args);
  } catch (const std::exception&) {
    std::lock_guard lock(mutex_);
    unjournaled_.insert(entry.race_id);
    throw;
  }
}

void Cluster::forget(const std::string& race_id) {
  {
    std::lock_guard lock(mutex_);
    unjournaled_.erase(race_id);
  }
  asio::co_spawn(
      main_,
      [this, race_id]() -> asio::awaitable<void> {
        std::vector<std::string> command{"DEL"};
        for (std::size_t i = 0; i < static_cast<std::size_t>(protocol::kMaxPlayers); ++i) {
          command.push_back(moves_key(race_id, i));
          command.push_back(check_key(race_id, i));
        }
        try {
          co_await commands_->command(std::move(command));
        } catch (const std::exception&) {
          // Expires by itself within a day.
        }
      },
      asio::detached);
}

asio::awaitable<void> Cluster::check_matches() {
  std::vector<std::string> waiting;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [player, key] : queued_) waiting.push_back(player);
  }
  if (waiting.empty()) co_return;
  const RedisReply reply = co_await eval(kTakeMatches, waiting);
  for (std::size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
    const std::string& id = reply.elements[i].str;
    const std::string& value = reply.elements[i + 1].str;
    const auto space = value.find(' ');
    if (space == std::string::npos) continue;
    {
      std::lock_guard lock(mutex_);
      queued_.erase(id);
    }
    const auto player = players_.find(id);
    if (!player) continue;
    std::shared_ptr<Participant> connection;
    {
      std::lock_guard lock(player->mutex);
      connection = player->connection.lock();
    }
    // Not connected any more: their seat there waits for them until it times out.
    if (!connection) continue;
    connection->deliver(std::make_shared<const std::string>(protocol::encode_redirect(
        value.substr(space + 1), value.substr(0, space), "quick_match", {})));
    metrics_.redirects_total.fetch_add(1, std::memory_order_relaxed);
  }
}

asio::awaitable<void> Cluster::reclaim() {
  try {
    for (const auto& code : rooms_.codes()) {
      const std::vector<std::string> args{code, settings_.node};
      co_await eval(kClaim, args);
    }
    std::map<std::string, std::string> queued;
    {
      std::lock_guard lock(mutex_);
      queued = queued_;
    }
    for (const auto& [player, key] : queued) {
      const std::vector<std::string> args{key, settings_.node, player, "1"};
      co_await eval(kUnqueue, args);
    }
  } catch (const std::exception& e) {
    spdlog::warn("cluster: reclaiming this node's rooms: {}", e.what());
  }
}

asio::awaitable<std::string> Cluster::claim_new_code() {
  // Not before this node's first beat: nobody could find the room yet.
  if (!available()) throw RedisUnavailable("this node is not in the cluster yet");
  for (int attempt = 0; attempt < kCodeAttempts; ++attempt) {
    std::string code = rooms_.unused_code();
    const std::vector<std::string> args{code, settings_.node};
    const RedisReply claimed = co_await eval(kClaim, args);
    if (claimed.integer == 1) co_return code;
  }
  throw std::runtime_error("no free room code");  // 16 collisions in a 32^6 space: not chance
}

asio::awaitable<std::optional<std::string>> Cluster::locate(const std::string& code) {
  const std::vector<std::string> args{code};
  const RedisReply reply = co_await eval(kLocate, args);
  if (reply.elements.size() != 2 || reply.elements[0].str == settings_.node) co_return std::nullopt;
  co_return reply.elements[1].str;
}

void Cluster::release(const std::string& code) {
  asio::co_spawn(
      main_,
      [this, code]() -> asio::awaitable<void> {
        try {
          const std::vector<std::string> args{settings_.node, code};
          co_await eval(kRelease, args);
        } catch (const std::exception& e) {
          // Left behind, the code only stays taken until this node is reaped or reclaims.
          spdlog::debug("cluster: releasing {}: {}", code, e.what());
        }
      },
      asio::detached);
}

std::vector<std::string> Cluster::remote_rooms() const {
  std::lock_guard lock(mutex_);
  return remote_rooms_;
}

asio::awaitable<std::optional<Cluster::Waiting>> Cluster::pair(const std::string& key,
                                                               const std::string& player) {
  // Not before this node's first beat: others would take its entry for a dead node's.
  if (!available()) throw RedisUnavailable("this node is not in the cluster yet");
  const std::vector<std::string> args{key, settings_.node, player};
  const RedisReply reply = co_await eval(kPair, args);
  if (reply.elements.size() == 2) {
    co_return Waiting{reply.elements[0].str, reply.elements[1].str};
  }
  std::lock_guard lock(mutex_);
  queued_[player] = key;
  co_return std::nullopt;
}

asio::awaitable<bool> Cluster::unqueue(const std::string& player) {
  std::string key;
  {
    std::lock_guard lock(mutex_);
    const auto it = queued_.find(player);
    if (it == queued_.end()) co_return false;
    key = it->second;
    queued_.erase(it);
  }
  const std::vector<std::string> args{key, settings_.node, player};
  const RedisReply removed = co_await eval(kUnqueue, args);
  co_return removed.integer > 0;
}

void Cluster::leave_queue(std::string player) {
  {
    std::lock_guard lock(mutex_);
    if (queued_.count(player) == 0) return;
  }
  asio::co_spawn(
      main_,
      [this, player = std::move(player)]() -> asio::awaitable<void> {
        try {
          co_await unqueue(player);
        } catch (const std::exception& e) {
          // The entry stays until a pairing pops it and finds the player gone.
          spdlog::debug("cluster: unqueueing {}: {}", player, e.what());
        }
      },
      asio::detached);
}

void Cluster::forget_queued(const std::string& player) {
  std::lock_guard lock(mutex_);
  queued_.erase(player);
}

asio::awaitable<void> Cluster::announce_match(const Waiting& waiting, const std::string& code) {
  std::vector<std::string> set{"SET", "tilerace:match:" + waiting.player,
                               code + " " + settings_.public_url, "PX",
                               std::to_string(std::chrono::milliseconds(kMatchKept).count())};
  co_await commands_->command(std::move(set));
  std::vector<std::string> publish{"PUBLISH", "tilerace:control:" + waiting.node, "match"};
  co_await commands_->command(std::move(publish));
}

asio::awaitable<void> Cluster::leave() {
  stopped_ = true;
  timer_.cancel();
  std::vector<std::string> args{
      settings_.node, std::to_string(std::chrono::milliseconds(settings_.restart_grace).count())};
  // Running races are journaled and come back when this node does; other rooms end now.
  std::set<std::string> racing;
  for (const auto& race : rooms_.journal()) racing.insert(race.room);
  for (auto& code : rooms_.codes()) {
    if (racing.count(code) == 0) args.push_back(std::move(code));
  }
  try {
    co_await eval(kLeave, args);
    std::map<std::string, std::string> queued;
    {
      std::lock_guard lock(mutex_);
      queued.swap(queued_);
    }
    for (const auto& [player, key] : queued) {
      const std::vector<std::string> unqueue_args{key, settings_.node, player};
      co_await eval(kUnqueue, unqueue_args);
    }
    spdlog::info("cluster: left the directory");
  } catch (const std::exception& e) {
    spdlog::warn("cluster: leaving the directory: {} (the lease runs out by itself)", e.what());
  }
  commands_->stop();
  control_->stop();
}

}  // namespace tilerace::server
