#include "server/room.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <algorithm>

#include "server/apply_move.hpp"
#include "server/secrets.hpp"
#include "server/standings.hpp"
#include "server/unix_time.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

SharedMessage share(std::string text) {
  return std::make_shared<const std::string>(std::move(text));
}

bool playing(const engine::Game& g) { return g.state() == engine::GameState::playing; }

}  // namespace

Room::Room(std::string code, protocol::RoomOptions options, RoomServices& services)
    : code_(std::move(code)),
      options_(options),
      services_(services),
      countdown_timer_(services.executor),
      clock_timer_(services.executor) {}

Room::Racer* Room::find(const Player& player) {
  for (auto& r : racers_) {
    if (r.player.get() == &player && !r.left) return &r;
  }
  return nullptr;
}

protocol::RoomView Room::view_locked() const {
  static constexpr std::array<std::string_view, 4> kStates{"waiting", "countdown", "racing",
                                                           "racing"};
  protocol::RoomView view{code_,    host_,
                          options_, std::string(kStates[static_cast<int>(state_)]),
                          {},       static_cast<int>(spectators_.size())};
  view.players.reserve(racers_.size());
  for (const auto& r : racers_) {
    if (r.left) continue;
    view.players.push_back(
        {r.player->id, r.player->name, r.ready, r.connected, r.game ? r.game->score() : 0});
  }
  return view;
}

protocol::RoomView Room::summary() const {
  std::lock_guard lock(mutex_);
  return view_locked();
}

std::vector<protocol::RacerGame> Room::games_locked() const {
  std::vector<protocol::RacerGame> games;
  for (const auto& r : racers_) {
    if (r.game) games.push_back({r.player->id, {r.game_id, *r.game, false}});
  }
  return games;
}

void Room::send_to(const Racer& racer, const SharedMessage& message) const {
  if (racer.left || !racer.connected) return;
  std::shared_ptr<Participant> connection;
  {
    std::lock_guard lock(racer.player->mutex);
    connection = racer.player->connection.lock();
  }
  if (connection) connection->deliver(message);
}

void Room::send_error(Participant& to, ErrorCode code, std::string_view text,
                      const protocol::Rid& rid) const {
  services_.metrics.count_error(code);
  to.deliver(share(protocol::encode_error(code, text, rid)));
}

void Room::broadcast(const SharedMessage& message, const Participant* except) {
  for (const auto& r : racers_) {
    if (r.left || !r.connected) continue;
    std::shared_ptr<Participant> connection;
    {
      std::lock_guard lock(r.player->mutex);
      connection = r.player->connection.lock();
    }
    if (connection && connection.get() != except) connection->deliver(message);
  }
  std::erase_if(spectators_, [](const auto& w) { return w.expired(); });
  for (const auto& w : spectators_) {
    if (auto s = w.lock(); s && s.get() != except) s->deliver(message);
  }
}

void Room::broadcast_room(Participant* direct, const protocol::Rid& rid) {
  const protocol::RoomView view = view_locked();
  if (direct != nullptr) direct->deliver(share(protocol::encode_room(view, rid)));
  broadcast(share(protocol::encode_room(view, {})), direct);
}

void Room::join(const std::shared_ptr<Player>& player, Participant& to, const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  if (closed_) return send_error(to, ErrorCode::no_such_room, "no room with that code", rid);
  if (state_ != State::waiting) {
    return send_error(to, ErrorCode::race_running, "the race has started: spectate instead", rid);
  }
  const auto members =
      std::count_if(racers_.begin(), racers_.end(), [](const Racer& r) { return !r.left; });
  if (members >= options_.max_players) {
    return send_error(to, ErrorCode::room_full, "the room is full", rid);
  }
  {
    std::lock_guard player_lock(player->mutex);
    if (!player->room.expired()) {
      return send_error(to, ErrorCode::already_in_room, "leave your room first", rid);
    }
    player->room = shared_from_this();
  }
  Racer racer;
  racer.player = player;
  racers_.push_back(std::move(racer));
  if (host_.empty()) host_ = player->id;
  broadcast_room(&to, rid);
}

void Room::remove_racer_locked(std::size_t index) {
  Racer& racer = racers_[index];
  if (racer.grace) racer.grace->cancel();
  {
    std::lock_guard lock(racer.player->mutex);
    if (racer.player->room.lock().get() == this) racer.player->room.reset();
  }
  const std::string id = racer.player->id;
  racers_.erase(racers_.begin() + static_cast<std::ptrdiff_t>(index));
  hand_over_host_locked(id);
  if (host_.empty() && state_ != State::racing && state_ != State::finishing) close_locked();
}

