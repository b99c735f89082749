#include "server/rules/tournament_state.hpp"

#include <algorithm>
#include <stdexcept>

namespace tilerace::server {

using protocol::ErrorCode;
using protocol::TournamentFormat;

namespace {

constexpr const char* kStateNames[] = {"waiting", "running", "finished", "cancelled"};
constexpr const char* kMatchStateNames[] = {"pending", "racing", "done"};

constexpr const char* kResultNames[] = {"win", "draw", "loss"};

const char* name_of(Result r) { return kResultNames[static_cast<int>(r)]; }

Result result_named(const std::string& name) {
  const auto* r = std::find(std::begin(kResultNames), std::end(kResultNames), name);
  if (r == std::end(kResultNames)) throw std::runtime_error("unknown result " + name);
  return static_cast<Result>(r - std::begin(kResultNames));
}

// A stored match's results; a 1-on-1 written before results were kept has its winner and draw
// (an elimination's draw names the seed who went on as its winner).
std::vector<Result> results_of(const TournamentMatchRecord& m) {
  std::vector<Result> results;
  for (const std::string& r : m.results) results.push_back(result_named(r));
  if (!results.empty()) return results;
  for (const int p : m.players) {
    results.push_back(m.draw ? Result::draw : m.winner == p ? Result::win : Result::loss);
  }
  return results;
}

// A stored match's players.
Group group_of(const TournamentMatchRecord& m) {
  Group players;
  for (const int p : m.players) players.push_back(static_cast<std::size_t>(p));
  return players;
}

// How each of players (ids) came out of a match that ended as end says: listed alone at the
// first place, a win; missing from end, a loss; at the last place when everyone is listed (and
// not everyone shares it), a loss; anything else, a draw. In a room of two: the winner wins,
// the other loses, and a tie is a draw for both.
std::vector<Result> results_of(const std::vector<std::string>& players, const MatchEnd& end) {
  const auto place_of = [&end](const std::string& id) -> std::optional<int> {
    for (const auto& [player, place] : end.places) {
      if (player == id) return place;
    }
    return std::nullopt;
  };
  bool everyone = true;
  int last = 0;
  int first = 0;
  for (const std::string& id : players) {
    const std::optional<int> p = place_of(id);
    everyone = everyone && p.has_value();
    if (p) last = std::max(last, *p);
    if (p == 0) ++first;
  }
  std::vector<Result> results;
  for (const std::string& id : players) {
    const std::optional<int> p = place_of(id);
    if (!p) {
      results.push_back(Result::loss);
    } else if (*p == 0) {
      results.push_back(first == 1 ? Result::win : Result::draw);
    } else {
      results.push_back(everyone && *p == last ? Result::loss : Result::draw);
    }
  }
  return results;
}

// How often a running arena looks for players who came back (connected again, or out of a
// room) to pair.
constexpr std::chrono::seconds kArenaLook{1};

TournamentState::Effects refuse(ErrorCode code, std::string message) {
  TournamentState::Effects fx;
  fx.error = protocol::ProtocolError{code, std::move(message), {}, 0};
  return fx;
}

std::vector<Entrant> entrants_of(const std::vector<TournamentState::Member>& members) {
  std::vector<Entrant> entrants;
  for (const auto& m : members) entrants.push_back({m.id, m.rating});
  return entrants;
}

}  // namespace

TournamentState::TournamentState(std::string code, protocol::TournamentOptions options, Member host,
                                 std::optional<Time> starts_at, std::int64_t (*wall_clock)())
    : code_(std::move(code)),
      options_(options),
      host_(host.id),
      starts_at_(starts_at),
      wall_clock_(wall_clock) {
  members_.push_back(std::move(host));
}

std::optional<std::size_t> TournamentState::member_of(const std::string& id) const {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i].id == id) return i;
  }
  return std::nullopt;
}

TournamentState::Effects TournamentState::join(Member member) {
  if (state_ != State::waiting) return refuse(ErrorCode::tournament_started, "it has begun");
  if (member_of(member.id)) {
    return refuse(ErrorCode::already_in_tournament, "you are in this tournament");
  }
  if (member.bot && !options_.bots) {
    return refuse(ErrorCode::not_allowed, "this tournament admits no bots");
  }
  if (static_cast<int>(members_.size()) >= options_.max_players) {
    return refuse(ErrorCode::tournament_full, "the tournament is full");
  }
  members_.push_back(std::move(member));
  Effects fx;
  fx.changed = true;
  return fx;
}

