#include "server/rules/race_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "protocol/message_pool.hpp"
#include "server/rules/apply_move.hpp"
#include "server/rules/game_check.hpp"
#include "server/rules/game_record.hpp"
#include "server/rules/race_options.hpp"
#include "server/rules/standings.hpp"

namespace tilerace::server {

using protocol::ErrorCode;

namespace {

SharedMessage share(std::string text) { return protocol::message_pool::share(std::move(text)); }

bool playing(const engine::Game& g) { return g.state() == engine::GameState::playing; }

// An id for a race or a game: 16 hex digits.
std::string hex_id(std::uint64_t value) { return fmt::format("{:016x}", value); }

}  // namespace

RaceState::RaceState(std::string code, protocol::RoomOptions options, RaceSettings settings,
                     std::shared_ptr<const GhostRun> ghost)
    : code_(std::move(code)),
      options_(std::move(options)),
      settings_(settings),
      ghost_(std::move(ghost)) {
  if (ghost_) options_.ghost = ghost_->game_id;
}

RaceEffects RaceState::done() {
  RaceEffects out = std::move(fx_);
  // A fresh one rather than the moved-from one: a small_vector whose heap buffer was taken keeps
  // no inline room (Boost 1.81), and every later call would ask the heap again.
  std::destroy_at(&fx_);
  std::construct_at(&fx_);
  return out;
}

void RaceState::reply(std::string message) {
  fx_.deliveries.push_back({nullptr, share(std::move(message))});
}

RaceState::Racer RaceState::racer_of(const Seat& seat) {
  Racer racer;
  racer.id = seat.player_id;
  racer.name = seat.name;
  racer.bot = seat.bot;
  racer.bot_account = seat.bot_account || seat.bot.has_value();  // the computer is one too
  racer.connection = seat.connection;
  racer.rating = seat.rating;
  return racer;
}

RaceState::Racer RaceState::ghost_racer(const GhostRun& run) {
  Racer racer;
  racer.id = ghost_player_id(run.game_id);
  racer.name = ghost_player_name(run.name);
  racer.rating = run.rating;
  racer.ghost = true;
  racer.ready = true;
  return racer;
}

std::optional<RaceState> RaceState::restore(const ActiveRaceRecord& record, std::vector<Seat> seats,
                                            RaceSettings settings, Time now, RaceEffects& effects,
                                            std::shared_ptr<const GhostRun> ghost) {
  RaceState race(record.room, options_of(record.options), settings, ghost);
  const engine::GameConfig config{record.options.mode, record.options.size, record.options.target,
                                  record.seed};
  for (std::size_t i = 0; i < record.racers.size(); ++i) {
    const ActiveRacerRecord& a = record.racers[i];
    std::optional<engine::Game> game = engine::replay(config, a.moves, nullptr, /*undo=*/false);
    if (!game) return std::nullopt;
    if (a.state == engine::GameState::resigned || a.state == engine::GameState::forfeited) {
      game->end(a.state);
    }
    const bool is_ghost = ghost && a.player_id == ghost_player_id(ghost->game_id);
    Racer r = is_ghost ? ghost_racer(*ghost) : racer_of(seats[i]);
    r.connection.reset();
    r.ready = true;
    r.connected = is_ghost;
    r.left = a.left;
    r.game = std::move(game);
    r.game_id = a.game_id;
    if (!r.left && !is_ghost) r.away_until = now + std::chrono::seconds(settings.grace);
    r.cap_last = now;
    race.racers_.push_back(std::move(r));
  }
  race.host_ = record.host;
  race.seed_ = record.seed;
  race.race_id_ = record.id;
  race.race_started_at_ = record.started_at;
  race.race_deadline_ =
      now + std::chrono::milliseconds(std::max<std::int64_t>(0, record.remaining_ms));
  race.state_ = State::racing;
  race.set_caps();
  ++race.fx_.counts.races_active;
  // A race that had already ended (its result not yet recorded) ends again here.
  std::optional<std::size_t> winner;
  for (std::size_t i = 0; i < race.racers_.size(); ++i) {
    if (race.racers_[i].game->won()) winner = i;
  }
  race.check_end(winner, now);
  if (race.state_ == State::racing) race.advance(now);
  effects = race.done();
  return race;
}

RaceState::Racer* RaceState::find(std::string_view player_id) {
  for (auto& r : racers_) {
    if (r.id == player_id && !r.left) return &r;
  }
  return nullptr;
}

bool RaceState::seated(std::string_view player_id) const {
  return std::any_of(racers_.begin(), racers_.end(),
                     [&](const Racer& r) { return r.id == player_id; });
}

std::int64_t RaceState::remaining_ms(Time now) const {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(race_deadline_ - now);
  return std::max<std::int64_t>(0, left.count());
}

protocol::RoomView RaceState::summary() const {
  static constexpr std::array<std::string_view, 4> kStates{"waiting", "countdown", "racing",
                                                           "racing"};
  protocol::RoomView view{code_,    host_,
                          options_, std::string(kStates[static_cast<int>(state_)]),
                          {},       static_cast<int>(spectators_.size())};
  view.grace = settings_.grace;
  view.players.reserve(racers_.size());
  for (const auto& r : racers_) {
    if (r.left) continue;
    view.players.push_back({.id = r.id,
                            .name = r.name,
                            .ready = r.ready,
                            .connected = r.connected,
                            .score = r.game ? r.game->score() : 0,
                            .ghost = r.ghost,
                            .slow = r.slow,
                            .bot = r.bot_account});
  }
  return view;
}

protocol::RoomView RaceState::listing() const {
  protocol::RoomView view = summary();
  if (state_ != State::racing) return view;
  auto player = view.players.begin();
  for (const auto& r : racers_) {
    if (r.left) continue;
    if (r.game) {
      const engine::Game& g = *r.game;
      player->cells.reserve(static_cast<std::size_t>(g.size() * g.size()));
      for (int row = 0; row < g.size(); ++row) {
        for (int col = 0; col < g.size(); ++col) player->cells.push_back(g.cell(row, col));
      }
    }
    ++player;
  }
  return view;
}

std::vector<std::string> RaceState::checks() const {
  std::vector<std::string> checks;
  for (const auto& r : racers_) {
    if (r.game) checks.push_back(game_check(*r.game));
  }
  return checks;
}

std::optional<engine::Game> RaceState::racing_game(std::string_view player_id) const {
  if (state_ != State::racing) return std::nullopt;
  for (const auto& r : racers_) {
    if (r.id == player_id && !r.left && r.game && playing(*r.game)) return r.game;
  }
  return std::nullopt;
}

std::vector<protocol::RacerGame> RaceState::games() const {
  std::vector<protocol::RacerGame> games;
  for (const auto& r : racers_) {
    if (r.game) games.push_back({r.id, {r.game_id, *r.game, false}});
  }
  return games;
}

void RaceState::send_error(ErrorCode code, std::string_view text, const protocol::Rid& rid) {
  fx_.counts.errors.push_back(code);
  reply(protocol::encode_error(code, text, rid));
}

void RaceState::broadcast(const SharedMessage& message, std::string_view except_racer,
                          const Participant* except_spectator) {
  for (const auto& r : racers_) {
    if (r.left || !r.connected || r.id == except_racer) continue;
    if (auto connection = r.connection.lock())
      fx_.deliveries.push_back({std::move(connection), message});
  }
  std::erase_if(spectators_, [](const auto& w) { return w.expired(); });
  for (const auto& w : spectators_) {
    if (auto s = w.lock(); s && s.get() != except_spectator)
      fx_.deliveries.push_back({std::move(s), message});
  }
}

void RaceState::stream(const SharedMessage& message, std::string_view except_racer) {
  broadcast(message, except_racer);
  std::erase_if(watchers_, [](const auto& w) { return w.expired(); });
  for (const auto& w : watchers_) {
    if (auto s = w.lock()) fx_.deliveries.push_back({std::move(s), message});
  }
}

bool RaceState::in_room(const Participant* p) const {
  for (const auto& r : racers_) {
    if (!r.left && r.connection.lock().get() == p) return true;
  }
  return std::any_of(spectators_.begin(), spectators_.end(),
                     [p](const auto& w) { return w.lock().get() == p; });
}

void RaceState::broadcast_room(bool direct, const protocol::Rid& rid, std::string_view direct_racer,
                               const Participant* direct_spectator) {
  const protocol::RoomView view = summary();
  if (direct) reply(protocol::encode_room(view, rid));
  broadcast(share(protocol::encode_room(view, {})), direct_racer, direct_spectator);
}

RaceEffects RaceState::join(const Seat& seat, bool claimed, const protocol::Rid& rid, Time now) {
  const auto refuse = [&](ErrorCode code, std::string_view text) {
    if (claimed) fx_.released.push_back(seat.player_id);
    send_error(code, text, rid);
    return done();
  };
  if (closed_) return refuse(ErrorCode::no_such_room, "no room with that code");
  if (state_ != State::waiting) {
    return refuse(ErrorCode::race_running, "the race has started: spectate instead");
  }
  const auto members =
      std::count_if(racers_.begin(), racers_.end(), [](const Racer& r) { return !r.left; });
  if (members >= options_.max_players) return refuse(ErrorCode::room_full, "the room is full");
  if (const auto k = kicked_.find(seat.player_id); k != kicked_.end()) {
    if (now < k->second) {
      return refuse(ErrorCode::not_allowed, "the host sent you out of this room: try later");
    }
    kicked_.erase(k);
  }
  if (!claimed) {
    if (racers_.empty()) close();  // a room created for them that nobody else knows
    return refuse(ErrorCode::already_in_room, "leave your room first");
  }
  Racer racer = racer_of(seat);
  racer.ready = seat.bot.has_value();  // the computer is always ready
  racers_.push_back(std::move(racer));
  if (host_.empty() && !seat.bot) host_ = seat.player_id;
  broadcast_room(true, rid, seat.player_id);
  return done();
}

RaceEffects RaceState::kick(std::string_view host_id, const std::string& target,
                            const protocol::Rid& rid, Time now) {
  const auto it = std::find_if(racers_.begin(), racers_.end(),
                               [&](const Racer& r) { return !r.left && r.id == target; });
  if (tournament_match()) {
    send_error(ErrorCode::not_allowed, "a tournament's match keeps its racers", rid);
  } else if (host_id != host_) {
    send_error(ErrorCode::not_allowed, "only the host sends racers out", rid);
  } else if (state_ != State::waiting) {
    send_error(ErrorCode::race_running, "the countdown or the race has begun", rid);
  } else if (it == racers_.end()) {
    send_error(ErrorCode::not_a_player, "nobody of that id races in this room", rid);
  } else if (target == host_ || machine(*it)) {
    send_error(ErrorCode::not_allowed, "you cannot send yourself or the computer out", rid);
  } else {
    kicked_[target] = now + kKickedFor;
    if (auto connection = it->connection.lock()) {
      fx_.deliveries.push_back({std::move(connection), share(protocol::encode_kicked(code_))});
    }
    remove_racer(static_cast<std::size_t>(it - racers_.begin()));
    broadcast_room(true, rid, host_id);
  }
  return done();
}

RaceEffects RaceState::close_by_operator(std::string_view reason) {
  if (closed_) return done();
  if (state_ == State::racing || state_ == State::finishing) {
    if (state_ == State::racing) --fx_.counts.races_active;
    fx_.abandoned_race = race_id_;
  }
  if (tournament_match()) fx_.match_end = MatchEnd{};
  close_with(share(protocol::encode_room_closed(code_, reason)));
  return done();
}

RaceEffects RaceState::hand_over(std::string_view url) {
  if (closed_) return done();
  if (state_ == State::racing) --fx_.counts.races_active;
  close_with(share(url.empty() ? protocol::encode_room_closed(code_, "moved")
                               : protocol::encode_redirect(url, code_, "resume", {})));
  return done();
}

void RaceState::close_with(const SharedMessage& last) {
  broadcast(last);
  for (const Racer& r : racers_) {
    if (!r.left) fx_.released.push_back(r.id);
  }
  racers_.clear();
  spectators_.clear();
  host_.clear();
  closed_ = true;
}

RaceEffects RaceState::seat_ghost() {
  if (!ghost_ || closed_ || state_ != State::waiting) return done();
  racers_.push_back(ghost_racer(*ghost_));
  broadcast_room(false, {});
  return done();
}

const RaceState::Racer* RaceState::ghost() const {
  const auto it =
      std::find_if(racers_.begin(), racers_.end(), [](const Racer& r) { return r.ghost; });
  return it == racers_.end() ? nullptr : &*it;
}

bool RaceState::ghost_done(const Racer& r) const {
  return r.ghost && (ghost_stuck_ || r.game->history().size() >= ghost_->moves.size());
}

bool RaceState::people_playing() const {
  return std::any_of(racers_.begin(), racers_.end(),
                     [](const Racer& r) { return !machine(r) && playing(*r.game); });
}

void RaceState::run_ghost(Time until, Time now) {
  Racer* g = ghost();
  if (g == nullptr || state_ != State::racing) return;
  engine::Game& game = *g->game;
  const std::size_t index = static_cast<std::size_t>(g - racers_.data());
  while (playing(game) && !ghost_done(*g)) {
    const std::size_t k = game.history().size();  // a race game's letters: one per move
    const Time due = race_start() + ghost_->due(k);
    if (due > until || due >= race_deadline_) return;
    const std::optional<engine::Direction> dir = engine::direction_from_letter(ghost_->moves[k]);
    engine::MoveOutcome& outcome = scratch_outcome();
    if (dir) game.move(*dir, outcome);
    if (!dir || !outcome.changed) {
      ghost_stuck_ = true;  // not a recorded game's letter: the run ends here
      return;
    }
    ++fx_.counts.moves;
    stream(share(protocol::encode_race_update(code_, g->id, g->bot_account, game, outcome,
                                              protocol::message_pool::buffer())));
    if (game.won()) return end_race("target", index, now);
  }
}

void RaceState::seat(const std::vector<std::pair<Seat, std::optional<Time>>>& seats) {
  for (const auto& [seat, away_until] : seats) {
    Racer racer = racer_of(seat);
    racer.ready = true;
    if (away_until) {
      racer.connected = false;
      racer.away_until = away_until;
    }
    racers_.push_back(std::move(racer));
  }
  host_ = seats.front().first.player_id;
}

void RaceState::leave_match(const std::vector<std::string>& gone, Time now) {
  MatchEnd end;  // if fewer than two stay: the one left, if anyone, wins it unraced
  for (const Racer& r : racers_) {
    if (std::find(gone.begin(), gone.end(), r.id) == gone.end()) end.places.emplace_back(r.id, 0);
  }
  if (end.places.size() == 1) return walk_over(std::move(end));
  if (end.places.size() < 2) return end_match(std::move(end));  // everyone is let go
  for (const auto& id : gone) {
    if (Racer* r = find(id)) remove_racer(static_cast<std::size_t>(r - racers_.data()));
  }
  if (state_ == State::countdown) state_ = State::waiting;  // the countdown starts again
  broadcast_room(false, {});
  maybe_start(now);
}

void RaceState::end_match(MatchEnd end) {
  fx_.match_end = std::move(end);
  close_with(share(protocol::encode_room_closed(code_, "match_over")));
}

void RaceState::walk_over(MatchEnd end) {
  const std::string present = end.places.front().first;
  MatchEnd::Walkover w;
  protocol::RaceOverView over{code_, "walkover", present, variant_name(), {}, {}, {}};
  const std::int64_t now = settings_.wall_clock();
  for (const Racer& r : racers_) {
    const bool absent = r.id != present;
    if (absent) w.absent.push_back(r.id);
    over.standings.push_back({r.id, r.name, 0, 0, 0,
                              absent ? engine::GameState::forfeited : engine::GameState::playing,
                              absent ? 1 : 0});
    over.ratings.push_back(unchanged(r.id, r.rating.at_time(now)));
  }
  std::stable_sort(over.standings.begin(), over.standings.end(),
                   [](const auto& a, const auto& b) { return a.place < b.place; });
  w.race_over = protocol::encode_race_over(over);
  // Recorded like a race (no game, no rating), so that the result is committed before anyone
  // is told, and a restart finds it (a tournament settles its match from it).
  race_id_ = hex_id(settings_.secret());
  RaceRecord record{.id = race_id_,
                    .room = code_,
                    .reason = "walkover",
                    .winner = present,
                    .result = w.race_over,
                    .ended_at = settings_.wall_clock()};
  fx_.result = RaceResult{std::move(record), w.race_over};
  // The absent are out of the room now; the one who came waits for the record.
  for (std::size_t i = racers_.size(); i-- > 0;) {
    if (racers_[i].id != present) remove_racer(i);
  }
  end.walkover = std::move(w);
  match_places_ = std::move(end);
}

RaceEffects RaceState::announce(bool direct, const protocol::Rid& rid, Time now) {
  if (closed_) return done();
  // The caller is the arriving racer (seated last).
  broadcast_room(direct, rid, direct ? std::string_view(racers_.back().id) : std::string_view());
  maybe_start(now);
  return done();
}

void RaceState::remove_racer(std::size_t index) {
  Racer& racer = racers_[index];
  fx_.released.push_back(racer.id);
  const std::string id = racer.id;
  racers_.erase(racers_.begin() + static_cast<std::ptrdiff_t>(index));
  hand_over_host(id);
  if (host_.empty() && state_ != State::racing && state_ != State::finishing) close();
}

void RaceState::hand_over_host(const std::string& leaving) {
  if (host_ != leaving) return;
  const auto next = std::find_if(racers_.begin(), racers_.end(),
                                 [](const Racer& r) { return !r.left && !machine(r); });
  host_ = next == racers_.end() ? "" : next->id;
}

void RaceState::drop_out(Racer& racer, Time now) {
  forfeit(racer);
  racer.left = true;
  racer.away_until.reset();
  fx_.released.push_back(racer.id);
  hand_over_host(racer.id);
  broadcast_room(false, {});
  check_end(std::nullopt, now);
}

void RaceState::close() {
  if (closed_) return;
  closed_ = true;
  const SharedMessage stopped = share(protocol::encode_bare("stopped", {}));
  for (const auto& w : spectators_) {
    if (auto s = w.lock()) fx_.deliveries.push_back({std::move(s), stopped});
  }
  spectators_.clear();
  watchers_.clear();
}

RaceEffects RaceState::leave(std::string_view player_id, const protocol::Rid& rid, Time now) {
  Racer* racer = find(player_id);
  if (racer == nullptr) {
    send_error(ErrorCode::not_in_room, "you are not in this room", rid);
    return done();
  }
  reply(protocol::encode_left(code_, rid));
  if (state_ == State::racing) {
    drop_out(*racer, now);  // a forfeit
  } else if (state_ == State::finishing) {
    racer->left = true;
    racer->away_until.reset();
    fx_.released.push_back(racer->id);
  } else if (tournament_match()) {  // leaving before the start forfeits the match
    leave_match({racer->id}, now);
  } else {
    if (state_ == State::countdown) state_ = State::waiting;
    remove_racer(static_cast<std::size_t>(racer - racers_.data()));
    if (!closed_) broadcast_room(false, {});
  }
  return done();
}

RaceEffects RaceState::set_ready(std::string_view player_id, bool ready, const protocol::Rid& rid,
                                 Time now) {
  Racer* racer = find(player_id);
  if (racer == nullptr) {
    send_error(ErrorCode::not_in_room, "you are not in this room", rid);
  } else if (state_ == State::racing || state_ == State::finishing) {
    send_error(ErrorCode::race_running, "the race is running", rid);
  } else if (tournament_match()) {
    send_error(ErrorCode::not_allowed, "a tournament's match starts by itself", rid);
  } else {
    racer->ready = ready;
    if (state_ == State::countdown && !ready) state_ = State::waiting;
    broadcast_room(true, rid, player_id);
    maybe_start(now);
  }
  return done();
}

void RaceState::maybe_start(Time now) {
  if (state_ != State::waiting) return;
  int racers = 0;
  for (const auto& r : racers_) {
    if (r.left) continue;
    if (!r.ready || !r.connected) return;
    ++racers;
  }
  if (racers < 2) return;
  if (settings_.countdown == 0) return start_race(now);
  state_ = State::countdown;
  countdown_until_ = now + std::chrono::seconds(settings_.countdown);
  broadcast(share(protocol::encode_countdown(code_, settings_.countdown)));
}

void RaceState::start_race(Time now) {
  // Fairness: one seed per race, so every racer starts from the same board and draws the
  // same spawns. It is revealed only by the replays, after the race.
  // A ghost room races on its run's seed, and the ghost's game is the run.
  seed_ = ghost_ ? ghost_->config.seed : settings_.secret();
  race_id_ = hex_id(settings_.secret());
  ghost_stuck_ = false;
  const engine::GameConfig config{options_.mode, options_.size, options_.target, seed_};
  for (auto& r : racers_) {
    r.game.emplace(config, /*undo=*/false);  // no undo in a race: no history kept
    r.game_id = r.ghost ? ghost_->game_id : hex_id(settings_.secret());
    r.times.emplace();
    r.cap_last = now;
  }
  set_caps();
  state_ = State::racing;
  race_started_at_ = settings_.wall_clock();
  race_deadline_ = now + std::chrono::seconds(options_.time_limit);
  ++fx_.counts.races_started;
  ++fx_.counts.races_active;
  stream(share(protocol::encode_race_start(code_, options_.time_limit, games())));
}

int RaceState::cap_of(const Racer& r) const {
  // The lower of two caps, 0 being none.
  const auto lower = [](int a, int b) { return a == 0 ? b : b == 0 ? a : std::min(a, b); };
  const int room = options_.max_moves_per_second;
  if (!r.bot_account || r.bot) return room;  // the computer keeps its own pace
  const bool people = std::any_of(racers_.begin(), racers_.end(),
                                  [](const Racer& o) { return !o.ghost && !o.bot_account; });
  if (!people) return room;  // between bots, the room's cap alone
  return lower(room, lower(settings_.bot_api_moves_per_second, options_.bot_pace));
}

void RaceState::set_caps() {
  for (Racer& r : racers_) {
    r.cap = cap_of(r);
    r.cap_tokens = r.cap;
  }
}

bool RaceState::allow_move(Racer& racer, Time now) {
  const int cap = racer.cap;
  if (cap == 0) return true;
  const std::chrono::duration<double> elapsed = now - racer.cap_last;
  racer.cap_last = now;
  racer.cap_tokens = std::min<double>(cap, racer.cap_tokens + elapsed.count() * cap);
  if (racer.cap_tokens < 1) return false;
  racer.cap_tokens -= 1;
  return true;
}

RaceEffects RaceState::play(std::string_view player_id, const protocol::ClientMessage& message,
                            const protocol::Rid& rid, Time now) {
  const auto refuse = [&](ErrorCode code, std::string_view text) {
    send_error(code, text, rid);
    return done();
  };
  Racer* racer = find(player_id);
  if (racer == nullptr) return refuse(ErrorCode::not_in_room, "you are not in this room");
  if (state_ == State::waiting || state_ == State::countdown) {
    return refuse(ErrorCode::not_started, "the race has not started");
  }
  if (std::holds_alternative<protocol::Undo>(message)) {
    return refuse(ErrorCode::not_allowed, "no undo in a race");
  }
  if (state_ == State::finishing || !racer->game || !playing(*racer->game)) {
    return refuse(ErrorCode::game_over, "your race game has ended");
  }
  engine::Game& game = *racer->game;
  const std::size_t index = static_cast<std::size_t>(racer - racers_.data());
  const protocol::GameView view{racer->game_id, game, false};
  if (std::holds_alternative<protocol::Resign>(message)) {
    game.end(engine::GameState::resigned);
    reply(protocol::encode_game(view, rid));
    stream(share(protocol::encode_race_update(code_, racer->id, racer->bot_account, game, {})),
           player_id);
    if (settings_.journal_moves)
      fx_.move_entry = MoveJournalEntry{race_id_, index, "", true, game_check(game)};
    check_end(std::nullopt, now);
    return done();
  }
  if (const auto refused = check_move(game, message)) {
    send_error(refused->code, refused->message, rid);
    if (refused->code == ErrorCode::stale) reply(protocol::encode_game(view, rid));
    return done();
  }
  if (!allow_move(*racer, now)) {
    return refuse(ErrorCode::rate_limited, racer->bot_account
                                               ? "a bot's moves are paced in a race with people"
                                               : "this room caps moves per second");
  }
  const std::size_t before = game.history().size();
  engine::MoveOutcome& outcome = scratch_outcome();
  const std::optional<engine::Direction> dir = apply_move(game, message, outcome);
  reply(protocol::encode_moved(view, dir, outcome, rid, protocol::message_pool::buffer()));
  if (!outcome.changed) return done();
  const auto since_start = now - (race_deadline_ - std::chrono::seconds(options_.time_limit));
  stamp(racer->times, game.history().size(),
        std::chrono::duration_cast<std::chrono::milliseconds>(since_start).count());
  ++fx_.counts.moves;
  stream(share(protocol::encode_race_update(code_, racer->id, racer->bot_account, game, outcome,
                                            protocol::message_pool::buffer())),
         player_id);
  if (settings_.journal_moves) {
    fx_.move_entry =
        MoveJournalEntry{race_id_, index, game.history().substr(before), false, game_check(game)};
  }
  check_end(game.won() ? std::optional<std::size_t>(index) : std::nullopt, now);
  return done();
}

RaceEffects RaceState::emote(std::string_view player_id, protocol::Emote emote,
                             const protocol::Rid& rid, Time now) {
  Racer* racer = find(player_id);
  if (racer == nullptr) {
    send_error(ErrorCode::not_in_room, "you are not in this room", rid);
  } else if (racer->last_emote && now - *racer->last_emote < kEmoteEvery) {
    send_error(ErrorCode::rate_limited, "one emote every 2 seconds", rid);
  } else {
    racer->last_emote = now;
    reply(protocol::encode_emote(code_, racer->id, emote, rid));
    broadcast(share(protocol::encode_emote(code_, racer->id, emote, {})), player_id);
  }
  return done();
}

void RaceState::forfeit(Racer& racer) {
  if (!racer.game || !racer.game->end(engine::GameState::forfeited)) return;
  stream(share(protocol::encode_race_update(code_, racer.id, racer.bot_account, *racer.game, {})));
}

void RaceState::check_end(std::optional<std::size_t> target_winner, Time now) {
  if (state_ != State::racing) return;
  if (target_winner) return end_race("target", target_winner, now);
  if (ghost_ && !people_playing()) {
    // Nobody is left to race the ghost: the rest of its run is played at once.
    run_ghost(race_deadline_ - std::chrono::milliseconds(1), now);
    if (state_ != State::racing) return;
  }
  std::size_t still_in = 0, playing_count = 0, last_in = 0;
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const auto state = racers_[i].game->state();
    if (state != engine::GameState::forfeited && state != engine::GameState::resigned) {
      ++still_in;
      last_in = i;
    }
    playing_count += state == engine::GameState::playing && !ghost_done(racers_[i]);
  }
  if (still_in == 1 && racers_.size() >= 2) return end_race("forfeit", last_in, now);
  if (playing_count == 0) end_race("all_over", std::nullopt, now);
}

