#include "server/cluster/cluster.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <set>
#include <utility>

#include "protocol/encode.hpp"
#include "server/cluster/adoption.hpp"
#include "server/cluster/redis_connection.hpp"
#include "server/cluster/scripts.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using asio::as_tuple;
using asio::use_awaitable;

namespace {

using namespace redis_scripts;

constexpr auto kMatchKept = std::chrono::seconds(30);
constexpr auto kMinBeatGap = std::chrono::milliseconds(50);
constexpr int kCodeAttempts = 16;

// A Redis reply overdue by this much drops the connection (a hung server): by then no
// renewal sent before it could still confirm the lease. What cannot wait that long — a move's
// append — is abandoned when the lease lapses (watch_lease).
std::chrono::milliseconds reply_timeout(std::chrono::milliseconds lease) {
  return std::min(RedisConnection::kReplyTimeout, lease);
}

std::int64_t steady_ns(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

Cluster::Cluster(asio::io_context& main, ClusterSettings settings, RoomRegistry& rooms,
                 PlayerRegistry& players, SoloGames& solo, StoreWorker& store, Metrics& metrics,
                 ClusterEvents& events)
    : main_(main),
      settings_(std::move(settings)),
      rooms_(rooms),
      players_(players),
      solo_(solo),
      events_(events),
      store_(store),
      metrics_(metrics),
      commands_(std::make_shared<RedisConnection>(main.get_executor(), settings_.redis, "commands",
                                                  reply_timeout(settings_.lease))),
      control_(std::make_shared<RedisConnection>(main.get_executor(), settings_.redis, "control",
                                                 reply_timeout(settings_.lease))),
      journal_(std::make_shared<RedisConnection>(main.get_executor(), settings_.redis, "journal",
                                                 reply_timeout(settings_.lease))),
      release_(std::make_unique<RaceRelease>(
          main.get_executor(),
          RaceRelease::Links{
              {settings_.node, settings_.public_url},
              settings_.lease,
              // Coroutines of their own: the strings live in their frames.
              [this](std::string code) -> asio::awaitable<std::optional<NodeAddress>> {
                co_return co_await owner_of(code, true);
              },
              [this](std::string node, std::string message) -> asio::awaitable<void> {
                co_await tell(node, std::move(message));
              },
              [this](std::string node, std::string room) {
                return take_race(std::move(node), std::move(room));
              },
              [this] { rooms_changed(); }},
          rooms)),
      timer_(main),
      lapse_(main) {}

Cluster::~Cluster() = default;

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
        // ["message", channel, payload]: "match" (a pairing waits for one of our players), or
        // a message for on_control.
        if (push.elements.size() != 3 || push.elements[0].str != "message") return;
        if (push.elements[2].str == "match") {
          asio::co_spawn(main_, check_matches(), asio::detached);
        } else if (!release_->on_control(push.elements[2].str)) {
          events_.on_control(push.elements[2].str);
        }
      });
  journal_->start(nullptr);
  asio::co_spawn(main_, heartbeat_loop(), asio::detached);
  asio::co_spawn(main_, watch_lease(), asio::detached);
}

bool Cluster::available() const noexcept {
  return commands_->connected() && metrics_.cluster_available.load() == 1;
}

bool Cluster::lease_confirmed() const noexcept {
  return steady_ns(std::chrono::steady_clock::now()) <
         lease_confirmed_until_.load(std::memory_order_relaxed);
}

void Cluster::wake() {
  dirty_ = true;
  if (idle_) timer_.cancel();
}

void Cluster::rooms_changed() {
  asio::post(main_, [this] { wake(); });
}

asio::awaitable<RedisReply> Cluster::command(std::vector<std::string> args) {
  RedisReply reply = co_await commands_->command(std::move(args));
  if (reply.error()) throw std::runtime_error("redis: " + reply.str);
  co_return reply;
}

asio::awaitable<void> Cluster::tell(const std::string& node, std::string message) {
  std::vector<std::string> publish{"PUBLISH", "tilerace:control:" + node, std::move(message)};
  co_await command(std::move(publish));
}

