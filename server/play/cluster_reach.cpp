#include "server/play/cluster_reach.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <charconv>

#include "protocol/friends.hpp"
#include "server/cluster/control_fields.hpp"
#include "server/cluster/scripts.hpp"
#include "server/play/presence_board.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

constexpr const char* kPresenceKeptMs = "86400000";  // a day: only a live node's counts anyway

std::string presence_key(std::string_view player) {
  return std::string("tilerace:presence:").append(player);
}

// A rid as the last field of a control message, and back: empty for none, "s" and the text,
// "i" and the number. A field that is none of these reads as none.
std::string rid_field(const protocol::Rid& rid) {
  if (const auto* text = std::get_if<std::string>(&rid)) return std::string("s").append(*text);
  if (const auto* number = std::get_if<std::int64_t>(&rid)) {
    return std::string("i").append(std::to_string(*number));
  }
  return {};
}

protocol::Rid rid_of_field(std::string_view field) {
  if (field.starts_with('s')) return std::string(field.substr(1));
  std::int64_t number = 0;
  if (field.starts_with('i') &&
      std::from_chars(field.data() + 1, field.data() + field.size(), number).ec == std::errc{}) {
    return number;
  }
  return {};
}

// Runs work in the background on executor; a failure (Redis away) is only logged.
void spawn(const asio::any_io_executor& executor, asio::awaitable<void> work) {
  asio::co_spawn(executor, std::move(work), [](const std::exception_ptr& e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      spdlog::debug("friends (cluster): {}", x.what());
    }
  });
}

}  // namespace

ClusterReach::ClusterReach(asio::any_io_executor main, Cluster& cluster, PlayerRegistry& players,
                           PlayServices& play)
    : main_(std::move(main)), cluster_(cluster), players_(players), play_(play) {}

void ClusterReach::publish(std::string player, std::string presence,
                           std::vector<std::string> friends) {
  asio::post(main_, [this, p = Publication{std::move(player), std::move(presence),
                                           std::move(friends)}]() mutable {
    queue_.push_back(std::move(p));
    if (draining_) return;
    draining_ = true;
    asio::co_spawn(main_, drain(), asio::detached);
  });
}

asio::awaitable<void> ClusterReach::drain() {
  while (!queue_.empty()) {
    Publication p = std::move(queue_.front());
    queue_.pop_front();
    try {
      co_await write(std::move(p));
    } catch (const std::exception& e) {
      spdlog::debug("presence (cluster): {}", e.what());  // friends elsewhere see it next time
    }
  }
  draining_ = false;
  for (const auto& waiting : std::exchange(flushing_, {})) waiting->cancel();
}

asio::awaitable<void> ClusterReach::flush() {
  co_await asio::co_spawn(main_, flushed(), asio::use_awaitable);
}

asio::awaitable<void> ClusterReach::flushed() {
  if (!draining_) co_return;
  auto done = std::make_shared<asio::steady_timer>(main_, asio::steady_timer::time_point::max());
  flushing_.push_back(done);
  co_await done->async_wait(asio::as_tuple(asio::use_awaitable));
}

asio::awaitable<void> ClusterReach::write(Publication p) {
  const std::string& node = cluster_.settings().node;
  const auto decoded = protocol::decode_presence(p.presence);
  if (decoded && decoded->second.status == protocol::PresenceStatus::offline) {
    written_.erase(p.player);
    std::vector<std::string> drop{"EVAL", std::string(redis_scripts::kDropPresence), "0", p.player,
                                  node};
    co_await cluster_.command(std::move(drop));
  } else {
    std::string value = node + "\n" + p.presence;
    written_[p.player] = value;
    std::vector<std::string> set{"SET", presence_key(p.player), std::move(value), "PX",
                                 kPresenceKeptMs};
    co_await cluster_.command(std::move(set));
  }
  if (p.friends.empty()) co_return;
  const auto where = co_await nodes_of(p.friends);
  std::map<std::string, std::string> to;  // node → comma-separated friends there
  for (const auto& [f, n] : where) (to[n].empty() ? to[n] : to[n].append(",")).append(f);
  for (const auto& [n, ids] : to) {
    std::string message = "presence\n" + node + "\n" + ids + "\n" + p.presence;
    co_await cluster_.tell(n, std::move(message));
  }
}

asio::awaitable<std::map<std::string, std::string>> ClusterReach::published(
    const std::vector<std::string>& players) {
  std::map<std::string, std::string> out;
  if (players.empty()) co_return out;
  std::vector<std::string> eval{"EVAL", std::string(redis_scripts::kPresences), "0",
                                cluster_.settings().node};
  eval.insert(eval.end(), players.begin(), players.end());
  const RedisReply reply = co_await cluster_.command(std::move(eval));
  for (std::size_t i = 0; i < reply.elements.size() && i < players.size(); ++i) {
    if (!reply.elements[i].str.empty()) out[players[i]] = reply.elements[i].str;
  }
  co_return out;
}

