#include "server/play/challenges.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

#include "protocol/encode.hpp"
#include "protocol/friends.hpp"
#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/room.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

std::shared_ptr<Participant> connection_of(Player& player) {
  std::lock_guard lock(player.mutex);
  return player.connection.lock();
}

}  // namespace

Challenges::Challenges(Services services, asio::any_io_executor executor,
                       std::chrono::milliseconds expiry)
    : services_(services), executor_(std::move(executor)), expiry_(expiry) {}

void Challenges::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  for (auto& [id, open] : open_) open.timer->cancel();
}

bool Challenges::between(const std::string& a, const std::string& b) {
  std::lock_guard lock(mutex_);
  return std::any_of(open_.begin(), open_.end(), [&](const auto& entry) {
    const Open& o = entry.second;
    return (o.from == a && o.to == b) || (o.from == b && o.to == a);
  });
}

std::optional<Challenges::Open> Challenges::take(const std::string& id, const std::string& player) {
  std::lock_guard lock(mutex_);
  const auto it = open_.find(id);
  if (it == open_.end() || (!player.empty() && it->second.to != player)) return std::nullopt;
  Open o = std::move(it->second);
  open_.erase(it);
  o.timer->cancel();
  return o;
}

asio::awaitable<void> Challenges::send(std::string player, std::string message) {
  co_await send_anywhere(services_.players, services_.reach, std::move(player), std::move(message),
                         false);
}

asio::awaitable<void> Challenges::challenge(Connection& c, const protocol::Challenge& m,
                                            const protocol::Rid& rid) {
  Metrics& metrics = services_.metrics;
  const std::shared_ptr<Player> me = c.player;
  std::string name;
  bool bot = false;
  const std::string& to = m.player;
  const StoreWorker::JobOn<AccountStore> find = [&](AccountStore& s) {
    if (const auto record = s.find_player(to)) {
      name = record->name;
      bot = record->bot;
    }
  };
  co_await services_.store.run(find);
  // Anyone may challenge a bot account (it answers for itself: docs/bots.md); people, friends.
  if (!bot && !services_.friends.are_friends(me->id, m.player)) {
    send_error(c, metrics, ErrorCode::not_friends, "challenges are for friends: add them first",
               rid);
    co_return;
  }
  if (room_of(*me)) {
    send_error(c, metrics, ErrorCode::already_in_room, "leave your room first", rid);
    co_return;
  }
  if (between(me->id, m.player)) {
    send_error(c, metrics, ErrorCode::not_allowed,
               "a challenge between the two of you is open already", rid);
    co_return;
  }
  std::vector<std::string> who{m.player};  // named: GCC 12 and braced lists in co_await
  auto presence = co_await services_.presence.presences(std::move(who));
  if (presence[m.player].status == protocol::PresenceStatus::offline) {
    send_error(c, metrics, ErrorCode::offline, "they are offline: challenge them when they are on",
               rid);
    co_return;
  }
  Open o{random_hex(8),
         me->id,
         me->name(),
         m.player,
         name,
         m.options,
         unix_ms() + expiry_.count(),
         std::make_shared<asio::steady_timer>(executor_)};
  o.options.is_public = false;
  o.options.max_players = 2;
  o.options.bot.reset();
  const protocol::ChallengeView view{
      o.id, {o.from, o.from_name}, {o.to, o.to_name}, o.options, o.expires_at};
  {
    std::lock_guard lock(mutex_);
    if (stopped_) co_return;
    open_.emplace(o.id, o);
  }
  asio::co_spawn(executor_, expire(o.id, o.timer), asio::detached);
  if (services_.reach != nullptr) {
    try {
      co_await services_.reach->hold(o.id, expiry_);
    } catch (const std::exception& e) {
      spdlog::debug("challenge: {}", e.what());  // only an answer from afar needs it
    }
  }
  c.send(protocol::encode_challenge_sent(view, rid));
  std::string challenged = protocol::encode_challenged(view);
  co_await send(o.to, std::move(challenged));
}