void RaceState::end_race(std::string_view reason, std::optional<std::size_t> winner_index,
                         Time now) {
  state_ = State::finishing;
  race_deadline_ = std::min(race_deadline_, now);  // a restart finds no time left
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

  RaceRecord record{.id = race_id_,
                    .room = code_,
                    .reason = std::string(reason),
                    .winner = ranking.winner ? racers_[*ranking.winner].id : "",
                    .ended_at = settings_.wall_clock()};
  std::vector<glicko2::Rating> before;
  for (const auto& r : racers_) before.push_back(r.rating.at_time(record.ended_at));
  // A race against a ghost or the in-process computer changes no rating; nor does one of
  // people with bots (a person's rating never moves with a bot's, docs/bots.md). Between bot
  // accounts, their ratings move.
  const bool with_bots =
      std::any_of(racers_.begin(), racers_.end(), [](const Racer& r) { return r.bot_account; });
  const bool with_people = std::any_of(racers_.begin(), racers_.end(),
                                       [](const Racer& r) { return !r.ghost && !r.bot_account; });
  const bool unrated =
      std::any_of(racers_.begin(), racers_.end(), machine) || (with_bots && with_people);
  const std::vector<glicko2::Rating> after =
      unrated ? before : glicko2::race(before, ranking.place);

  protocol::RaceOverView over{code_, reason, std::nullopt, variant_name(), {}, {}, {}};
  if (ranking.winner) over.winner = racers_[*ranking.winner].id;
  match_places_.places.clear();
  for (std::size_t i : ranking.order) {
    const Racer& r = racers_[i];
    const engine::Game& g = *r.game;
    over.standings.push_back({r.id, r.name, g.score(), g.max_tile(), g.moves(), g.state(),
                              ranking.place[i], r.bot_account});
    match_places_.places.emplace_back(r.id, ranking.place[i]);
  }
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const Racer& r = racers_[i];
    const engine::Game& g = *r.game;
    over.ratings.push_back({r.id, shown(before[i].rating), shown(after[i].rating),
                            shown(before[i].rd), shown(after[i].rd), provisional(after[i])});
    over.replays.push_back({r.id, r.game_id});
    if (r.ghost) continue;  // the run, recorded already
    record.games.push_back(game_record(g, r.game_id, r.id, /*ranked=*/true, race_started_at_,
                                       record.ended_at, code_, r.times));
    const bool won = ranking.winner == i;
    if (!unrated) {
      record.ratings.push_back({.player_id = r.id,
                                .variant = variant(),
                                .before = before[i],
                                .after = after[i],
                                .won = won,
                                .lost = ranking.winner && !won});
    }
  }
  // Against the computer: each person's result goes to their record for its strength.
  const auto bot = std::find_if(racers_.begin(), racers_.end(),
                                [](const Racer& r) { return r.bot.has_value(); });
  for (std::size_t i = 0; bot != racers_.end() && i < racers_.size(); ++i) {
    if (racers_[i].bot) continue;
    const bool won = ranking.winner == i;
    record.against_bots.push_back({.player_id = racers_[i].id,
                                   .strength = *bot->bot,
                                   .won = won,
                                   .lost = ranking.winner && !won,
                                   .drawn = !ranking.winner});
  }
  if (const Racer* g = ghost()) {
    const std::int64_t score = g->game->score();
    over.ghost = protocol::GhostResult{ghost_->game_id, ghost_->player_id, ghost_->name, score, {}};
    for (const Racer& r : racers_) {
      if (!r.ghost) over.ghost->margins.emplace_back(r.id, r.game->score() - score);
    }
  }
  std::string message = protocol::encode_race_over(over);
  record.result = message;
  fx_.result = RaceResult{std::move(record), std::move(message)};
}