void Room::hand_over_host_locked(const std::string& leaving) {
  if (host_ != leaving) return;
  const auto next =
      std::find_if(racers_.begin(), racers_.end(), [](const Racer& r) { return !r.left; });
  host_ = next == racers_.end() ? "" : next->player->id;
}

void Room::drop_out_locked(Racer& racer) {
  forfeit_locked(racer);
  racer.left = true;
  {
    std::lock_guard player_lock(racer.player->mutex);
    racer.player->room.reset();
  }
  hand_over_host_locked(racer.player->id);
  broadcast_room(nullptr, {});
  check_end_locked(std::nullopt);
}

void Room::close_locked() {
  if (closed_) return;
  closed_ = true;
  countdown_timer_.cancel();
  clock_timer_.cancel();
  const SharedMessage stopped = share(protocol::encode_bare("stopped", {}));
  for (const auto& w : spectators_) {
    if (auto s = w.lock()) s->deliver(stopped);
  }
  spectators_.clear();
  services_.metrics.rooms.fetch_sub(1, std::memory_order_relaxed);
  services_.on_empty(code_);
}

void Room::leave(Player& player, Participant& to, const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  Racer* racer = find(player);
  if (racer == nullptr)
    return send_error(to, ErrorCode::not_in_room, "you are not in this room", rid);
  to.deliver(share(protocol::encode_left(code_, rid)));
  if (state_ == State::racing) return drop_out_locked(*racer);  // a forfeit
  if (state_ == State::finishing) {
    racer->left = true;
    std::lock_guard player_lock(player.mutex);
    player.room.reset();
    return;
  }
  if (state_ == State::countdown) {
    countdown_timer_.cancel();
    state_ = State::waiting;
  }
  remove_racer_locked(static_cast<std::size_t>(racer - racers_.data()));
  if (!closed_) broadcast_room(nullptr, {});
}

void Room::set_ready(Player& player, bool ready, Participant& to, const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  Racer* racer = find(player);
  if (racer == nullptr)
    return send_error(to, ErrorCode::not_in_room, "you are not in this room", rid);
  if (state_ == State::racing || state_ == State::finishing) {
    return send_error(to, ErrorCode::race_running, "the race is running", rid);
  }
  racer->ready = ready;
  if (state_ == State::countdown && !ready) {
    countdown_timer_.cancel();
    state_ = State::waiting;
  }
  broadcast_room(&to, rid);
  maybe_start_locked();
}

void Room::maybe_start_locked() {
  if (state_ != State::waiting) return;
  int racers = 0;
  for (const auto& r : racers_) {
    if (r.left) continue;
    if (!r.ready || !r.connected) return;
    ++racers;
  }
  if (racers < 2) return;
  const int seconds = services_.options.countdown;
  if (seconds == 0) return start_race_locked();
  state_ = State::countdown;
  broadcast(share(protocol::encode_countdown(code_, seconds)));
  countdown_timer_.expires_after(std::chrono::seconds(seconds));
  countdown_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    const auto self = weak.lock();
    if (ec || !self) return;
    std::lock_guard lock(self->mutex_);
    if (self->state_ == State::countdown) self->start_race_locked();
  });
}

void Room::start_race_locked() {
  // Fairness: one seed per race, so every racer starts from the same board and draws the
  // same spawns. It is revealed only by the replays, after the race.
  const engine::GameConfig config{options_.mode, options_.size, options_.target, random_u64()};
  for (auto& r : racers_) {
    r.game.emplace(config);
    r.game_id = random_hex(8);
    r.cap_tokens = options_.max_moves_per_second;
    r.cap_last = Clock::now();
  }
  state_ = State::racing;
  race_started_at_ = unix_ms();
  race_deadline_ = Clock::now() + std::chrono::seconds(options_.time_limit);
  services_.metrics.races_total.fetch_add(1, std::memory_order_relaxed);
  broadcast(share(protocol::encode_race_start(code_, options_.time_limit, games_locked())));
  clock_timer_.expires_at(race_deadline_);
  clock_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    const auto self = weak.lock();
    if (ec || !self) return;
    std::lock_guard lock(self->mutex_);
    if (self->state_ == State::racing) self->end_race_locked("time", std::nullopt);
  });
}

bool Room::allow_move_locked(Racer& racer) {
  const int cap = options_.max_moves_per_second;
  if (cap == 0) return true;
  const auto now = Clock::now();
  const std::chrono::duration<double> elapsed = now - racer.cap_last;
  racer.cap_last = now;
  racer.cap_tokens = std::min<double>(cap, racer.cap_tokens + elapsed.count() * cap);
  if (racer.cap_tokens < 1) return false;
  racer.cap_tokens -= 1;
  return true;
}

