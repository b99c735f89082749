#include "server/game/tournament.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/tournament.hpp"

namespace tilerace::server {

namespace {

// player as a member of a tournament of options: seeded by their rating in its variant.
TournamentState::Member member_of(Player& player, const protocol::TournamentOptions& options) {
  const auto variant = protocol::variant_of(options.mode, options.size);
  std::lock_guard lock(player.mutex);
  return {player.id, player.name(),
          shown(player.ratings[protocol::index_of(variant)].rating.rating), false, player.is_bot()};
}

std::shared_ptr<Participant> connection_of(Player& player) {
  std::lock_guard lock(player.mutex);
  return player.connection.lock();
}

}  // namespace

Tournament::Tournament(TournamentServices services)
    : services_(std::move(services)), timer_(services_.executor), flush_(services_.executor) {}

std::shared_ptr<Tournament> Tournament::make(std::string code,
                                             const protocol::TournamentOptions& options,
                                             const std::shared_ptr<Player>& host,
                                             TournamentServices services) {
  std::shared_ptr<Tournament> t(new Tournament(std::move(services)));
  t->code_ = code;
  t->public_ = options.is_public;
  std::optional<Time> starts_at;
  if (options.starts) {
    starts_at = TournamentState::Clock::now() +
                std::chrono::milliseconds(*options.starts - t->services_.wall_clock());
  }
  std::lock_guard lock(t->mutex_);
  t->state_.emplace(std::move(code), options, member_of(*host, options), starts_at,
                    t->services_.wall_clock);
  t->services_.members->link(host->id, t);
  return t;
}

void Tournament::announce(Participant& to, const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  Effects fx;
  fx.changed = true;
  apply_locked(std::move(fx), &to, rid);
}

std::shared_ptr<Tournament> Tournament::restore(const TournamentRecord& record,
                                                TournamentServices services, AccountStore& accounts,
                                                GameStore& games) {
  std::shared_ptr<Tournament> t(new Tournament(std::move(services)));
  t->code_ = record.code;
  t->public_ = record.options.is_public;
  t->epoch_ = record.epoch;
  t->url_ = record.url;
  const Time now = TournamentState::Clock::now();
  std::lock_guard lock(t->mutex_);
  t->state_.emplace(TournamentState::restore(record, now, t->services_.wall_clock));
  for (const TournamentState::Member& m : t->state_->members()) {
    if (m.left) continue;
    std::shared_ptr<Player> player = t->services_.players->find(m.id);
    if (!player) {
      const std::optional<PlayerRecord> known = accounts.find_player(m.id);
      if (!known) continue;  // unavailable: their matches are walkovers
      player = t->services_.players->adopt(*known);
    }
    t->services_.members->link(player->id, t);
  }
  Effects fx;
  for (const TournamentState::Racing& r : t->state_->racing()) {
    if (const auto room = t->services_.rooms->find(r.room);
        room && room->tournament() == t->code_) {
      room->watch(t->on_end_of(r.match));  // its race came back: it goes on
    } else if (const std::optional<RaceOutcome> outcome = games.race_in_room(r.room, r.opened_at)) {
      fx.merge(t->state_->match_ended(r.match, MatchEnd{outcome->places}, now, t->availability()));
    } else {  // no race came of it (not started, or lost before it was journaled)
      fx.merge(t->state_->reopen(r.match));
    }
  }
  t->state_->resume(now, t->availability(), fx);
  t->saved_version_ = t->version_;  // as journaled; what settling changed is journaled anew
  t->apply_locked(std::move(fx), nullptr, {});
  return t;
}

std::optional<std::pair<TournamentRecord, std::uint64_t>> Tournament::unsaved() const {
  std::lock_guard lock(mutex_);
  if (saved_version_ == version_) return std::nullopt;
  TournamentRecord record = state_->record();
  record.updated_at = services_.wall_clock();
  record.epoch = epoch_;
  record.url = url_;
  return std::pair{std::move(record), version_};
}

void Tournament::saved(std::uint64_t version) {
  std::lock_guard lock(mutex_);
  saved_version_ = std::max(saved_version_, version);
}

void Tournament::join(const std::shared_ptr<Player>& player, Participant& to,
                      const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  Effects fx = state_->join(member_of(*player, state_->options()));
  if (!fx.error) services_.members->link(player->id, shared_from_this());
  apply_locked(std::move(fx), &to, rid);
}

void Tournament::leave(const std::shared_ptr<Player>& player, Participant& to,
                       const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  Effects fx = state_->leave(player->id, TournamentState::Clock::now(), availability());
  if (!fx.error) services_.members->unlink(player->id, this);
  apply_locked(std::move(fx), &to, rid);
}

void Tournament::start(const Player& player, Participant& to, const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  apply_locked(state_->start(player.id, TournamentState::Clock::now(), availability()), &to, rid);
}

void Tournament::presence(Participant* to) {
  std::lock_guard lock(mutex_);
  show_locked(to, {}, false);  // nothing the journal keeps changed
  follow_locked();
}

bool Tournament::add_spectator(const std::shared_ptr<Participant>& spectator,
                               const protocol::Rid& rid) {
  std::lock_guard lock(mutex_);
  std::erase_if(spectators_, [](const auto& w) { return w.expired(); });
  if (static_cast<int>(spectators_.size()) >= kMaxSpectators) {
    services_.metrics->count_error(protocol::ErrorCode::room_full);
    spectator->deliver(std::make_shared<const std::string>(
        protocol::encode_error(protocol::ErrorCode::room_full, "too many spectators", rid)));
    return false;
  }
  spectators_.push_back(spectator);
  show_locked(spectator.get(), rid, false);  // everyone sees the spectator count change
  follow_locked();
  return true;
}

void Tournament::remove_spectator(const Participant* spectator) {
  std::lock_guard lock(mutex_);
  std::erase_if(spectators_, [spectator](const auto& w) {
    const auto s = w.lock();
    return !s || s.get() == spectator;
  });
  follow_locked();
}

void Tournament::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  timer_.cancel();
  flush_.cancel();
}