RaceEffects RaceState::record_failed() {
  const SharedMessage error = share(protocol::encode_error(
      ErrorCode::internal, "the race result could not be recorded yet: retrying", {}));
  for (const auto& r : racers_) {
    if (r.left || !r.connected) continue;
    fx_.counts.errors.push_back(ErrorCode::internal);
    if (auto connection = r.connection.lock())
      fx_.deliveries.push_back({std::move(connection), error});
  }
  return done();
}

RaceEffects RaceState::recorded(const RaceResult& result, const std::vector<Granted>& granted) {
  if (match_places_.walkover) {  // the match's walkover (walk_over): told, and the match is over
    if (closed_) return done();  // the one who came left meanwhile: decided already
    stream(share(result.race_over));
    end_match(std::move(match_places_));
    return done();
  }
  for (const auto& u : result.record.ratings) {
    for (auto& r : racers_) {
      if (r.id != u.player_id) continue;
      r.rating = {u.after, result.record.ended_at};
      fx_.ratings.emplace_back(r.id, r.rating);
    }
  }
  --fx_.counts.races_active;
  stream(share(result.race_over));
  for (const Granted& g : granted) {
    for (const auto& r : racers_) {
      if (r.id != g.player_id) continue;
      if (auto connection = r.connection.lock()) {
        fx_.deliveries.push_back(
            {std::move(connection), share(protocol::encode_achievement(g.view))});
      }
    }
  }
  if (tournament_match()) {
    end_match(std::move(match_places_));
    return done();
  }
  // Back to waiting with nobody ready; racers who left or are away are dropped.
  state_ = State::waiting;
  for (std::size_t i = racers_.size(); i-- > 0;) {
    Racer& r = racers_[i];
    if (r.left || !r.connected) {
      remove_racer(i);
      if (closed_) return done();
      continue;
    }
    r.ready = machine(r);
    r.game.reset();
  }
  if (host_.empty()) {
    close();
    return done();
  }
  broadcast_room(false, {});
  return done();
}