void Room::play(Player& player, Participant& to, const protocol::ClientMessage& message,
                const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  Racer* racer = find(player);
  if (racer == nullptr)
    return send_error(to, ErrorCode::not_in_room, "you are not in this room", rid);
  if (state_ == State::waiting || state_ == State::countdown) {
    return send_error(to, ErrorCode::not_started, "the race has not started", rid);
  }
  if (std::holds_alternative<protocol::Undo>(message)) {
    return send_error(to, ErrorCode::not_allowed, "no undo in a race", rid);
  }
  if (state_ == State::finishing || !racer->game || !playing(*racer->game)) {
    return send_error(to, ErrorCode::game_over, "your race game has ended", rid);
  }
  engine::Game& game = *racer->game;
  const std::size_t index = static_cast<std::size_t>(racer - racers_.data());
  const protocol::GameView view{racer->game_id, game, false};
  if (std::holds_alternative<protocol::Resign>(message)) {
    game.end(engine::GameState::resigned);
    to.deliver(share(protocol::encode_game(view, rid)));
    broadcast(share(protocol::encode_race_update(code_, player.id, game, {})), &to);
    return check_end_locked(std::nullopt);
  }
  if (const auto refused = check_move(game, message)) {
    send_error(to, refused->code, refused->message, rid);
    if (refused->code == ErrorCode::stale) to.deliver(share(protocol::encode_game(view, rid)));
    return;
  }
  if (!allow_move_locked(*racer)) {
    return send_error(to, ErrorCode::rate_limited, "this room caps moves per second", rid);
  }
  engine::MoveOutcome outcome;
  const std::optional<engine::Direction> dir = apply_move(game, message, outcome);
  to.deliver(share(protocol::encode_moved(view, dir, outcome, rid)));
  if (!outcome.changed) return;
  services_.metrics.moves_total.fetch_add(1, std::memory_order_relaxed);
  broadcast(share(protocol::encode_race_update(code_, player.id, game, outcome)), &to);
  check_end_locked(game.won() ? std::optional<std::size_t>(index) : std::nullopt);
}

void Room::forfeit_locked(Racer& racer) {
  if (!racer.game || !racer.game->end(engine::GameState::forfeited)) return;
  broadcast(share(protocol::encode_race_update(code_, racer.player->id, *racer.game, {})));
}

void Room::check_end_locked(std::optional<std::size_t> target_winner) {
  if (state_ != State::racing) return;
  if (target_winner) return end_race_locked("target", target_winner);
  std::size_t still_in = 0, playing_count = 0, last_in = 0;
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const auto state = racers_[i].game->state();
    if (state != engine::GameState::forfeited && state != engine::GameState::resigned) {
      ++still_in;
      last_in = i;
    }
    playing_count += state == engine::GameState::playing;
  }
  if (still_in == 1 && racers_.size() >= 2) return end_race_locked("forfeit", last_in);
  if (playing_count == 0) end_race_locked("all_over", std::nullopt);
}

void Room::end_race_locked(std::string_view reason, std::optional<std::size_t> winner_index) {
  state_ = State::finishing;
  clock_timer_.cancel();
  const bool fifteen = options_.mode == engine::Mode::fifteen;
  std::vector<RacerResult> results;
  for (const auto& r : racers_) {
    const engine::Game& g = *r.game;
    const auto s = g.state();
    results.push_back(
        {g.score(), g.max_tile(), g.moves(), g.tiles_home(),
         r.left || s == engine::GameState::forfeited || s == engine::GameState::resigned});
  }
  const bool forfeit = reason == "forfeit";
  const Ranking ranking =
      rank_racers(results, fifteen, reason == "target" || forfeit ? winner_index : std::nullopt);

  std::vector<int> before;
  for (const auto& r : racers_) {
    std::lock_guard lock(r.player->mutex);
    before.push_back(r.player->rating);
  }
  const std::vector<int> after = elo_update(before, ranking.place);

  RaceRecord record{random_hex(8),
                    code_,
                    std::string(reason),
                    ranking.winner ? racers_[*ranking.winner].player->id : "",
                    "",
                    {},
                    {},
                    unix_ms()};
  protocol::RaceOverView over{code_, reason, std::nullopt, {}, {}, {}};
  if (ranking.winner) over.winner = racers_[*ranking.winner].player->id;
  for (std::size_t i : ranking.order) {
    const Racer& r = racers_[i];
    const engine::Game& g = *r.game;
    over.standings.push_back(
        {r.player->id, r.player->name, g.score(), g.max_tile(), g.moves(), g.state()});
  }
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const Racer& r = racers_[i];
    const engine::Game& g = *r.game;
    over.ratings.push_back({r.player->id, before[i], after[i]});
    over.replays.push_back({r.player->id, r.game_id});
    record.games.push_back({r.game_id, r.player->id, g.config(), g.history(), g.score(),
                            g.max_tile(), g.moves(), g.state(), true, race_started_at_,
                            record.ended_at, code_});
    const bool won = ranking.winner == i;
    record.ratings.push_back({r.player->id, before[i], after[i], won, ranking.winner && !won});
  }
  std::string message = protocol::encode_race_over(over);
  record.result = message;
  asio::co_spawn(services_.executor,
                 finish(shared_from_this(), std::move(record), std::move(message)), asio::detached);
}

