#include "server/game/room.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/move_journal.hpp"
#include "server/game/record_views.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

RaceSettings with_server_clocks(RaceSettings settings) {
  if (settings.secret == nullptr) settings.secret = random_u64;
  if (settings.wall_clock == nullptr) settings.wall_clock = unix_ms;
  return settings;
}

Room::Room(RoomServices services)
    : services_(std::move(services)), timer_(services_.executor), retry_(services_.executor) {
  services_.settings = with_server_clocks(services_.settings);
}

Seat Room::seat_of(const std::shared_ptr<Player>& player, bool connected) {
  players_.emplace(player->id, player);
  std::lock_guard lock(player->mutex);
  return {player->id,
          player->name(),
          player->bot,
          connected ? player->connection : std::weak_ptr<Participant>(),
          player->ratings[protocol::index_of(variant_)],
          player->is_bot()};
}

std::shared_ptr<Room> Room::make(std::string code, const protocol::RoomOptions& options,
                                 RoomServices services, std::shared_ptr<const GhostRun> ghost) {
  std::shared_ptr<Room> room(new Room(std::move(services)));
  room->code_ = code;
  room->public_ = options.is_public;
  room->tournament_ = options.tournament;
  room->variant_ = protocol::variant_of(options.mode, options.size);
  room->state_.emplace(std::move(code), options, room->services_.settings, std::move(ghost));
  return room;
}

std::shared_ptr<Room> Room::restore(const ActiveRaceRecord& record,
                                    std::vector<std::shared_ptr<Player>> players,
                                    RoomServices services, std::shared_ptr<const GhostRun> ghost) {
  std::shared_ptr<Room> room(new Room(std::move(services)));
  room->code_ = record.room;
  room->public_ = record.options.is_public;
  room->tournament_ = record.options.tournament;
  room->variant_ = protocol::variant_of(record.options.mode, record.options.size);
  std::vector<Seat> seats;
  for (const auto& player : players) {
    seats.push_back(player ? room->seat_of(player, false) : Seat{});
  }
  RaceEffects effects;
  std::optional<RaceState> state =
      RaceState::restore(record, std::move(seats), room->services_.settings,
                         RaceState::Clock::now(), effects, std::move(ghost));
  if (!state) return nullptr;
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (record.racers[i].left || !players[i]) continue;
    std::lock_guard lock(players[i]->mutex);
    players[i]->room = room;
  }
  std::unique_lock lock(room->mutex_);
  room->epoch_race_ = record.id;
  room->epoch_ = record.epoch;
  room->state_.emplace(std::move(*state));
  room->apply_locked(std::move(effects), nullptr);
  room->send_unlocking(lock);
  return room;
}

template <class F>
void Room::act(Participant* asker, F&& f) {
  std::unique_lock lock(mutex_);
  apply_locked(f(*state_, RaceState::Clock::now()), asker);
  send_unlocking(lock);
}

void Room::count(const RaceCounts& counts) {
  Metrics& m = *services_.metrics;
  if (counts.moves != 0) m.moves_total.fetch_add(counts.moves, std::memory_order_relaxed);
  if (counts.races_started != 0) {
    m.races_total.fetch_add(counts.races_started, std::memory_order_relaxed);
  }
  if (counts.races_active != 0) {
    m.races_active.fetch_add(counts.races_active, std::memory_order_relaxed);
  }
  for (const protocol::ErrorCode code : counts.errors) m.count_error(code);
}

void Room::send_unlocking(std::unique_lock<std::mutex>& lock) {
  if (outbox_.empty()) return;
  std::lock_guard send(send_mutex_);
  std::swap(outbox_, sending_);
  lock.unlock();
  for (Outgoing& o : sending_) o.to->deliver(std::move(o.message));
  sending_.clear();  // keeps its capacity: a room's steady state allocates nothing here
}