RaceEffects RaceState::add_spectator(const std::shared_ptr<Participant>& spectator,
                                     const protocol::Rid& rid, Time now, bool& added) {
  added = false;
  std::erase_if(spectators_, [](const auto& w) { return w.expired(); });
  if (closed_) {
    send_error(ErrorCode::no_such_room, "no room with that code", rid);
  } else if (static_cast<int>(spectators_.size()) >= kMaxSpectators) {
    send_error(ErrorCode::room_full, "too many spectators", rid);
  } else {
    added = true;
    spectators_.push_back(spectator);
    std::erase_if(watchers_, [&](const auto& w) { return w.lock() == spectator; });
    broadcast_room(true, rid, {}, spectator.get());
    if (state_ == State::racing || state_ == State::finishing) {
      reply(protocol::encode_race_state(code_, remaining_ms(now), games(), {}));
    }
  }
  return done();
}

RaceEffects RaceState::remove_spectator(const Participant* spectator) {
  const auto before = spectators_.size();
  std::erase_if(spectators_,
                [&](const auto& w) { return w.expired() || w.lock().get() == spectator; });
  if (spectators_.size() != before && !closed_) broadcast_room(false, {});
  return done();
}

RaceEffects RaceState::set_watchers(std::vector<std::weak_ptr<Participant>> watchers, Time now) {
  std::erase_if(watchers, [this](const auto& w) {
    const auto p = w.lock();
    return !p || in_room(p.get());
  });
  const bool racing = state_ == State::racing || state_ == State::finishing;
  SharedMessage snapshot;
  for (const auto& w : watchers) {
    const auto p = w.lock();
    const bool known = std::any_of(watchers_.begin(), watchers_.end(),
                                   [&p](const auto& o) { return o.lock() == p; });
    if (known || !racing || closed_) continue;
    if (!snapshot)
      snapshot = share(protocol::encode_race_state(code_, remaining_ms(now), games(), {}));
    fx_.deliveries.push_back({p, snapshot});
  }
  watchers_ = closed_ ? std::vector<std::weak_ptr<Participant>>{} : std::move(watchers);
  return done();
}