asio::awaitable<RedisReply> Cluster::eval(std::string_view script,
                                          const std::vector<std::string>& args) {
  return server::eval(*commands_, script, args);
}

asio::awaitable<void> Cluster::heartbeat_loop() {
  const auto every = settings_.lease / 5;
  while (!stopped_) {
    dirty_ = false;
    // Until the first connection there is nothing to report (the connection logs its tries);
    // until the first beat went through, one at a time (the first announces this node).
    const bool reachable = commands_->connected() || metrics_.cluster_available.load() == 1;
    const bool started = reachable && renewing_ < (joined_ ? kRenewalsInFlight : 1);
    if (started) {
      ++renewing_;
      asio::co_spawn(main_, renew(), asio::detached);
    }
    // At most one beat per kMinBeatGap however often rooms change; then one per `every`,
    // sooner when woken (a connection made, a room opened or closed).
    if (started) {
      timer_.expires_after(kMinBeatGap);
      co_await timer_.async_wait(as_tuple(use_awaitable));
      if (stopped_) co_return;
      if (dirty_) continue;
    }
    idle_ = true;
    timer_.expires_after(started ? every - kMinBeatGap : every);
    co_await timer_.async_wait(as_tuple(use_awaitable));
    idle_ = false;
  }
}

asio::awaitable<void> Cluster::renew() {
  try {
    co_await beat();
  } catch (const std::exception& e) {
    if (metrics_.cluster_available.exchange(0, std::memory_order_relaxed) == 1) {
      spdlog::error("cluster: {} (cross-node features unavailable until it answers)", e.what());
      outage_reported_ = true;
    }
  }
  --renewing_;
}

asio::awaitable<void> Cluster::watch_lease() {
  while (!stopped_) {
    const std::int64_t until = lease_confirmed_until_.load(std::memory_order_relaxed);
    if (!joined_ || !lease_confirmed()) {
      if (joined_) journal_->abandon();
      lapse_.expires_at(std::chrono::steady_clock::time_point::max());  // until a renewal
    } else {
      lapse_.expires_at(std::chrono::steady_clock::time_point(std::chrono::nanoseconds(until)));
    }
    co_await lapse_.async_wait(as_tuple(use_awaitable));
  }
}

asio::awaitable<void> Cluster::beat() {
  const std::string listing = protocol::encode_room_list(rooms_.public_rooms());
  const std::vector<std::string> args{settings_.node, settings_.public_url,
                                      std::to_string(settings_.lease.count()), listing,
                                      joined_ ? "0" : "1"};
  // The lease runs from when Redis set it, which is after this: counted from here, the
  // confirmation can only end early.
  const auto sent = std::chrono::steady_clock::now();
  const RedisReply reply = co_await eval(kBeat, args);
  if (joined_ && !lease_confirmed()) {
    // The lease lapsed: another node may have adopted any race here and taken its move journal
    // over. None is journaled in Redis again; the store, which knows the owners, confirms
    // their moves.
    spdlog::warn(
        "cluster: this node's lease was not confirmed for a while: its running races "
        "are confirmed by the store from now on");
    const std::vector<ActiveRaceRecord> running = rooms_.active_races();  // (rooms lock first)
    std::lock_guard lock(mutex_);
    for (const ActiveRaceRecord& race : running) unjournaled_.insert(race.id);
  }
  // Replies come in the order the renewals went: each one's is the latest sent.
  lease_confirmed_until_.store(steady_ns(sent + settings_.lease - settings_.lease / 5),
                               std::memory_order_relaxed);
  joined_ = true;
  lapse_.cancel();  // watch_lease waits for the new end
  metrics_.cluster_available.store(1, std::memory_order_relaxed);
  if (std::exchange(outage_reported_, false)) spdlog::info("cluster: redis answers again");
  std::vector<std::string> remote;
  std::vector<std::string> dead;
  std::vector<std::string> urls;
  std::set<std::string> names;
  if (reply.elements.size() == 4) {
    for (const auto& e : reply.elements[0].elements) remote.push_back(e.str);
    for (const auto& e : reply.elements[1].elements) dead.push_back(e.str);
    for (const auto& e : reply.elements[2].elements) urls.push_back(e.str);
    for (const auto& e : reply.elements[3].elements) names.insert(e.str);
  }
  metrics_.cluster_nodes.store(static_cast<std::int64_t>(remote.size() + 1),
                               std::memory_order_relaxed);
  {
    std::lock_guard lock(mutex_);
    remote_rooms_ = std::move(remote);
    node_urls_ = std::move(urls);
  }
  events_.on_nodes(names);
  // One tend at a time, beside the renewals: a later beat's finds come with it.
  if (!std::exchange(tending_, true)) asio::co_spawn(main_, tend(std::move(dead)), asio::detached);
}