void Room::apply_locked(RaceEffects fx, Participant* asker) {
  count(fx.counts);
  // Ratings first: a tournament's match room lets everyone go in the call that rates them.
  for (const auto& [id, rating] : fx.ratings) {
    if (const auto it = players_.find(id); it != players_.end()) {
      std::lock_guard lock(it->second->mutex);
      it->second->ratings[protocol::index_of(variant_)] = rating;
    }
  }
  for (const std::string& id : fx.released) {
    const auto it = players_.find(id);
    if (it == players_.end()) continue;
    {
      std::lock_guard lock(it->second->mutex);
      if (it->second->room.lock().get() == this) it->second->room.reset();
    }
    if (!state_->seated(id)) players_.erase(it);
  }
  if (fx.result) {
    if (services_.journal != nullptr) {  // recorded under the epoch this room holds
      fx.result->record.epoch = epoch_locked(fx.result->record.id);
      fx.result->record.url = services_.journal->url();
    }
    // (The coroutine may start at once, on this thread: it takes no lock before its first wait.)
    asio::co_spawn(services_.executor, record(shared_from_this(), std::move(*fx.result)),
                   asio::detached);
  }
  if (fx.match_end && on_match_end_) {
    asio::post(services_.executor,
               [on_end = on_match_end_, end = std::move(*fx.match_end)] { on_end(end); });
  }
  if (fx.abandoned_race) {
    asio::co_spawn(services_.executor, forget(services_, std::move(*fx.abandoned_race), code_),
                   asio::detached);
  }
  for (Delivery& d : fx.deliveries) {
    if (d.to) {
      Participant* to = d.to.get();
      outbox_.push_back({std::move(d.to), to, std::move(d.message)});
    } else if (asker != nullptr) {
      outbox_.push_back({nullptr, asker, std::move(d.message)});
    }
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
    self->act(nullptr, [&self](RaceState& s, Time now) {
      self->armed_.reset();
      return s.tick(now);
    });
  });
}

asio::awaitable<void> Room::forget(RoomServices services, std::string race_id, std::string room) {
  if (services.journal != nullptr) services.journal->forget(race_id);
  const std::int64_t at = services.settings.wall_clock();
  const StoreWorker::JobOn<GameStore> drop = [&](GameStore& s) { s.drop_race(race_id, room, at); };
  try {
    co_await services.store->run(drop);
  } catch (const std::exception& e) {
    spdlog::error("race {}: leaving the journal failed: {}", race_id, e.what());
  }
}

asio::awaitable<void> Room::record(std::shared_ptr<Room> self, RaceResult result) {
  std::vector<Grant> granted;
  for (int attempt = 0;; ++attempt) {
    bool committed = false;
    try {
      granted = co_await self->services_.store->record_race(result.record);
      committed = true;
    } catch (const RaceLost& lost) {
      self->lose(result.record.id, lost.owner());  // its owner records it: nothing is announced
      co_return;
    } catch (const std::exception& e) {
      spdlog::error("room {}: recording the race failed (attempt {}): {}", self->code_, attempt + 1,
                    e.what());
    }
    {
      std::unique_lock lock(self->mutex_);
      if (committed) {
        if (self->services_.journal != nullptr) self->services_.journal->forget(result.record.id);
        self->confirmed_ = self->played_;  // the record has every move
        std::vector<Granted> announced;
        for (const Grant& g : granted) {
          if (auto view = view_of(g)) announced.push_back({g.player_id, std::move(*view)});
        }
        self->apply_locked(self->state_->recorded(result, announced), nullptr);
        self->send_unlocking(lock);
        co_return;
      }
      if (attempt == 0) {
        self->apply_locked(self->state_->record_failed(), nullptr);
        self->send_unlocking(lock);
        if (!lock.owns_lock()) lock.lock();
      }
      if (self->stopped_) co_return;  // the journal keeps the race for the next start
      self->retry_.expires_after(std::chrono::seconds(1 << std::min(attempt, 5)));
    }
    auto [ec] = co_await self->retry_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;
  }
}