RaceEffects RaceState::reconnected(std::string_view player_id,
                                   std::weak_ptr<Participant> connection, Time now) {
  Racer* racer = find(player_id);
  if (racer == nullptr) return done();
  racer->connection = std::move(connection);
  racer->connected = true;
  racer->away_until.reset();
  broadcast_room(true, {}, player_id);
  if (state_ == State::racing || state_ == State::finishing) {
    reply(protocol::encode_race_state(code_, remaining_ms(now), games(), {}));
  }
  maybe_start(now);
  return done();
}

RaceEffects RaceState::disconnected(std::string_view player_id, Time now) {
  Racer* racer = find(player_id);
  if (racer == nullptr) return done();
  racer->connected = false;
  racer->away_until = now + std::chrono::seconds(settings_.grace);
  if (state_ == State::countdown) state_ = State::waiting;
  broadcast_room(false, {});
  return done();
}

RaceEffects RaceState::rename(std::string_view player_id, std::string name) {
  Racer* racer = find(player_id);
  if (racer == nullptr || closed_) return done();
  racer->name = std::move(name);
  broadcast_room(false, {});
  return done();
}

RaceEffects RaceState::round_trip(std::string_view player_id, int ms) {
  Racer* racer = find(player_id);
  if (racer == nullptr) return done();
  const bool slow = ms >= (racer->slow ? kFastAgainMs : kSlowMs);
  if (slow != racer->slow) {
    racer->slow = slow;
    broadcast_room(false, {});
  }
  return done();
}

