#include "server/game/room.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

#include "server/game/move_journal.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

Room::Room(RoomServices services)
    : services_(std::move(services)), timer_(services_.executor), retry_(services_.executor) {}

std::shared_ptr<Room> Room::make(std::string code, const protocol::RoomOptions& options,
                                 RoomServices services) {
  std::shared_ptr<Room> room(new Room(std::move(services)));
  room->code_ = code;
  room->public_ = options.is_public;
  room->state_.emplace(std::move(code), options, room->services_.settings, *room->services_.metrics,
                       room);
  return room;
}

std::shared_ptr<Room> Room::restore(const ActiveRaceRecord& record,
                                    std::vector<std::shared_ptr<Player>> players,
                                    RoomServices services) {
  std::shared_ptr<Room> room(new Room(std::move(services)));
  room->code_ = record.room;
  room->public_ = record.options.is_public;
  std::optional<RaceState> state =
      RaceState::restore(record, players, room->services_.settings, *room->services_.metrics, room,
                         RaceState::Clock::now());
  if (!state) return nullptr;
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (record.racers[i].left) continue;
    std::lock_guard lock(players[i]->mutex);
    players[i]->room = room;
  }
  {
    std::lock_guard lock(room->mutex_);
    room->state_.emplace(std::move(*state));
    room->settle_locked();
  }
  return room;
}

template <class F>
auto Room::act(F&& f) {
  std::lock_guard lock(mutex_);
  struct Settle {
    Room& room;
    ~Settle() { room.settle_locked(); }
  } settle{*this};
  return f(*state_, RaceState::Clock::now());
}

void Room::settle_locked() {
  if (auto result = state_->take_result()) {
    asio::co_spawn(services_.executor, record(shared_from_this(), std::move(*result)),
                   asio::detached);
  }
  if (state_->closed()) {
    if (closed_) return;
    closed_ = true;
    timer_.cancel();
    services_.metrics->rooms.fetch_sub(1, std::memory_order_relaxed);
    services_.on_closed(code_);
    return;
  }
  if (stopped_) return;
  const std::optional<Time> next = state_->next_deadline();
  if (next == armed_) return;
  armed_ = next;
  if (!next) {
    timer_.cancel();
    return;
  }
  timer_.expires_at(*next);
  timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    const auto self = weak.lock();
    if (ec || !self) return;
    self->act([&self](RaceState& s, Time now) {
      self->armed_.reset();
      s.tick(now);
    });
  });
}

asio::awaitable<void> Room::record(std::shared_ptr<Room> self, RaceResult result) {
  std::vector<Grant> granted;
  const StoreWorker::Job save = [&result, &granted](Store& s) {
    granted = s.record_race(result.record);
  };
  for (int attempt = 0;; ++attempt) {
    bool committed = false;
    try {
      co_await self->services_.store->run(save);
      committed = true;
    } catch (const std::exception& e) {
      spdlog::error("room {}: recording the race failed (attempt {}): {}", self->code_, attempt + 1,
                    e.what());
    }
    {
      std::lock_guard lock(self->mutex_);
      if (committed) {
        if (self->services_.journal != nullptr) self->services_.journal->forget(result.record.id);
        self->state_->recorded(result, granted);
        self->settle_locked();
        co_return;
      }
      if (attempt == 0) self->state_->record_failed();
      if (self->stopped_) co_return;  // the journal keeps the race for the next start
      self->retry_.expires_after(std::chrono::seconds(1 << std::min(attempt, 5)));
    }
    auto [ec] = co_await self->retry_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;
  }
}

void Room::join(const std::shared_ptr<Player>& player, Participant& to, const protocol::Rid& rid) {
  act([&](RaceState& s, Time) { s.join(player, to, rid); });
}

void Room::leave(Player& player, Participant& to, const protocol::Rid& rid) {
  act([&](RaceState& s, Time now) { s.leave(player, to, rid, now); });
}