void Room::join(const std::shared_ptr<Player>& player, const std::shared_ptr<Participant>& to,
                const protocol::Rid& rid) {
  std::unique_lock lock(mutex_);
  Seat seat{player->id, player->name(), player->bot, to, {}, player->is_bot()};
  bool claimed = false;
  {
    std::lock_guard player_lock(player->mutex);
    claimed = player->room.expired();
    if (claimed) player->room = weak_from_this();
    seat.rating = player->ratings[protocol::index_of(variant_)];
  }
  if (claimed) players_.emplace(player->id, player);
  apply_locked(state_->join(seat, claimed, rid, RaceState::Clock::now()), to.get());
  send_unlocking(lock);
}

void Room::leave(Player& player, Participant& to, const protocol::Rid& rid) {
  act(&to, [&](RaceState& s, Time now) { return s.leave(player.id, rid, now); });
}

void Room::set_ready(Player& player, bool ready, Participant& to, const protocol::Rid& rid) {
  act(&to, [&](RaceState& s, Time now) { return s.set_ready(player.id, ready, rid, now); });
}

std::optional<asio::awaitable<void>> Room::play(Player& player,
                                                const std::shared_ptr<Participant>& to,
                                                const protocol::ClientMessage& message,
                                                const protocol::Rid& rid) {
  std::unique_lock lock(mutex_);
  RaceEffects fx = state_->play(player.id, message, rid, RaceState::Clock::now());
  if (!fx.move_entry || services_.journal == nullptr) {
    apply_locked(std::move(fx), to.get());
    send_unlocking(lock);
    return std::nullopt;
  }
  // The answer to the mover waits for the journal; everything else goes out now.
  std::vector<SharedMessage> held;
  fx.deliveries.erase(std::remove_if(fx.deliveries.begin(), fx.deliveries.end(),
                                     [&held](Delivery& d) {
                                       if (d.to) return false;
                                       held.push_back(std::move(d.message));
                                       return true;
                                     }),
                      fx.deliveries.end());
  MoveJournalEntry entry = std::move(*fx.move_entry);
  entry.epoch = epoch_locked(entry.race_id);
  const bool in_store = entry.race_id == in_store_race_;
  const std::uint64_t seq = ++played_;
  apply_locked(std::move(fx), nullptr);
  send_unlocking(lock);
  return journal_then_answer(shared_from_this(), std::move(entry), seq, in_store, to,
                             std::move(held));
}

asio::awaitable<void> Room::journal_then_answer(std::shared_ptr<Room> self, MoveJournalEntry entry,
                                                std::uint64_t seq, bool in_store,
                                                std::shared_ptr<Participant> to,
                                                std::vector<SharedMessage> held) {
  const std::string race_id = entry.race_id;
  // A node adopting the race finds it through the store's journal: a young race (not in it
  // yet: it is written once a second) is written before its first moves are answered.
  if (!in_store) {
    Confirmation c = co_await confirm(self, seq);
    if (c.owner) {
      self->lose(race_id, *c.owner);
      co_return;
    }
    if (!c.confirmed) co_return;  // stopped, or handed over meanwhile
  }
  std::optional<RaceOwner> owner;
  bool journaled = false;
  try {
    owner = co_await self->services_.journal->append(std::move(entry));
    journaled = true;
  } catch (const std::exception& e) {
    // Not in the move journal (Redis away, the lease unconfirmed, or a move of this race
    // missed it before): the store's journal must have it before it is answered.
    self->services_.metrics->unjournaled_moves_total.fetch_add(1, std::memory_order_relaxed);
    spdlog::debug("room {}: a move is confirmed by the store: {}", self->code_, e.what());
  }
  if (!journaled) {
    Confirmation c = co_await confirm(self, seq);
    if (!c.confirmed && !c.owner) co_return;  // stopped, or handed over meanwhile
    owner = std::move(c.owner);
  }
  if (owner) {
    self->lose(race_id, *owner);
    co_return;
  }
  self->answer(seq, std::move(to), std::move(held));
}