asio::awaitable<std::map<std::string, std::string>> ClusterReach::nodes_of(
    const std::vector<std::string>& players) {
  auto out = co_await published(players);
  for (auto& [player, value] : out) value.erase(value.find('\n'));
  co_return out;
}

asio::awaitable<std::map<std::string, std::string>> ClusterReach::presences(
    std::vector<std::string> players) {
  auto out = co_await published(players);
  for (auto& [player, value] : out) {
    value.erase(0, value.find('\n') + 1);
    // Connected there, its presence not written yet: online.
    if (value.empty()) {
      value = protocol::encode_presence(player, {protocol::PresenceStatus::online, "", {}});
    }
  }
  co_return out;
}

asio::awaitable<bool> ClusterReach::send(std::string player, std::string message, bool reload) {
  const std::vector<std::string> who{player};
  const auto where = co_await nodes_of(who);
  const auto it = where.find(player);
  if (it == where.end()) co_return false;
  std::string envelope = "send\n" + player + "\n" + (reload ? "1" : "0") + "\n" + message;
  co_await cluster_.tell(it->second, std::move(envelope));
  co_return true;
}

asio::awaitable<void> ClusterReach::hold(std::string id, std::chrono::milliseconds ttl) {
  std::vector<std::string> set{"SET", "tilerace:challenge:" + id, cluster_.settings().node, "PX",
                               std::to_string(ttl.count())};
  co_await cluster_.command(std::move(set));
}

asio::awaitable<std::string> ClusterReach::holder(std::string id) {
  std::vector<std::string> get{"GET", "tilerace:challenge:" + id};
  // Every reply named: GCC 12 mishandles temporaries that live across a co_await.
  const RedisReply held = co_await cluster_.command(std::move(get));
  const std::string node = held.str;
  if (node.empty() || node == cluster_.settings().node) co_return std::string();
  std::vector<std::string> exists{"EXISTS", "tilerace:node:" + node};
  const RedisReply live = co_await cluster_.command(std::move(exists));
  if (live.integer != 1) co_return std::string();
  co_return node;
}

void ClusterReach::forward_answer(std::string node, std::string id, std::string player, bool accept,
                                  std::string reason, const protocol::Rid& rid) {
  // accept: "1"; a decline: "0", or its reason's name
  const std::string answer = accept ? "1" : reason.empty() ? "0" : reason;
  std::string text = "answer\n" + id + "\n" + player + "\n" + answer + "\n";
  text += rid_field(rid);
  spawn(main_, [](Cluster& cluster, std::string to, std::string text) -> asio::awaitable<void> {
    co_await cluster.tell(to, std::move(text));
  }(cluster_, std::move(node), std::move(text)));
}

void ClusterReach::moderate(std::string kind, std::string target, std::string text) {
  asio::post(main_,
             [this, text = "moderate\n" + kind + "\n" + target + "\n" + text] { tell_all(text); });
}

void ClusterReach::tell_all(const std::string& message) {
  for (const std::string& node : live_) {
    if (node == cluster_.settings().node) continue;
    spawn(main_, [](Cluster& cluster, std::string to, std::string m) -> asio::awaitable<void> {
      co_await cluster.tell(to, std::move(m));
    }(cluster_, node, message));
  }
}

asio::awaitable<void> ClusterReach::take_connection(std::string player, std::int64_t epoch) {
  {
    std::lock_guard lock(held_mutex_);
    std::int64_t& held = held_[player];
    held = std::max(held, epoch);
  }
  const std::string e = std::to_string(epoch);
  std::vector<std::string> take{"EVAL", std::string(redis_scripts::kTakeConnection),
                                "0",    player,
                                e,      cluster_.settings().node};
  const RedisReply before = co_await cluster_.command(std::move(take));
  if (before.str.empty()) co_return;
  co_await cluster_.tell(before.str, "takeover\n" + player + "\n" + e);
}

void ClusterReach::release_connection(std::string player, std::int64_t epoch) {
  {
    std::lock_guard lock(held_mutex_);
    if (const auto it = held_.find(player); it != held_.end() && it->second == epoch) {
      held_.erase(it);
    }
  }
  spawn(main_,
        [](Cluster& cluster, std::vector<std::string> release) -> asio::awaitable<void> {
          co_await cluster.command(std::move(release));
        }(cluster_, {"EVAL", std::string(redis_scripts::kReleaseConnection), "0", std::move(player),
                     std::to_string(epoch), cluster_.settings().node}));
}

