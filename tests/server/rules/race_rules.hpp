#pragma once
// The race rules (RaceState) driven as the Room shell drives them, for unit tests: members with
// fake connections, and each call's effects carried out at once.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "server/base/metrics.hpp"
#include "server/game/player.hpp"
#include "server/game/room.hpp"
#include "server/rules/race_state.hpp"
#include "tests/server/fake_participant.hpp"

namespace tilerace::server::testing {

using namespace std::chrono_literals;
using Time = RaceState::Time;
using json = nlohmann::json;

inline const Time t0 = Time{} + 1h;

// The fixture rates its races in the default variant (classic 4×4): a player's rating there.
inline VariantRating& rating_in_race(Player& p) {
  return p.ratings[protocol::index_of(protocol::kDefaultVariant)];
}
inline int rating_of(const Player& p) {
  return shown(p.ratings[protocol::index_of(protocol::kDefaultVariant)].rating.rating);
}
// A fresh racer's rating (whole points) after winning (or losing) against another fresh one.
inline int fresh_after(bool won) {
  const std::vector<glicko2::Rating> both(2, glicko2::kStart);
  return shown(glicko2::race(both, std::vector<int>{0, 1})[won ? 0 : 1].rating);
}

// The seat of a player: their id, name, rating and (unless away) connection.
inline Seat seat_of(const Player& p, bool away = false) {
  return {p.id, p.name(), p.bot, away ? std::weak_ptr<Participant>() : p.connection,
          p.ratings[protocol::index_of(protocol::kDefaultVariant)]};
}

// A member of the race: a player whose connection is a fake participant.
struct Member {
  explicit Member(std::string id)
      : player(std::make_shared<Player>(id, id)), out(std::make_shared<FakeParticipant>()) {
    player->connection = out;
  }
  std::shared_ptr<Player> player;
  std::shared_ptr<FakeParticipant> out;
};

// What a member's Player::room points to: any live object will do for the rules (the pointer
// is never followed), so a null Room sharing an anchor's lifetime stands in.
struct Owner {
  std::shared_ptr<int> anchor = std::make_shared<int>(0);
  std::shared_ptr<Room> room{anchor, static_cast<Room*>(nullptr)};
};

// The rules with their effects carried out as the Room shell carries them out: deliveries in
// order (the caller's to `to`), players (known to the rules by id) linked to the room and
// released from it, ratings set, what the rules counted added to metrics, and a finished race
// kept for take_result().
class Rules {
 public:
  Rules(RaceState state, Owner& owner, Metrics& metrics)
      : state_(std::move(state)), owner_(&owner), metrics_(&metrics) {}

  // A journaled race restored at now for players (seated with their ratings, all away).
  static std::optional<Rules> restore(const ActiveRaceRecord& record,
                                      const std::vector<std::shared_ptr<Player>>& players,
                                      RaceSettings settings, Metrics& metrics, Owner& owner,
                                      Time now, std::shared_ptr<const GhostRun> ghost = nullptr) {
    std::vector<Seat> seats;
    for (const auto& p : players) seats.push_back(p ? seat_of(*p, true) : Seat{});
    RaceEffects fx;
    std::optional<RaceState> state = RaceState::restore(
        record, std::move(seats), with_server_clocks(settings), now, fx, std::move(ghost));
    if (!state) return std::nullopt;
    for (std::size_t i = 0; i < players.size(); ++i) {
      if (!record.racers[i].left && players[i]) players[i]->room = owner.room;
    }
    Rules rules(std::move(*state), owner, metrics);
    for (const auto& p : players) {
      if (p) rules.players_.emplace(p->id, p);
    }
    rules.apply(std::move(fx), nullptr);
    return rules;
  }