asio::awaitable<Room::Confirmation> Room::confirm(std::shared_ptr<Room> self, std::uint64_t seq) {
  {
    std::lock_guard lock(self->mutex_);
    if (self->confirmed_ >= seq) co_return Confirmation{true, std::nullopt};
  }
  asio::steady_timer pause(self->services_.executor);
  for (;;) {
    bool done = false;
    bool ended = false;
    std::optional<ActiveRaceRecord> record;
    std::uint64_t covers = 0;
    std::vector<LostRace> lost;
    const StoreWorker::JobOn<GameStore> write = [&](GameStore& s) {
      {
        // Taken here, on the store's thread: every move played while earlier writes ran is in
        // this one (one write confirms them all).
        std::lock_guard lock(self->mutex_);
        done = self->confirmed_ >= seq;
        if (done) return;
        record = self->state_->active_record(RaceState::Clock::now());
        if (record) self->fence_locked(*record);
        covers = self->played_;
      }
      if (record) lost = s.journal_races({*record});
    };
    try {
      co_await self->services_.store->run(write);
      if (!lost.empty()) co_return Confirmation{false, std::move(lost.front().owner)};
      std::lock_guard lock(self->mutex_);
      if (done || record) {
        self->confirmed_ = std::max(self->confirmed_, covers);
        if (record) self->in_store_race_ = record->id;
        co_return Confirmation{true, std::nullopt};
      }
      ended = true;  // its recording confirms the move (or hands the race over): wait for it
    } catch (const std::exception& e) {
      spdlog::debug("room {}: a move waits for the store: {}", self->code_, e.what());
    }
    {
      std::lock_guard lock(self->mutex_);
      if (self->stopped_ || self->lost_) co_return Confirmation{};
    }
    pause.expires_after(ended ? std::chrono::milliseconds(50) : std::chrono::milliseconds(250));
    co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
  }
}

void Room::answer(std::uint64_t seq, std::shared_ptr<Participant> to,
                  std::vector<SharedMessage> held) {
  std::unique_lock lock(mutex_);
  if (lost_) return;
  ready_.emplace(seq, Answer{std::move(to), std::move(held)});
  for (auto it = ready_.find(next_answer_); it != ready_.end(); it = ready_.find(next_answer_)) {
    Participant* to = it->second.to.get();
    for (SharedMessage& m : it->second.held) outbox_.push_back({it->second.to, to, std::move(m)});
    ready_.erase(it);
    ++next_answer_;
  }
  send_unlocking(lock);
}

void Room::lose(const std::string& race_id, const RaceOwner& owner) {
  {
    std::unique_lock lock(mutex_);
    if (lost_ || closed_ || state_->race_id() != race_id) return;
    lost_ = true;
    ready_.clear();
    services_.metrics->races_handed_over_total.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("room {}: race {} is {}'s now (epoch {}): its racers and spectators go there",
                 code_, race_id, owner.node, owner.epoch);
    apply_locked(state_->hand_over(owner.url), nullptr);
    send_unlocking(lock);
  }
  if (services_.on_handed_over && !owner.url.empty()) services_.on_handed_over(code_, owner.url);
}

void Room::stored(const std::string& race_id) {
  std::lock_guard lock(mutex_);
  in_store_race_ = race_id;
}

std::int64_t Room::epoch_locked(const std::string& race_id) const {
  return race_id == epoch_race_ ? epoch_ : 1;
}

void Room::fence_locked(ActiveRaceRecord& record) const {
  if (services_.journal == nullptr) return;
  record.epoch = epoch_locked(record.id);
  record.url = services_.journal->url();
}

void Room::seat_ghost() {
  act(nullptr, [](RaceState& s, Time) { return s.seat_ghost(); });
}

void Room::seat(const std::shared_ptr<Player>& a, const std::shared_ptr<Player>& b,
                std::optional<Time> a_expected_by) {
  state_->seat({{seat_of(a, !a_expected_by), a_expected_by}, {seat_of(b, true), std::nullopt}});
}