void Room::set_ready(Player& player, bool ready, Participant& to, const protocol::Rid& rid) {
  act([&](RaceState& s, Time now) { s.set_ready(player, ready, to, rid, now); });
}

void Room::play(Player& player, Participant& to, const protocol::ClientMessage& message,
                const protocol::Rid& rid) {
  auto entry = act([&](RaceState& s, Time now) { return s.play(player, to, message, rid, now); });
  if (entry && services_.journal != nullptr) services_.journal->append_later(std::move(*entry));
}

asio::awaitable<void> Room::play_acked(Player& player, Participant& to,
                                       const protocol::ClientMessage& message, protocol::Rid rid) {
  if (services_.journal == nullptr) {
    play(player, to, message, rid);
    co_return;
  }
  // What the race answers the mover, held until the journal has the move.
  struct Held final : Participant {
    std::vector<SharedMessage> messages;
    void deliver(SharedMessage message) override { messages.push_back(std::move(message)); }
    void close(std::uint16_t) override {}
  };
  Held held;
  bool in_store = false;
  auto entry = act([&](RaceState& s, Time now) {
    auto e = s.play(player, held, message, rid, now);
    in_store = e && e->race_id == in_store_race_;
    return e;
  });
  if (entry && !in_store) {
    // A survivor finds a race through the store's journal: a young race (not in it yet: it
    // is written once a second) is written now, before its first moves are answered.
    std::optional<ActiveRaceRecord> record = journal();
    const StoreWorker::Job write = [&record](Store& s) {
      if (record) s.journal_races({*record});
    };
    try {
      co_await services_.store->run(write);
      std::lock_guard lock(mutex_);
      in_store_race_ = entry->race_id;
    } catch (const std::exception& e) {
      spdlog::debug("room {}: the race could not be journaled: {}", code_, e.what());
    }
  }
  if (entry) {
    try {
      co_await services_.journal->append(std::move(*entry));
    } catch (const std::exception& e) {
      // Redis away: the move stands, answered, but a survivor would not know it.
      services_.metrics->unjournaled_moves_total.fetch_add(1, std::memory_order_relaxed);
      spdlog::debug("room {}: a move could not be journaled: {}", code_, e.what());
    }
  }
  for (SharedMessage& m : held.messages) to.deliver(std::move(m));
}

void Room::seat(const std::shared_ptr<Player>& a, const std::shared_ptr<Player>& b,
                std::optional<Time> a_expected_by) {
  act([&](RaceState& s, Time) { s.seat(a, b, a_expected_by); });
}

void Room::announce(Participant* direct, const protocol::Rid& rid) {
  act([&](RaceState& s, Time now) { s.announce(direct, rid, now); });
}

bool Room::add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid) {
  return act([&](RaceState& s, Time now) { return s.add_spectator(spectator, rid, now); });
}

void Room::remove_spectator(const Participant* spectator) {
  act([&](RaceState& s, Time) { s.remove_spectator(spectator); });
}

void Room::reconnected(Player& player, Participant& to) {
  act([&](RaceState& s, Time now) { s.reconnected(player, to, now); });
}

void Room::disconnected(Player& player) {
  act([&](RaceState& s, Time now) { s.disconnected(player, now); });
}

protocol::RoomView Room::summary() const {
  std::lock_guard lock(mutex_);
  return state_->summary();
}

std::optional<ActiveRaceRecord> Room::journal() {
  std::lock_guard lock(mutex_);
  return state_->journal(RaceState::Clock::now());
}

void Room::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  armed_.reset();
  timer_.cancel();
  retry_.cancel();
}

void Room::emote(Player& player, Participant& to, protocol::Emote emote, const protocol::Rid& rid) {
  act([&](RaceState& s, Time now) { s.emote(player, to, emote, rid, now); });
}

std::optional<engine::Game> Room::racing_game(const Player& player) {
  std::lock_guard lock(mutex_);
  return state_->racing_game(player);
}

}  // namespace tilerace::server