RaceEffects RaceState::tick(Time now) {
  advance(now);
  return done();
}

void RaceState::advance(Time now) {
  if (state_ == State::countdown && now >= countdown_until_) start_race(now);
  run_ghost(now, now);
  if (state_ == State::racing && now >= race_deadline_) end_race("time", std::nullopt, now);
  if (state_ == State::finishing) return;  // the away are dropped once it is recorded
  std::vector<std::string> expired;
  for (const auto& r : racers_) {
    if (!r.left && !r.connected && r.away_until && now >= *r.away_until) expired.push_back(r.id);
  }
  if (tournament_match() && !expired.empty() && state_ != State::racing) {
    // Away past the grace before the start: out of the match, which the others race (the one
    // left wins it unraced; nobody does when all are away).
    return leave_match(expired, now);
  }
  for (const auto& id : expired) {
    Racer* r = find(id);
    if (r == nullptr || closed_) continue;
    r->away_until.reset();
    if (state_ == State::racing) {
      drop_out(*r, now);  // out of grace: a forfeit
    } else if (state_ != State::finishing) {
      remove_racer(static_cast<std::size_t>(r - racers_.data()));
      if (!closed_) broadcast_room(false, {});
    }
  }
}

std::optional<RaceState::Time> RaceState::next_deadline() const {
  if (closed_) return std::nullopt;
  std::optional<Time> next;
  auto consider = [&next](Time t) {
    if (!next || t < *next) next = t;
  };
  if (state_ == State::countdown) consider(countdown_until_);
  if (state_ == State::racing) consider(race_deadline_);
  if (const Racer* g = ghost();
      g != nullptr && state_ == State::racing && playing(*g->game) && !ghost_done(*g)) {
    consider(race_start() + ghost_->due(g->game->history().size()));
  }
  if (state_ != State::finishing) {
    for (const auto& r : racers_) {
      if (!r.left && !r.connected && r.away_until) consider(*r.away_until);
    }
  }
  return next;
}

std::optional<ActiveRaceRecord> RaceState::active_record(Time now) {
  if (closed_ || (state_ != State::racing && state_ != State::finishing)) return std::nullopt;
  ActiveRaceRecord record{.id = race_id_,
                          .room = code_,
                          .options = record_of(options_),
                          .seed = seed_,
                          .host = host_,
                          .started_at = race_started_at_,
                          .remaining_ms = remaining_ms(now)};
  for (const auto& r : racers_) {
    record.racers.push_back({r.id, r.game_id, r.game->history(), r.game->state(), r.left});
  }
  return record;
}

}  // namespace tilerace::server