void Tournament::lose() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    timer_.cancel();
    flush_.cancel();
    for (const TournamentState::Member& m : state_->members()) {
      services_.members->unlink(m.id, this);
    }
  }
  spdlog::warn("tournament {} is another node's now: stopped here", code_);
}

bool Tournament::available(const std::string& player_id) const {
  const auto player = services_.players->find(player_id);
  if (!player) return false;
  std::lock_guard lock(player->mutex);
  return !player->connection.expired() && player->room.expired();
}

TournamentState::Available Tournament::availability() const {
  return [this](const std::string& id) { return available(id); };
}

Tournament::Effects Tournament::open_locked(const TournamentState::Opening& opening,
                                            std::vector<std::shared_ptr<Room>>& opened) {
  const auto now = TournamentState::Clock::now();
  std::vector<std::shared_ptr<Player>> players;
  for (const std::string& id : opening.players) {
    // Not in memory: never signed in since the start (cannot happen, kept safe): they lose.
    if (auto player = services_.players->find(id)) players.push_back(std::move(player));
  }
  const protocol::TournamentOptions& o = state_->options();
  protocol::RoomOptions room_options;
  room_options.mode = o.mode;
  room_options.size = o.size;
  room_options.target = o.target;
  room_options.time_limit = o.time_limit;
  room_options.is_public = public_;
  room_options.tournament = code_;
  while (players.size() >= 2) {
    room_options.max_players = static_cast<int>(players.size());
    const RoomRegistry::MatchSeating seating = services_.rooms->create_match(
        room_options, players, now + services_.grace, on_end_of(opening.match));
    if (seating.room) {
      opened.push_back(seating.room);
      return state_->opened(opening.match, seating.room->code());
    }
    // Busy in another room: out of the match, lost unplayed; the others race it.
    spdlog::info("tournament {}: a racer of match {} is in another room", code_, opening.match);
    for (std::size_t i = players.size(); i-- > 0;) {
      if (seating.busy[i]) players.erase(players.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  MatchEnd end;  // decided unplayed: the one left, if anyone, wins it
  for (const auto& player : players) end.places.emplace_back(player->id, 0);
  return state_->match_ended(opening.match, end, now, availability());
}

std::function<void(const MatchEnd&)> Tournament::on_end_of(std::size_t match) {
  return [weak = weak_from_this(), match](const MatchEnd& end) {
    if (const auto self = weak.lock()) self->on_match_end(match, end);
  };
}

void Tournament::on_match_end(std::size_t match, const MatchEnd& end) {
  std::lock_guard lock(mutex_);
  apply_locked(state_->match_ended(match, end, TournamentState::Clock::now(), availability()),
               nullptr, {});
  if (end.walkover) {  // recorded: the absent are told when they come back
    const auto race_over = std::make_shared<const std::string>(end.walkover->race_over);
    for (const std::string& id : end.walkover->absent) services_.members->tell_later(id, race_over);
  }
}

void Tournament::apply_locked(Effects fx, Participant* asker, const protocol::Rid& rid) {
  if (fx.error) {
    services_.metrics->count_error(fx.error->code);
    if (asker != nullptr) {
      asker->deliver(std::make_shared<const std::string>(protocol::encode_error(*fx.error, rid)));
    }
    return;
  }
  // Opening a match can decide it at once, and pair more. The rooms are announced after the
  // snapshot: the asker's answer comes first, and everyone sees the matches before their rooms.
  std::vector<std::shared_ptr<Room>> opened;
  for (std::size_t i = 0; i < fx.open.size(); ++i) fx.merge(open_locked(fx.open[i], opened));
  if (fx.changed) {
    ++version_;  // to be journaled
    show_locked(asker, rid, fx.finished);
  }
  for (const auto& room : opened) room->announce(nullptr, {});
  if (fx.finished) {
    for (const TournamentState::Member& m : state_->members()) {
      services_.members->unlink(m.id, this);
    }
    gone_ = true;
    gone_at_ = TournamentState::Clock::now() + kKeptWhenOver;
    spdlog::info("tournament {} is over", code_);
  }
  follow_locked();
  arm_locked();
}

void Tournament::show_locked(Participant* asker, const protocol::Rid& rid, bool at_once) {
  if (asker != nullptr) {
    asker->deliver(
        std::make_shared<const std::string>(protocol::encode_tournament(view_locked(), rid)));
  }
  changed_ = true;
  const Time now = TournamentState::Clock::now();
  if (at_once || now >= last_broadcast_ + kSnapshotEvery) {
    broadcast_locked(now);
  } else if (!flush_armed_ && !stopped_) {  // the rest of this burst goes out together
    flush_armed_ = true;
    flush_.expires_at(last_broadcast_ + kSnapshotEvery);
    flush_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
      const auto self = weak.lock();
      if (ec || !self) return;
      std::lock_guard lock(self->mutex_);
      self->flush_armed_ = false;
      if (self->changed_) self->broadcast_locked(TournamentState::Clock::now());
    });
  }
}

void Tournament::broadcast_locked(Time now) {
  changed_ = false;
  last_broadcast_ = now;
  const SharedMessage everyone =
      std::make_shared<const std::string>(protocol::encode_tournament(view_locked(), {}));
  for (const TournamentState::Member& m : state_->members()) {
    if (m.left) continue;
    const auto player = services_.players->find(m.id);
    if (const auto to = player ? connection_of(*player) : nullptr) to->deliver(everyone);
  }
  for (const auto& w : spectators_) {
    if (const auto s = w.lock()) s->deliver(everyone);
  }
}

void Tournament::arm_locked() {
  if (stopped_) return;
  const std::optional<Time> next =
      gone_ ? gone_at_ : state_->next_deadline(TournamentState::Clock::now());
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
    self->on_timer();
  });
}