asio::awaitable<void> Cluster::tend(std::vector<std::string> dead) {
  try {
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
  } catch (const std::exception& e) {
    spdlog::debug("cluster: tending the directory: {}", e.what());  // the next beat tends again
  }
  tending_ = false;
}

asio::awaitable<void> Cluster::adopt(std::vector<std::string> orphans) {
  Adoption adoption(
      settings_.node, settings_.public_url, *commands_, store_, players_, solo_, rooms_, metrics_,
      [this](std::string orphan) { return events_.adopt_tournaments(std::move(orphan)); });
  if (co_await adoption.run(std::move(orphans)) > 0) rooms_changed();
  adopting_ = false;
}

asio::awaitable<std::optional<RaceOwner>> Cluster::append(MoveJournalEntry entry) {
  {
    std::lock_guard lock(mutex_);
    if (unjournaled_.count(entry.race_id) > 0) {
      throw RedisUnavailable("this race's journal missed a move: it is journaled no further");
    }
    if (!lease_confirmed()) {
      unjournaled_.insert(entry.race_id);
      throw RedisUnavailable("this node's lease is not confirmed");
    }
  }
  const std::vector<std::string> args{moves_key(entry.race_id, entry.position),
                                      entry.resigned ? entry.moves + "!" : entry.moves,
                                      check_key(entry.race_id, entry.position),
                                      entry.check,
                                      owner_key(entry.race_id),
                                      std::to_string(entry.epoch),
                                      settings_.node,
                                      settings_.public_url};
  RedisReply reply;
  try {
    reply = co_await server::eval(*journal_, kJournal, args);
  } catch (const std::exception&) {
    std::lock_guard lock(mutex_);
    unjournaled_.insert(entry.race_id);
    throw;
  }
  if (reply.type != RedisReply::Type::string) co_return std::nullopt;
  // `<epoch> <node> <url>`: a later owner.
  RaceOwner owner;
  const auto first = reply.str.find(' ');
  const auto second = reply.str.find(' ', first + 1);
  owner.epoch = std::stoll(reply.str.substr(0, first));
  if (first != std::string::npos) owner.node = reply.str.substr(first + 1, second - first - 1);
  if (second != std::string::npos) owner.url = reply.str.substr(second + 1);
  co_return owner;
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
    for (const auto& [player, q] : queued_) waiting.push_back(player);
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
    std::vector<std::string> codes = rooms_.codes();
    for (std::string& code : events_.tournament_codes()) codes.push_back(std::move(code));
    for (const auto& code : codes) {
      const std::vector<std::string> args{code, settings_.node};
      co_await eval(kClaim, args);
    }
    std::map<std::string, Queued> queued;
    {
      std::lock_guard lock(mutex_);
      queued = queued_;
    }
    for (const auto& [player, q] : queued) {
      const std::vector<std::string> args{q.key, settings_.node, player,
                                          std::to_string(q.seeking.rating),
                                          std::to_string(q.seeking.rd)};
      co_await eval(kUnqueue, args);
    }
    co_await events_.reclaim_players();
  } catch (const std::exception& e) {
    spdlog::warn("cluster: reclaiming this node's rooms and players: {}", e.what());
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

asio::awaitable<std::optional<std::string>> Cluster::locate(const std::string& code, bool beating) {
  const std::optional<NodeAddress> owner = co_await owner_of(code, beating);
  if (!owner || owner->node == settings_.node) co_return std::nullopt;
  co_return owner->url;
}

asio::awaitable<std::optional<NodeAddress>> Cluster::owner_of(const std::string& code,
                                                              bool beating) {
  // Heard from within two heartbeats (each lease/5): at least 3/5 of its lease left.
  const std::vector<std::string> args{
      code,
      std::to_string(beating ? settings_.lease.count() - 2 * (settings_.lease.count() / 5) : 0)};
  const RedisReply reply = co_await eval(kLocate, args);
  if (reply.elements.size() != 2) co_return std::nullopt;
  co_return NodeAddress{reply.elements[0].str, reply.elements[1].str};
}

asio::awaitable<std::optional<std::string>> Cluster::follow(const std::string& code) {
  co_return co_await asio::co_spawn(main_, release_->follow(code), use_awaitable);
}

asio::awaitable<std::optional<ActiveRaceRecord>> Cluster::take_race(std::string node,
                                                                    std::string room) {
  Adoption adoption(settings_.node, settings_.public_url, *commands_, store_, players_, solo_,
                    rooms_, metrics_);
  co_return co_await adoption.take(node, room);
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

std::vector<std::string> Cluster::node_urls() const {
  std::lock_guard lock(mutex_);
  return node_urls_;
}

std::vector<std::string> Cluster::remote_rooms() const {
  std::lock_guard lock(mutex_);
  return remote_rooms_;
}

asio::awaitable<std::optional<Cluster::Waiting>> Cluster::pair(const std::string& key,
                                                               const std::string& player,
                                                               Seeking seeking, bool again,
                                                               bool& gone) {
  // Not before this node's first beat: others would take its entry for a dead node's.
  if (!available()) throw RedisUnavailable("this node is not in the cluster yet");
  const MatchWindow& w = kMatchWindow;
  const std::vector<std::string> args{key,
                                      settings_.node,
                                      player,
                                      std::to_string(seeking.rating),
                                      std::to_string(seeking.rd),
                                      std::to_string(w.base),
                                      std::to_string(w.step),
                                      std::to_string(w.every.count()),
                                      std::to_string(w.max),
                                      again ? "1" : "0"};
  const RedisReply reply = co_await eval(kPair, args);
  gone = again && reply.elements.empty() && reply.type == RedisReply::Type::integer;
  std::lock_guard lock(mutex_);
  if (reply.elements.size() == 2) {
    queued_.erase(player);
    co_return Waiting{reply.elements[0].str, reply.elements[1].str};
  }
  // Gone: another node paired them (its match for them is still to be taken: check_matches
  // takes it while they are listed here), or they left the queue (unqueue forgot them).
  if (!again) queued_[player] = {key, seeking};
  co_return std::nullopt;
}

std::optional<Seeking> Cluster::seeking_of(const std::string& player) const {
  std::lock_guard lock(mutex_);
  const auto it = queued_.find(player);
  if (it == queued_.end()) return std::nullopt;
  return it->second.seeking;
}

asio::awaitable<bool> Cluster::unqueue(const std::string& player) {
  std::string key;
  {
    std::lock_guard lock(mutex_);
    const auto it = queued_.find(player);
    if (it == queued_.end()) co_return false;
    key = it->second.key;
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
  for (const auto& race : rooms_.active_races()) racing.insert(race.room);
  for (auto& code : rooms_.codes()) {
    if (racing.count(code) == 0) args.push_back(std::move(code));
  }
  try {
    co_await eval(kLeave, args);
    std::map<std::string, Queued> queued;
    {
      std::lock_guard lock(mutex_);
      queued.swap(queued_);
    }
    for (const auto& [player, q] : queued) {
      const std::vector<std::string> unqueue_args{q.key, settings_.node, player};
      co_await eval(kUnqueue, unqueue_args);
    }
    spdlog::info("cluster: left the directory");
  } catch (const std::exception& e) {
    spdlog::warn("cluster: leaving the directory: {} (the lease runs out by itself)", e.what());
  }
  lapse_.cancel();
  commands_->stop();
  control_->stop();
  journal_->stop();
}

}  // namespace tilerace::server