  void join(const std::shared_ptr<Player>& p, Participant& to, const protocol::Rid& rid,
            Time now = t0) {
    const bool claimed = p->room.expired();
    if (claimed) p->room = owner_->room;
    if (claimed) players_.emplace(p->id, p);
    apply(state_.join(seat_of(*p), claimed, rid, now), &to);
  }
  void kick(Player& host, const std::string& target, Participant& to, Time now) {
    apply(state_.kick(host.id, target, {}, now), &to);
  }
  std::optional<std::string> close_by_operator(std::string_view reason) {
    RaceEffects fx = state_.close_by_operator(reason);
    std::optional<std::string> abandoned = fx.abandoned_race;
    apply(std::move(fx), nullptr);
    return abandoned;
  }
  // Whether the hand-over abandoned the race (it never should: the race is the owner's).
  bool hand_over(std::string_view url) {
    RaceEffects fx = state_.hand_over(url);
    const bool abandoned = fx.abandoned_race.has_value();
    apply(std::move(fx), nullptr);
    return abandoned;
  }
  void leave(Player& p, Participant& to, const protocol::Rid& rid, Time now) {
    apply(state_.leave(p.id, rid, now), &to);
  }
  void set_ready(Player& p, bool ready, Participant& to, const protocol::Rid& rid, Time now) {
    apply(state_.set_ready(p.id, ready, rid, now), &to);
  }
  void play(Player& p, Participant& to, const protocol::ClientMessage& m, const protocol::Rid& rid,
            Time now) {
    apply(state_.play(p.id, m, rid, now), &to);
  }
  void emote(Player& p, Participant& to, protocol::Emote e, const protocol::Rid& rid, Time now) {
    apply(state_.emote(p.id, e, rid, now), &to);
  }
  // Quick match: both linked, then seated (a away until a_expected_by, if given).
  void seat(const std::shared_ptr<Player>& a, const std::shared_ptr<Player>& b,
            std::optional<Time> a_expected_by = std::nullopt) {
    a->room = owner_->room;
    b->room = owner_->room;
    players_.emplace(a->id, a);
    players_.emplace(b->id, b);
    state_.seat(
        {{seat_of(*a, a_expected_by.has_value()), a_expected_by}, {seat_of(*b), std::nullopt}});
  }
  // A tournament's match: each linked, then seated (away until the time given, if any).
  void seat_match(
      const std::vector<std::pair<std::shared_ptr<Player>, std::optional<Time>>>& racers) {
    std::vector<std::pair<Seat, std::optional<Time>>> seats;
    for (const auto& [player, away] : racers) {
      player->room = owner_->room;
      players_.emplace(player->id, player);
      seats.push_back({seat_of(*player, away.has_value()), away});
    }
    state_.seat(seats);
  }
  void announce(Participant* direct, const protocol::Rid& rid, Time now) {
    apply(state_.announce(direct != nullptr, rid, now), direct);
  }
  bool add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid,
                     Time now) {
    bool added = false;
    apply(state_.add_spectator(spectator, rid, now, added), spectator.get());
    return added;
  }
  void set_watchers(std::vector<std::weak_ptr<Participant>> watchers, Time now) {
    apply(state_.set_watchers(std::move(watchers), now), nullptr);
  }
  void reconnected(Player& p, const std::shared_ptr<Participant>& to, Time now) {
    apply(state_.reconnected(p.id, to, now), to.get());
  }
  void disconnected(Player& p, Time now) { apply(state_.disconnected(p.id, now), nullptr); }
  void rename(Player& p, std::string name) { apply(state_.rename(p.id, std::move(name)), nullptr); }
  bool seated(const Player& p) const { return state_.seated(p.id); }
  void seat_ghost() { apply(state_.seat_ghost(), nullptr); }
  void tick(Time now) { apply(state_.tick(now), nullptr); }
  void recorded(const RaceResult& result, const std::vector<Granted>& granted) {
    apply(state_.recorded(result, granted), nullptr);
  }
  void record_failed() { apply(state_.record_failed(), nullptr); }
  std::optional<RaceResult> take_result() { return std::exchange(result_, std::nullopt); }
  std::optional<MatchEnd> match_end() const { return match_end_; }

  std::optional<Time> next_deadline() const { return state_.next_deadline(); }
  std::optional<ActiveRaceRecord> active_record(Time now) { return state_.active_record(now); }
  protocol::RoomView summary() const { return state_.summary(); }
  bool closed() const { return state_.closed(); }

 private:
  void apply(RaceEffects fx, Participant* to) {
    for (const auto& [id, rating] : fx.ratings) {
      if (const auto it = players_.find(id); it != players_.end()) {
        rating_in_race(*it->second) = rating;
      }
    }
    for (const std::string& id : fx.released) {
      const auto it = players_.find(id);
      if (it == players_.end()) continue;
      if (it->second->room.lock() == owner_->room) it->second->room.reset();
      if (!state_.seated(id)) players_.erase(it);
    }
    metrics_->moves_total += static_cast<std::uint64_t>(fx.counts.moves);
    metrics_->races_total += static_cast<std::uint64_t>(fx.counts.races_started);
    metrics_->races_active += fx.counts.races_active;
    for (const protocol::ErrorCode code : fx.counts.errors) metrics_->count_error(code);
    if (fx.result) result_ = std::move(fx.result);
    if (fx.match_end) match_end_ = std::move(fx.match_end);
    for (Delivery& d : fx.deliveries) {
      Participant* target = d.to ? d.to.get() : to;
      ASSERT_NE(target, nullptr) << "a reply with nobody asking";
      target->deliver(std::move(d.message));
    }
  }

  RaceState state_;
  std::map<std::string, std::shared_ptr<Player>> players_;  // whom the rules seat, by id
  Owner* owner_;
  Metrics* metrics_;
  std::optional<RaceResult> result_;
  std::optional<MatchEnd> match_end_;
};

inline protocol::RoomOptions options(int time_limit = 60, int cap = 0) {
  protocol::RoomOptions o;
  o.size = 4;
  o.target = 2048;
  o.time_limit = time_limit;
  o.max_moves_per_second = cap;
  return o;
}

inline protocol::ClientMessage move(engine::Direction d) { return protocol::Move{d, std::nullopt}; }

}  // namespace tilerace::server::testing