asio::awaitable<void> Challenges::expire(std::string id,
                                         std::shared_ptr<asio::steady_timer> timer) {
  timer->expires_after(expiry_);
  co_await timer->async_wait(asio::as_tuple(asio::use_awaitable));
  std::optional<Open> o = take(id, "");
  if (!o) co_return;  // answered
  const std::string message = protocol::encode_challenge_closed("challenge_expired", id, {});
  co_await send(o->from, message);
  co_await send(o->to, message);
}

asio::awaitable<void> Challenges::answer(Connection& c, const protocol::ChallengeAnswer& m,
                                         const protocol::Rid& rid) {
  const std::shared_ptr<Player> me = c.player;
  const std::string reason(m.reason ? protocol::to_string(*m.reason) : "");
  if (m.accept && room_of(*me)) {
    send_error(c, services_.metrics, ErrorCode::already_in_room, "leave your room first", rid);
    co_return;
  }
  std::optional<Open> o = take(m.id, me->id);
  if (!o && services_.reach != nullptr) {
    std::string node;
    try {
      node = co_await services_.reach->holder(m.id);
    } catch (const std::exception& e) {
      spdlog::debug("challenge answer: {}", e.what());
    }
    if (!node.empty()) {
      // Held on the challenger's node: it answers (a room there and a redirect, or
      // challenge_cancelled); a decline is confirmed at once.
      services_.reach->forward_answer(node, m.id, me->id, m.accept, reason, rid);
      if (!m.accept) c.send(protocol::encode_challenge_closed("challenge_declined", m.id, rid));
      co_return;
    }
  }
  if (!o) {
    send_error(c, services_.metrics, ErrorCode::no_such_challenge,
               "that challenge was answered, expired or never was", rid);
    co_return;
  }
  if (!m.accept) {
    c.send(protocol::encode_challenge_closed("challenge_declined", m.id, rid));
    std::string declined =
        protocol::encode_challenge_closed("challenge_declined", m.id, {}, reason);
    co_await send(o->from, std::move(declined));
    co_return;
  }
  std::shared_ptr<Participant> to = c.self.lock();
  co_await open_room(std::move(*o), std::move(to), rid);
}

asio::awaitable<void> Challenges::answer_from_afar(std::string id, std::string player, bool accept,
                                                   std::string reason, protocol::Rid rid) {
  std::optional<Open> o = take(id, player);
  if (!o) {
    std::string cancelled = protocol::encode_challenge_closed("challenge_cancelled", id, rid);
    co_await send(player, std::move(cancelled));
    co_return;
  }
  if (!accept) {
    std::string declined = protocol::encode_challenge_closed("challenge_declined", id, {}, reason);
    co_await send(o->from, std::move(declined));
    co_return;
  }
  std::shared_ptr<Participant> elsewhere;  // the friend is on another node
  co_await open_room(std::move(*o), std::move(elsewhere), std::move(rid));
}

asio::awaitable<void> Challenges::cancelled(const Open& o, std::shared_ptr<Participant> to,
                                            protocol::Rid rid) {
  const std::string message = protocol::encode_challenge_closed("challenge_cancelled", o.id, rid);
  if (to) {
    to->deliver(std::make_shared<const std::string>(message));
  } else {
    co_await send(o.to, message);
  }
}

asio::awaitable<void> Challenges::open_room(Open o, std::shared_ptr<Participant> to,
                                            protocol::Rid rid) {
  const auto challenger = services_.players.find(o.from);
  const auto challenger_connection = challenger ? connection_of(*challenger) : nullptr;
  if (!challenger_connection || room_of(*challenger)) {
    co_await cancelled(o, to, rid);
    co_return;
  }
  std::string code;
  bool claimed = true;
  try {
    code = co_await services_.directory.claim_code();
  } catch (const std::exception& e) {
    spdlog::debug("challenge room: {}", e.what());
    claimed = false;
  }
  if (!claimed) {
    co_await cancelled(o, to, rid);
    co_return;
  }
  const auto room = services_.rooms.create(o.options, std::move(code));
  room->join(challenger, challenger_connection, {});
  if (to) {
    if (const auto friend_player = services_.players.find(o.to)) room->join(friend_player, to, rid);
  } else {
    std::string redirect =
        protocol::encode_redirect(services_.reach->url(), room->code(), "join_room", rid);
    co_await send(o.to, std::move(redirect));
  }
}

}  // namespace tilerace::server