TournamentState::Effects TournamentState::leave(const std::string& player_id, Time now,
                                                const Available& available) {
  const std::optional<std::size_t> m = member_of(player_id);
  if (!m || members_[*m].left) {
    return refuse(ErrorCode::not_in_tournament, "you are not in this tournament");
  }
  Effects fx;
  fx.changed = true;
  if (state_ == State::waiting) {
    members_.erase(members_.begin() + static_cast<std::ptrdiff_t>(*m));
    return fx;
  }
  members_[*m].left = true;
  if (auto* arena = std::get_if<ArenaPairing>(&format_)) arena->withdraw(*m);
  if (state_ == State::running) pair_more(now, available, fx);
  return fx;
}

TournamentState::Effects TournamentState::start(const std::string& by, Time now,
                                                const Available& available) {
  if (state_ != State::waiting) return refuse(ErrorCode::tournament_started, "it has begun");
  if (by != host_) return refuse(ErrorCode::not_allowed, "only the host starts it");
  if (members_.size() < 2) return refuse(ErrorCode::not_allowed, "two players are needed");
  Effects fx;
  begin(now, available, fx);
  return fx;
}

void TournamentState::begin(Time now, const Available& available, Effects& fx) {
  fx.changed = true;
  if (members_.size() < 2) {  // the clock came and nobody else did
    state_ = State::cancelled;
    fx.finished = true;
    return;
  }
  state_ = State::running;
  started_at_ms_ = wall_clock_();
  switch (options_.format) {
    case TournamentFormat::single_elimination: {
      const EliminationBracket& bracket =
          format_.emplace<EliminationBracket>(entrants_of(members_), options_.third_place);
      for (const Entrant& seed : bracket.seeds())
        seed_member_.push_back(*member_of(seed.player_id));
      break;
    }
    case TournamentFormat::swiss:
      format_.emplace<SwissPairing>(entrants_of(members_), options_.room_size);
      break;
    case TournamentFormat::arena:
      format_.emplace<ArenaPairing>(entrants_of(members_), now,
                                    std::chrono::seconds(options_.duration), options_.room_size);
      ends_at_ms_ = started_at_ms_ + std::int64_t{options_.duration} * 1000;
      break;
  }
  pair_more(now, available, fx);
}

TournamentState::Effects TournamentState::opened(std::size_t match, std::string room) {
  Effects fx;
  Match& m = matches_.at(match);
  if (m.state != MatchState::pending) return fx;
  m.room = std::move(room);
  m.state = MatchState::racing;
  m.opened_at = wall_clock_();
  fx.changed = true;
  return fx;
}

TournamentState::Effects TournamentState::match_ended(std::size_t match, const MatchEnd& end,
                                                      Time now, const Available& available) {
  Effects fx;
  if (match >= matches_.size() || matches_[match].state == MatchState::done) return fx;
  decide(match, end);
  fx.changed = true;
  pair_more(now, available, fx);
  return fx;
}

void TournamentState::decide(std::size_t match, const MatchEnd& end) {
  Match& m = matches_[match];
  std::vector<std::string> ids;
  for (std::size_t p : m.players) ids.push_back(members_[p].id);
  std::vector<Result> results = results_of(ids, end);
  m.state = MatchState::done;
  m.room.clear();
  m.winner.reset();
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i] == Result::win) m.winner = m.players[i];
  }
  if (auto* bracket = std::get_if<EliminationBracket>(&format_)) {
    // A tie, or nobody playing, sends the better seed on.
    const auto seed_of = [this](std::size_t member) {
      return static_cast<std::size_t>(std::find(seed_member_.begin(), seed_member_.end(), member) -
                                      seed_member_.begin());
    };
    const std::size_t goes_on =
        m.winner ? seed_of(*m.winner) : std::min(seed_of(m.players[0]), seed_of(m.players[1]));
    bracket->decide(*m.ref, goes_on);
    m.winner = seed_member_[goes_on];
  } else if (auto* swiss = std::get_if<SwissPairing>(&format_)) {
    swiss->report(m.players, results);
  } else if (auto* arena = std::get_if<ArenaPairing>(&format_)) {
    arena->report(m.players, results);
  }
  m.results = std::move(results);
}