asio::awaitable<void> Room::finish(std::shared_ptr<Room> self, RaceRecord record,
                                   std::string race_over) {
  // Durability: results and ratings are committed before race_over announces them.
  bool committed = true;
  try {
    const StoreWorker::Job save = [&record](Store& s) { s.record_race(record); };
    co_await self->services_.store.run(save);
  } catch (const std::exception& e) {
    committed = false;
    spdlog::error("room {}: recording the race failed: {}", self->code_, e.what());
  }
  std::lock_guard lock(self->mutex_);
  if (committed) {
    for (const auto& u : record.ratings) {
      for (auto& r : self->racers_) {
        if (r.player->id != u.player_id) continue;
        std::lock_guard player_lock(r.player->mutex);
        r.player->rating = u.after;
      }
    }
  }
  self->broadcast(share(std::move(race_over)));
  // Back to waiting with nobody ready; racers who left or never came back are dropped.
  self->state_ = State::waiting;
  for (std::size_t i = self->racers_.size(); i-- > 0;) {
    Racer& r = self->racers_[i];
    if (r.left || !r.connected) {
      self->remove_racer_locked(i);
      if (self->closed_) co_return;
      continue;
    }
    r.ready = false;
    r.game.reset();
  }
  if (self->host_.empty()) {
    self->close_locked();
    co_return;
  }
  self->broadcast_room(nullptr, {});
}

bool Room::add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  if (closed_) {
    send_error(*spectator, ErrorCode::no_such_room, "no room with that code", rid);
    return false;
  }
  std::erase_if(spectators_, [](const auto& w) { return w.expired(); });
  if (static_cast<int>(spectators_.size()) >= kMaxSpectators) {
    send_error(*spectator, ErrorCode::room_full, "too many spectators", rid);
    return false;
  }
  spectators_.push_back(spectator);
  broadcast_room(spectator.get(), rid);
  if (state_ == State::racing || state_ == State::finishing) {
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(race_deadline_ - Clock::now());
    spectator->deliver(share(protocol::encode_race_state(
        code_, std::max<std::int64_t>(0, remaining.count()), games_locked(), {})));
  }
  return true;
}

void Room::remove_spectator(const Participant* spectator) {
  std::lock_guard lock(mutex_);
  const auto before = spectators_.size();
  std::erase_if(spectators_,
                [&](const auto& w) { return w.expired() || w.lock().get() == spectator; });
  if (spectators_.size() != before && !closed_) broadcast_room(nullptr, {});
}

void Room::reconnected(Player& player, Participant& to) {
  std::lock_guard lock(mutex_);
  Racer* racer = find(player);
  if (racer == nullptr) return;
  racer->connected = true;
  if (racer->grace) racer->grace->cancel();
  broadcast_room(&to, {});
  if (state_ == State::racing || state_ == State::finishing) {
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(race_deadline_ - Clock::now());
    to.deliver(share(protocol::encode_race_state(
        code_, std::max<std::int64_t>(0, remaining.count()), games_locked(), {})));
  }
}

void Room::disconnected(Player& player) {
  std::lock_guard lock(mutex_);
  Racer* racer = find(player);
  if (racer == nullptr) return;
  racer->connected = false;
  if (state_ == State::countdown) {
    countdown_timer_.cancel();
    state_ = State::waiting;
  }
  racer->grace = std::make_shared<asio::steady_timer>(services_.executor);
  racer->grace->expires_after(std::chrono::seconds(services_.options.grace));
  racer->grace->async_wait(
      [weak = weak_from_this(), player = racer->player](boost::system::error_code ec) {
        const auto self = weak.lock();
        if (ec || !self) return;
        std::lock_guard lock(self->mutex_);
        Racer* r = self->find(*player);
        if (r == nullptr || r->connected) return;
        if (self->state_ == State::racing) {
          self->drop_out_locked(*r);  // out of grace: a forfeit
        } else if (self->state_ != State::finishing) {
          self->remove_racer_locked(static_cast<std::size_t>(r - self->racers_.data()));
          if (!self->closed_) self->broadcast_room(nullptr, {});
        }
      });
  broadcast_room(nullptr, {});
}

}  // namespace tilerace::server
