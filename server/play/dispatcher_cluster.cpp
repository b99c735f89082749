// The dispatcher's room messages in cluster mode (--redis): codes claimed across nodes,
// redirects to the node hosting a room, listings of every node, quick match through the
// shared queue. server/cluster.hpp has the model.
#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>

#include "protocol/encode.hpp"
#include "server/base/address_limits.hpp"
#include "server/cluster/cluster.hpp"
#include "server/play/bot_fallback.hpp"
#include "server/play/dispatcher.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

// How long a partner paired from another node has to arrive before their seat is given up.
constexpr auto kMatchReservation = std::chrono::seconds(15);
// Partners popped from the queue who turn out to be busy before we queue ourselves instead.
constexpr int kPairAttempts = 32;

}  // namespace

void Dispatcher::leave_queue(Player& player) {
  if (cluster_ != nullptr) return cluster_->leave_queue(player.id);
  matchmaker_.cancel(player);
}

void Dispatcher::send_unavailable(Connection& c, const protocol::Rid& rid) {
  send_error(c,
             {ErrorCode::unavailable,
              "rooms on other nodes cannot be reached right now (the cluster directory is down): "
              "try again shortly",
              ""},
             rid);
}

asio::awaitable<void> Dispatcher::cluster_create(Connection& c,
                                                 const protocol::RoomOptions& options,
                                                 const protocol::Rid& rid) {
  std::string code;
  try {
    co_await cluster_->unqueue(c.player->id);
    code = co_await cluster_->claim_new_code();
  } catch (const std::exception& e) {
    spdlog::debug("create_room: {}", e.what());
    send_unavailable(c, rid);
    co_return;
  }
  stop_spectating(c);
  // Room::join answers already_in_room (and closes the room, releasing the code) if a quick
  // match seated the player meanwhile.
  open_room(c, rooms_.create(options, std::move(code)), options, rid);
}

asio::awaitable<void> Dispatcher::cluster_locate(Connection& c, const std::string& code,
                                                 std::string_view reason,
                                                 const protocol::Rid& rid) {
  std::optional<std::string> url;
  try {
    url = co_await cluster_->locate(code);
  } catch (const std::exception& e) {
    spdlog::debug("{} {}: {}", reason, code, e.what());
    send_unavailable(c, rid);
    co_return;
  }
  if (!url) {
    error(c, ErrorCode::no_such_room, "no room with that code", rid);
    co_return;
  }
  metrics_.redirects_total.fetch_add(1, std::memory_order_relaxed);
  c.send(protocol::encode_redirect(*url, code, reason, rid));
}

asio::awaitable<void> Dispatcher::cluster_resume(std::weak_ptr<Participant> to,
                                                 std::shared_ptr<Player> player) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (int attempt = 0; attempt < kResumeTries; ++attempt) {
    if (attempt > 0) {
      timer.expires_after(kResumeEvery);
      co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    const std::shared_ptr<Participant> out = to.lock();
    if (!out || room_of(*player)) co_return;  // gone, or back in a room here
    {
      std::lock_guard lock(player->mutex);
      if (player->connection.lock() != out) co_return;  // a newer connection took over
    }
    std::optional<std::string> code;
    std::optional<std::string> url;
    try {
      const StoreWorker::Job find = [&](Store& s) { code = s.race_room_of(player->id); };
      co_await store_.run(find);
      if (!code) co_return;  // not racing anywhere
      url = co_await cluster_->locate(*code);
    } catch (const std::exception& e) {
      spdlog::debug("resume {}: {}", player->id, e.what());  // try again
      continue;
    }
    if (!url) continue;  // its node is gone and its race not adopted yet (or it is here soon)
    metrics_.redirects_total.fetch_add(1, std::memory_order_relaxed);
    out->deliver(
        std::make_shared<const std::string>(protocol::encode_redirect(*url, *code, "resume", {})));
    co_return;
  }
}

asio::awaitable<void> Dispatcher::cluster_quick_match(Connection& c, const protocol::QuickMatch& m,
                                                      const protocol::Rid& rid) {
  stop_spectating(c);
  const protocol::RoomOptions options = quick_match_room(m);
  const std::string key = std::string(engine::to_string(m.mode)) + ":" + std::to_string(m.size);
  try {
    for (int attempt = 0; attempt < kPairAttempts; ++attempt) {
      const std::optional<Cluster::Waiting> partner = co_await cluster_->pair(key, c.player->id);
      if (!partner) {
        c.send(protocol::encode_bare("queued", rid));
        if (fallback_ != nullptr) fallback_->queued(c.player, options);
        co_return;
      }
      const bool here = partner->node == cluster_->settings().node;
      std::shared_ptr<Player> waiting = players_.find(partner->player);
      if (!here && !waiting) {
        std::optional<PlayerRecord> record;
        const std::string& id = partner->player;
        const StoreWorker::Job load = [&](Store& s) { record = s.find_player(id); };
        co_await store_.run(load);
        if (record) waiting = players_.adopt(*record);
      }
      if (!waiting) continue;  // gone
      std::string code = co_await cluster_->claim_new_code();
      std::shared_ptr<Room> room;
      std::optional<Room::Time> expected_by;
      if (!here) expected_by = Room::Time::clock::now() + kMatchReservation;
      const Claim claim =
          rooms_.create_matched(options, waiting, c.player, room, code, expected_by);
      if (claim != Claim::paired) {
        cluster_->release(code);
        if (claim == Claim::arriving_busy) {
          error(c, ErrorCode::already_in_room, "leave your room first", rid);
          co_return;
        }
        continue;  // the partner is busy: the next one
      }
      if (here) {
        cluster_->forget_queued(waiting->id);
      } else {
        // The partner's node redirects them here; they are seated and expected.
        co_await cluster_->announce_match(*partner, room->code());
      }
      room->announce(&c.out, rid);
      co_return;
    }
  } catch (const std::exception& e) {
    spdlog::debug("quick_match: {}", e.what());
  }
  send_unavailable(c, rid);
}

asio::awaitable<void> Dispatcher::cluster_cancel_match(Connection& c, const protocol::Rid& rid) {
  try {
    co_await cluster_->unqueue(c.player->id);
  } catch (const std::exception& e) {
    // Its entry stays until a pairing pops it; that pairing finds the player absent.
    spdlog::debug("cancel_match: {}", e.what());
  }
  c.send(protocol::encode_bare("match_cancelled", rid));
}

}  // namespace tilerace::server