bool TournamentState::open_or_decide(std::size_t match, Effects& fx) {
  const Match& m = matches_[match];
  Opening opening{match, {}};
  for (std::size_t p : m.players) {
    if (!members_[p].left) opening.players.push_back(members_[p].id);
  }
  if (opening.players.size() >= 2) {
    fx.open.push_back(std::move(opening));
    return false;
  }
  MatchEnd end;  // lost unplayed by whoever left
  for (const std::string& id : opening.players) end.places.emplace_back(id, 0);
  decide(match, end);
  return true;
}

void TournamentState::pair_more(Time now, const Available& available, Effects& fx) {
  for (bool decided = true; decided && state_ == State::running;) {
    decided = false;
    struct Pairing {
      Group players;
      int round, index;
      std::optional<EliminationBracket::Ref> ref;
    };
    std::vector<Pairing> pairs;
    if (auto* bracket = std::get_if<EliminationBracket>(&format_)) {
      for (const EliminationBracket::Ref ref : bracket->playable()) {
        const bool known = std::any_of(matches_.begin(), matches_.end(),
                                       [&ref](const Match& m) { return m.ref == ref; });
        if (known) continue;
        const EliminationBracket::Match& bm = bracket->match(ref);
        pairs.push_back({{seed_member_[*bm.a], seed_member_[*bm.b]}, ref.round, ref.index, ref});
      }
    } else if (auto* swiss = std::get_if<SwissPairing>(&format_)) {
      if (swiss->round_complete() && swiss->rounds_paired() < options_.rounds) {
        const SwissPairing::Round r = swiss->pair_round();
        const int round = swiss->rounds_paired() - 1;
        if (r.bye) byes_.emplace_back(round, *r.bye);
        int index = 0;
        for (const Group& g : r.matches) pairs.push_back({g, round, index++, std::nullopt});
      }
    } else if (auto* arena = std::get_if<ArenaPairing>(&format_)) {
      const auto free = [&](std::size_t i) {
        return !members_[i].left && (!available || available(members_[i].id));
      };
      for (Group& g : arena->pair(now, free)) {
        pairs.push_back({std::move(g), 0, static_cast<int>(matches_.size()), std::nullopt});
      }
    }
    for (Pairing& p : pairs) {
      matches_.push_back(
          {p.round, p.index, std::move(p.players), {}, MatchState::pending, {}, p.ref});
      decided = open_or_decide(matches_.size() - 1, fx) || decided;
    }
    fx.changed = fx.changed || !pairs.empty();
  }
  check_finished(now, fx);
}

void TournamentState::check_finished(Time now, Effects& fx) {
  if (state_ != State::running) return;
  bool finished = false;
  if (const auto* bracket = std::get_if<EliminationBracket>(&format_)) {
    finished = bracket->finished();
  } else if (const auto* swiss = std::get_if<SwissPairing>(&format_)) {
    finished = swiss->round_complete() && swiss->rounds_paired() >= options_.rounds;
  } else if (const auto* arena = std::get_if<ArenaPairing>(&format_)) {
    finished = arena->over(now);
  }
  if (!finished) return;
  state_ = State::finished;
  fx.changed = true;
  fx.finished = true;
}

TournamentState::Effects TournamentState::tick(Time now, const Available& available) {
  Effects fx;
  if (state_ == State::waiting && starts_at_ && now >= *starts_at_) {
    begin(now, available, fx);
  } else if (state_ == State::running && std::holds_alternative<ArenaPairing>(format_)) {
    pair_more(now, available, fx);
  }
  return fx;
}

std::optional<TournamentState::Time> TournamentState::next_deadline(Time now) const {
  if (state_ == State::waiting) return starts_at_;
  if (state_ != State::running) return std::nullopt;
  // An arena looks every kArenaLook until its end; after it, only match ends move it on.
  if (const auto* arena = std::get_if<ArenaPairing>(&format_); arena && now < arena->ends()) {
    return std::min(now + kArenaLook, arena->ends());
  }
  return std::nullopt;
}