asio::awaitable<std::int64_t> ClusterReach::connection_elsewhere(std::string player) {
  std::vector<std::string> get{"GET", "tilerace:connection:" + player};
  const RedisReply record = co_await cluster_.command(std::move(get));
  const auto space = record.str.find(' ');
  if (record.type != RedisReply::Type::string || space == std::string::npos ||
      record.str.substr(space + 1) == cluster_.settings().node) {
    co_return 0;
  }
  co_return std::stoll(record.str.substr(0, space));
}

asio::awaitable<void> ClusterReach::reclaim() {
  std::map<std::string, std::int64_t> held;
  {
    std::lock_guard lock(held_mutex_);
    held = held_;
  }
  for (const auto& [player, epoch] : held) co_await take_connection(player, epoch);
  for (const auto& [player, value] : std::map<std::string, std::string>(written_)) {
    if (held.count(player) == 0) continue;  // connected elsewhere now: that node writes it
    std::vector<std::string> set{"SET", presence_key(player), value, "PX", kPresenceKeptMs};
    co_await cluster_.command(std::move(set));
  }
}

void ClusterReach::recheck(std::string player) {
  asio::post(main_, [this, text = "recheck\n" + player] { tell_all(text); });
}

void ClusterReach::on_control(const std::string& message) {
  const std::string kind = message.substr(0, message.find('\n'));
  if (kind == "presence") {
    const auto f = control_fields(message, 3);  // presence, from node, recipients, text
    if (f.size() != 4) return;
    const auto text = std::make_shared<const std::string>(f[3]);
    std::string_view ids = f[2];
    while (!ids.empty()) {
      const auto comma = ids.find(',');
      deliver_here(players_, ids.substr(0, comma), text);
      ids = comma == std::string_view::npos ? std::string_view() : ids.substr(comma + 1);
    }
  } else if (kind == "send") {
    auto f = control_fields(message, 3);  // send, player, reload, text
    if (f.size() != 4) return;
    // In the order sent: a message after a friendship change waits for its reload.
    incoming_.push_back({std::move(f[1]), f[2] == "1", std::move(f[3])});
    if (receiving_) return;
    receiving_ = true;
    asio::co_spawn(main_, receive(), asio::detached);
  } else if (kind == "moderate") {
    const auto f = control_fields(message, 3);  // moderate, kind, target, text
    if (f.size() != 4) return;
    play_.moderation.apply_here(f[1], f[2], f[3]);
  } else if (kind == "takeover") {
    const auto f = control_fields(message, 2);  // takeover, player, epoch
    if (f.size() != 3) return;
    std::int64_t epoch = 0;
    if (std::from_chars(f[2].data(), f[2].data() + f[2].size(), epoch).ec != std::errc{}) return;
    play_.guard.taken_over(f[1], epoch);
  } else if (kind == "recheck") {
    const auto f = control_fields(message, 1);  // recheck, player
    if (f.size() != 2) return;
    spawn(main_, play_.guard.check({f[1]}));
  } else if (kind == "answer") {
    const auto f = control_fields(message, 4);  // answer, id, player, accept, rid
    if (f.size() != 5) return;
    const bool accept = f[3] == "1";
    spawn(main_, play_.challenges.answer_from_afar(
                     f[1], f[2], accept, accept || f[3] == "0" ? "" : f[3], rid_of_field(f[4])));
  }
}

asio::awaitable<void> ClusterReach::receive() {
  while (!incoming_.empty()) {
    Incoming in = std::move(incoming_.front());
    incoming_.pop_front();
    const auto player = players_.find(in.player);
    if (!player) continue;
    if (in.reload) {
      try {
        co_await play_.friends.reload(player);
      } catch (const std::exception& e) {
        spdlog::debug("friends (cluster): {}", e.what());  // their next `friends` loads them
      }
    }
    deliver_here(players_, in.player, std::make_shared<const std::string>(std::move(in.message)));
  }
  receiving_ = false;
}

void ClusterReach::on_nodes(const std::set<std::string>& live) {
  for (const std::string& node : live_) {
    if (live.count(node) == 0) spawn(main_, stranded(node));
  }
  live_ = live;
}

asio::awaitable<void> ClusterReach::stranded(std::string node) {
  std::vector<std::string> eval{"EVAL", std::string(redis_scripts::kStranded), "0", node};
  const RedisReply players = co_await cluster_.command(std::move(eval));
  for (const RedisReply& gone : players.elements) {
    const auto text = std::make_shared<const std::string>(
        protocol::encode_presence(gone.str, protocol::Presence{}));
    players_.for_each([&](Player& p) {
      if (play_.friend_lists.are_friends(p.id, gone.str)) deliver_here(players_, p.id, text);
    });
  }
}

}  // namespace tilerace::server