void Room::seat_match(const std::vector<std::shared_ptr<Player>>& players, Time away_until,
                      std::function<void(const MatchEnd&)> on_end) {
  on_match_end_ = std::move(on_end);
  std::vector<std::pair<Seat, std::optional<Time>>> seats;
  for (const auto& player : players) {
    Seat seat = seat_of(player, true);
    const bool away = seat.connection.expired();
    seats.emplace_back(std::move(seat), away ? std::optional<Time>(away_until) : std::nullopt);
  }
  state_->seat(seats);
}

void Room::watch(std::function<void(const MatchEnd&)> on_end) {
  std::lock_guard lock(mutex_);
  on_match_end_ = std::move(on_end);
}

void Room::announce(Participant* direct, const protocol::Rid& rid) {
  act(direct, [&](RaceState& s, Time now) { return s.announce(direct != nullptr, rid, now); });
}

bool Room::add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid) {
  bool added = false;
  act(spectator.get(),
      [&](RaceState& s, Time now) { return s.add_spectator(spectator, rid, now, added); });
  return added;
}

void Room::remove_spectator(const Participant* spectator) {
  act(nullptr, [&](RaceState& s, Time) { return s.remove_spectator(spectator); });
}

void Room::set_watchers(std::vector<std::weak_ptr<Participant>> watchers) {
  act(nullptr, [&](RaceState& s, Time now) { return s.set_watchers(std::move(watchers), now); });
}

void Room::reconnected(Player& player, const std::shared_ptr<Participant>& to) {
  act(to.get(), [&](RaceState& s, Time now) { return s.reconnected(player.id, to, now); });
}

void Room::disconnected(Player& player) {
  act(nullptr, [&](RaceState& s, Time now) { return s.disconnected(player.id, now); });
}

void Room::renamed(const std::string& player_id, std::string name) {
  act(nullptr, [&](RaceState& s, Time) { return s.rename(player_id, std::move(name)); });
}

void Room::round_trip(Player& player, int ms) {
  act(nullptr, [&](RaceState& s, Time) { return s.round_trip(player.id, ms); });
}

protocol::RoomView Room::summary() const {
  std::lock_guard lock(mutex_);
  return state_->summary();
}

protocol::RoomView Room::listing() const {
  std::lock_guard lock(mutex_);
  return state_->listing();
}

std::vector<std::string> Room::checks() const {
  std::lock_guard lock(mutex_);
  return state_->checks();
}

std::optional<ActiveRaceRecord> Room::active_record() {
  std::lock_guard lock(mutex_);
  std::optional<ActiveRaceRecord> record = state_->active_record(RaceState::Clock::now());
  if (record) fence_locked(*record);
  return record;
}

std::optional<std::vector<std::shared_ptr<Participant>>> Room::racers_here() {
  std::vector<std::shared_ptr<Player>> racers;
  {
    std::lock_guard lock(mutex_);
    if (lost_ || closed_ || !tournament_.empty() ||
        !state_->active_record(RaceState::Clock::now())) {
      return std::nullopt;
    }
    for (const auto& [id, player] : players_) racers.push_back(player);
  }
  std::vector<std::shared_ptr<Participant>> here;
  for (const auto& player : racers) {
    std::lock_guard lock(player->mutex);
    auto connection = player->connection.lock();
    if (connection && player->epoch >= player->newest_epoch) here.push_back(std::move(connection));
  }
  return here;
}

void Room::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  armed_.reset();
  timer_.cancel();
  retry_.cancel();
}

void Room::kick(Player& host, const std::string& target, Participant& to,
                const protocol::Rid& rid) {
  act(&to, [&](RaceState& s, Time now) { return s.kick(host.id, target, rid, now); });
}

void Room::close_by_operator(std::string_view reason) {
  act(nullptr, [&](RaceState& s, Time) { return s.close_by_operator(reason); });
}

void Room::emote(Player& player, Participant& to, protocol::Emote emote, const protocol::Rid& rid) {
  act(&to, [&](RaceState& s, Time now) { return s.emote(player.id, emote, rid, now); });
}

std::optional<engine::Game> Room::racing_game(const Player& player) {
  std::lock_guard lock(mutex_);
  return state_->racing_game(player.id);
}

}  // namespace tilerace::server