std::vector<std::size_t> TournamentState::podium() const {
  std::vector<std::size_t> podium;
  if (state_ != State::finished) return podium;
  if (const auto* bracket = std::get_if<EliminationBracket>(&format_)) {
    for (std::size_t seed : bracket->podium()) podium.push_back(seed_member_[seed]);
  } else if (const auto* swiss = std::get_if<SwissPairing>(&format_)) {
    for (const auto& s : swiss->standings()) podium.push_back(s.player);
  } else if (const auto* arena = std::get_if<ArenaPairing>(&format_)) {
    for (const auto& s : arena->standings()) podium.push_back(s.player);
  }
  if (podium.size() > 3 && !std::holds_alternative<EliminationBracket>(format_)) podium.resize(3);
  return podium;
}

void TournamentState::player_views(protocol::TournamentView& view) const {
  std::vector<protocol::TournamentPlayerView> players(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    players[i].id = members_[i].id;
    players[i].name = members_[i].name;
    players[i].rating = members_[i].rating;
    players[i].bot = members_[i].bot;
    players[i].left = members_[i].left;
  }
  const bool elimination = std::holds_alternative<EliminationBracket>(format_);
  for (const Match& m : matches_) {
    if (m.state != MatchState::done) continue;
    for (std::size_t p : m.players) {
      ++players[p].played;
      if (m.winner == p && (elimination || !m.drawn())) ++players[p].wins;
      if (elimination) players[p].out = players[p].out || m.winner != p;
    }
  }
  std::vector<std::size_t> order(members_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (std::holds_alternative<EliminationBracket>(format_)) {
    order = seed_member_;
  } else if (const auto* swiss = std::get_if<SwissPairing>(&format_)) {
    order.clear();
    for (const SwissPairing::Standing& s : swiss->standings()) {
      players[s.player].points = s.points;
      players[s.player].buchholz = s.buchholz;
      order.push_back(s.player);
    }
  } else if (const auto* arena = std::get_if<ArenaPairing>(&format_)) {
    order.clear();
    for (const ArenaPairing::Standing& s : arena->standings()) {
      players[s.player].points = s.points;
      players[s.player].streak = s.streak;
      order.push_back(s.player);
    }
  }
  for (std::size_t i : order) view.players.push_back(std::move(players[i]));
}

void TournamentState::match_views(protocol::TournamentView& view) const {
  const auto state_name = [](MatchState s) { return kMatchStateNames[static_cast<int>(s)]; };
  if (const auto* bracket = std::get_if<EliminationBracket>(&format_)) {
    const int last = static_cast<int>(bracket->rounds().size()) - 1;
    for (int r = 0; r <= last; ++r) {
      for (int i = 0; i < static_cast<int>(bracket->rounds()[r].size()); ++i) {
        const EliminationBracket::Match& bm = bracket->rounds()[r][i];
        protocol::TournamentMatchView v;
        v.round = r + 1;
        v.index = i;
        v.third_place = r == last && i == 1;
        if (bm.a) v.a = members_[seed_member_[*bm.a]].id;
        if (bm.b) v.b = members_[seed_member_[*bm.b]].id;
        if (bm.winner) v.winner = members_[seed_member_[*bm.winner]].id;
        v.state = bm.bye ? "bye" : bm.winner ? "done" : "pending";
        const EliminationBracket::Ref ref{r, i};
        for (const Match& m : matches_) {
          if (m.ref != ref) continue;
          v.state = state_name(m.state);
          v.room = m.room;
          v.draw = m.drawn();
        }
        view.matches.push_back(std::move(v));
      }
    }
    return;
  }
  for (const Match& m : matches_) {
    protocol::TournamentMatchView v;
    v.round = m.round + 1;
    v.index = m.index;
    for (std::size_t p : m.players) v.players.push_back(members_[p].id);
    v.a = v.players[0];
    v.b = v.players[1];
    for (Result r : m.results) v.results.emplace_back(name_of(r));
    v.room = m.room;
    v.state = state_name(m.state);
    if (m.winner) v.winner = members_[*m.winner].id;
    v.draw = m.drawn();
    view.matches.push_back(std::move(v));
  }
  for (const auto& [round, member] : byes_) {
    protocol::TournamentMatchView v;
    v.round = round + 1;
    v.index = -1;
    v.a = members_[member].id;
    v.winner = v.a;
    v.state = "bye";
    view.matches.push_back(std::move(v));
  }
}

protocol::TournamentView TournamentState::view() const {
  protocol::TournamentView view;
  view.code = code_;
  view.options = options_;
  view.host = host_;
  view.state = kStateNames[static_cast<int>(state_)];
  view.ends_at = ends_at_ms_;
  if (const auto* bracket = std::get_if<EliminationBracket>(&format_)) {
    view.rounds = static_cast<int>(bracket->rounds().size());
    const std::vector<EliminationBracket::Ref> ready = bracket->playable();
    view.round = ready.empty() ? view.rounds : ready.front().round + 1;
  } else if (const auto* swiss = std::get_if<SwissPairing>(&format_)) {
    view.rounds = options_.rounds;
    view.round = swiss->rounds_paired();
  } else if (options_.format == TournamentFormat::swiss) {
    view.rounds = options_.rounds;
  }
  player_views(view);
  match_views(view);
  for (std::size_t p : podium()) view.podium.push_back(members_[p].id);
  return view;
}

TournamentRecord TournamentState::record() const {
  TournamentRecord r{.code = code_,
                     .options = options_,
                     .host = host_,
                     .state = kStateNames[static_cast<int>(state_)],
                     .started_at = started_at_ms_};
  for (const Member& m : members_) r.members.push_back({m.id, m.name, m.rating, m.left, m.bot});
  for (const Match& m : matches_) {
    TournamentMatchRecord match{.round = m.round,
                                .index = m.index,
                                .players = {},
                                .state = kMatchStateNames[static_cast<int>(m.state)],
                                .room = m.room,
                                .opened_at = m.opened_at,
                                .winner = m.winner ? static_cast<int>(*m.winner) : -1,
                                .draw = m.drawn()};
    for (std::size_t p : m.players) match.players.push_back(static_cast<int>(p));
    for (Result result : m.results) match.results.emplace_back(name_of(result));
    r.matches.push_back(std::move(match));
  }
  for (const auto& [round, member] : byes_) r.byes.emplace_back(round, static_cast<int>(member));
  return r;
}

TournamentState TournamentState::restore(const TournamentRecord& r, Time now,
                                         std::int64_t (*wall_clock)()) {
  if (r.members.empty()) throw std::runtime_error("a tournament without members");
  const std::int64_t now_ms = wall_clock();
  const auto steady_at = [&](std::int64_t ms) {
    return now + std::chrono::milliseconds(ms - now_ms);
  };
  std::optional<Time> starts_at;
  if (r.options.starts) starts_at = steady_at(*r.options.starts);
  TournamentState t(r.code, r.options, {}, starts_at, wall_clock);
  t.host_ = r.host;
  t.members_.clear();
  for (const TournamentMemberRecord& m : r.members) {
    t.members_.push_back({m.id, m.name, m.rating, m.left, m.bot});
  }
  const auto* state = std::find(std::begin(kStateNames), std::end(kStateNames), r.state);
  if (state == std::end(kStateNames)) throw std::runtime_error("unknown state " + r.state);
  t.state_ = static_cast<State>(state - std::begin(kStateNames));
  if (t.state_ == State::waiting) return t;
  t.started_at_ms_ = r.started_at;
  switch (r.options.format) {
    case TournamentFormat::single_elimination: {
      const EliminationBracket& bracket =
          t.format_.emplace<EliminationBracket>(entrants_of(t.members_), r.options.third_place);
      for (const Entrant& seed : bracket.seeds())
        t.seed_member_.push_back(*t.member_of(seed.player_id));
      break;
    }
    case TournamentFormat::swiss:
      t.format_.emplace<SwissPairing>(entrants_of(t.members_), r.options.room_size);
      break;
    case TournamentFormat::arena:
      t.format_.emplace<ArenaPairing>(entrants_of(t.members_), steady_at(r.started_at),
                                      std::chrono::seconds(r.options.duration),
                                      r.options.room_size);
      t.ends_at_ms_ = r.started_at + std::int64_t{r.options.duration} * 1000;
      break;
  }
  // Each match as it was paired, and its result where it has one; a Swiss round at a time.
  int swiss_round = -1;
  for (const TournamentMatchRecord& m : r.matches) {
    const Group players = group_of(m);
    const auto* ms = std::find(std::begin(kMatchStateNames), std::end(kMatchStateNames), m.state);
    if (ms == std::end(kMatchStateNames)) throw std::runtime_error("unknown match state");
    Match match{m.round, m.index, players, m.room,
                static_cast<MatchState>(ms - std::begin(kMatchStateNames))};
    match.opened_at = m.opened_at;
    if (m.winner >= 0) match.winner = static_cast<std::size_t>(m.winner);
    const bool done = match.state == MatchState::done;
    if (done) match.results = results_of(m);
    if (auto* bracket = std::get_if<EliminationBracket>(&t.format_)) {
      match.ref = EliminationBracket::Ref{m.round, m.index};
      if (done) {
        if (!match.winner) throw std::runtime_error("an elimination match without a winner");
        const auto seed = std::find(t.seed_member_.begin(), t.seed_member_.end(), *match.winner);
        if (!bracket->decide(*match.ref, static_cast<std::size_t>(seed - t.seed_member_.begin()))) {
          throw std::runtime_error("an elimination match that was not playable");
        }
      }
    } else if (auto* swiss = std::get_if<SwissPairing>(&t.format_)) {
      while (swiss_round < m.round) {  // its round begins: paired as it was, with its bye
        ++swiss_round;
        SwissPairing::Round round;
        for (const TournamentMatchRecord& o : r.matches) {
          if (o.round == swiss_round) round.matches.push_back(group_of(o));
        }
        for (const auto& [br, member] : r.byes) {
          if (br == swiss_round) round.bye = static_cast<std::size_t>(member);
        }
        swiss->resume_round(round);
      }
      if (done) swiss->report(players, match.results);
    } else if (auto* arena = std::get_if<ArenaPairing>(&t.format_)) {
      arena->resume(players);
      if (done) arena->report(players, match.results);
    }
    t.matches_.push_back(std::move(match));
  }
  for (const auto& [round, member] : r.byes)
    t.byes_.emplace_back(round, static_cast<std::size_t>(member));
  if (auto* arena = std::get_if<ArenaPairing>(&t.format_)) {
    for (std::size_t i = 0; i < t.members_.size(); ++i) {
      if (t.members_[i].left) arena->withdraw(i);
    }
  }
  return t;
}

std::vector<TournamentState::Racing> TournamentState::racing() const {
  std::vector<Racing> racing;
  for (std::size_t i = 0; i < matches_.size(); ++i) {
    if (matches_[i].state == MatchState::racing) {
      racing.push_back({i, matches_[i].room, matches_[i].opened_at});
    }
  }
  return racing;
}

std::vector<std::string> TournamentState::featured(std::size_t most,
                                                   const std::vector<std::string>& followed) const {
  struct Candidate {
    int best = 0;
    long sum = 0;
    std::size_t match = 0;
  };
  std::vector<std::string> kept;
  std::vector<Candidate> others;
  for (std::size_t i = 0; i < matches_.size(); ++i) {
    const Match& m = matches_[i];
    if (m.state != MatchState::racing || m.room.empty()) continue;
    if (std::find(followed.begin(), followed.end(), m.room) != followed.end()) {
      kept.push_back(m.room);
      continue;
    }
    Candidate c{0, 0, i};
    for (const std::size_t p : m.players) {
      c.best = std::max(c.best, members_[p].rating);
      c.sum += members_[p].rating;
    }
    others.push_back(c);
  }
  std::sort(others.begin(), others.end(), [](const Candidate& a, const Candidate& b) {
    if (a.best != b.best) return a.best > b.best;
    if (a.sum != b.sum) return a.sum > b.sum;
    return a.match < b.match;
  });
  if (kept.size() > most) kept.resize(most);
  for (const Candidate& c : others) {
    if (kept.size() >= most) break;
    kept.push_back(matches_[c.match].room);
  }
  return kept;
}

TournamentState::Effects TournamentState::reopen(std::size_t match) {
  Effects fx;
  Match& m = matches_.at(match);
  if (m.state != MatchState::racing) return fx;
  m.state = MatchState::pending;
  m.room.clear();
  fx.changed = true;
  return fx;
}

void TournamentState::resume(Time now, const Available& available, Effects& fx) {
  fx.changed = true;
  if (state_ != State::running) return;
  for (std::size_t i = 0; i < matches_.size(); ++i) {
    const bool opening =
        std::any_of(fx.open.begin(), fx.open.end(), [i](const Opening& o) { return o.match == i; });
    if (matches_[i].state == MatchState::pending && !opening) open_or_decide(i, fx);
  }
  pair_more(now, available, fx);
}

}  // namespace tilerace::server