void Tournament::on_timer() {
  {
    std::lock_guard lock(mutex_);
    armed_.reset();
    if (!gone_) {
      apply_locked(state_->tick(TournamentState::Clock::now(), availability()), nullptr, {});
      return;
    }
  }
  if (services_.on_gone) services_.on_gone(code_);
}

std::vector<std::weak_ptr<Participant>> Tournament::followers_locked() const {
  std::vector<std::weak_ptr<Participant>> followers;
  for (const auto& w : spectators_) {
    if (!w.expired()) followers.push_back(w);
  }
  for (const TournamentState::Member& m : state_->members()) {
    if (m.left) continue;
    const auto player = services_.players->find(m.id);
    if (!player) continue;
    std::lock_guard lock(player->mutex);
    if (!player->room.expired()) continue;  // racing: their own match is theirs to watch
    if (auto connection = player->connection.lock()) followers.push_back(std::move(connection));
  }
  return followers;
}

void Tournament::follow_locked() {
  if (stopped_) return;
  const std::vector<std::string> featured = state_->featured(kFollowedMatches, followed_);
  for (const std::string& code : followed_) {
    if (std::find(featured.begin(), featured.end(), code) != featured.end()) continue;
    if (const auto room = services_.rooms->find(code)) room->set_watchers({});
  }
  followed_ = featured;
  if (followed_.empty()) return;
  const std::vector<std::weak_ptr<Participant>> followers = followers_locked();
  for (const std::string& code : followed_) {
    if (const auto room = services_.rooms->find(code)) room->set_watchers(followers);
  }
}

protocol::TournamentView Tournament::view_locked() const {
  protocol::TournamentView view = state_->view();
  for (protocol::TournamentPlayerView& p : view.players) {
    const auto player = services_.players->find(p.id);
    p.connected = player && connection_of(*player) != nullptr;
  }
  view.spectators = static_cast<int>(std::count_if(spectators_.begin(), spectators_.end(),
                                                   [](const auto& w) { return !w.expired(); }));
  return view;
}

}  // namespace tilerace::server
