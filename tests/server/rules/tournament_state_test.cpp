#include "server/rules/tournament_state.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;
using Time = TournamentState::Time;

const Time kNow{std::chrono::hours(1)};
std::int64_t wall_ms = 1'000'000;  // the wall clock kNow is at, unless a test moves it
std::int64_t wall_clock() { return wall_ms; }

protocol::TournamentOptions options_of(protocol::TournamentFormat format, int room_size = 2) {
  protocol::TournamentOptions o;
  o.format = format;
  o.rounds = 3;
  o.duration = 60;
  o.room_size = room_size;
  return o;
}

// A tournament hosted by p0 that p1…p(n-1) joined (p0 rated best, then p1, …).
TournamentState with_players(protocol::TournamentFormat format, int n,
                             std::optional<Time> starts_at = std::nullopt, int room_size = 2) {
  TournamentState t("CODE22", options_of(format, room_size), {"p0", "ann", 1600}, starts_at,
                    wall_clock);
  for (int i = 1; i < n; ++i) {
    const std::string id = fmt::format("p{}", i);
    EXPECT_FALSE(t.join({id, id, 1600 - 10 * i}).error);
  }
  return t;
}

const TournamentState::Available kEveryone = [](const std::string&) { return true; };

std::set<std::string> players_of(const std::vector<TournamentState::Opening>& open) {
  std::set<std::string> ids;
  for (const auto& o : open) ids.insert(o.players.begin(), o.players.end());
  return ids;
}

// o's race as these tests play it: in the order of the players' numbers (winner: the best), or
// everyone level (a draw).
MatchEnd race_of(const TournamentState::Opening& o, bool draw = false) {
  std::vector<std::string> order = o.players;
  std::sort(order.begin(), order.end());
  MatchEnd end;
  for (std::size_t i = 0; i < order.size(); ++i)
    end.places.emplace_back(order[i], draw ? 0 : static_cast<int>(i));
  return end;
}

TEST(TournamentState, APlayerWhoLeftLosesTheirLaterMatchesUnplayed) {
  TournamentState t = with_players(protocol::TournamentFormat::swiss, 4);
  TournamentState::Effects fx = t.start("p0", kNow, kEveryone);
  ASSERT_EQ(fx.open.size(), 2u);
  EXPECT_FALSE(t.leave("p3", kNow, kEveryone).error) << "their running match goes on";
  for (const auto& o : std::vector(fx.open)) {
    t.opened(o.match, fmt::format("ROOM{}", o.match));
    fx = t.match_ended(o.match, race_of(o), kNow, kEveryone);  // the better number wins
  }
  // Round 1 was p0–p1 and p2–p3; round 2 pairs p0–p2 and p1–p3, which p1 wins unplayed.
  ASSERT_EQ(fx.open.size(), 1u) << "p3's match was decided without a room";
  EXPECT_EQ(players_of(fx.open).count("p3"), 0u);
  const protocol::TournamentView v = t.view();
  int walkovers = 0;
  for (const auto& m : v.matches) {
    if (m.state == "done" && (m.a == "p3" || m.b == "p3") && m.round == 2) {
      ++walkovers;
      EXPECT_NE(m.winner, "p3");
    }
  }
  EXPECT_EQ(walkovers, 1);
  for (const auto& p : v.players) EXPECT_EQ(p.left, p.id == "p3") << p.id;
}

TEST(TournamentState, TheClockStartsItOrCallsItOffWithoutPlayers) {
  TournamentState alone("CODE22", options_of(protocol::TournamentFormat::arena),
                        {"p0", "ann", 1500}, kNow + 10s, wall_clock);
  EXPECT_EQ(alone.next_deadline(kNow), kNow + 10s);
  EXPECT_TRUE(alone.tick(kNow + 9s, kEveryone).open.empty());
  const TournamentState::Effects off = alone.tick(kNow + 10s, kEveryone);
  EXPECT_TRUE(off.finished);
  EXPECT_EQ(alone.view().state, "cancelled");

  TournamentState t = with_players(protocol::TournamentFormat::arena, 4, kNow + 10s);
  const TournamentState::Effects started = t.tick(kNow + 10s, kEveryone);
  EXPECT_EQ(started.open.size(), 2u);
  EXPECT_EQ(t.view().state, "running");
  EXPECT_EQ(t.view().ends_at, 1'000'000 + 60'000);
}

TEST(TournamentState, ADrawnEliminationMatchSendsTheBetterSeedOn) {
  TournamentState t = with_players(protocol::TournamentFormat::single_elimination, 2);
  const TournamentState::Effects fx = t.start("p0", kNow, kEveryone);
  ASSERT_EQ(fx.open.size(), 1u);
  const TournamentState::Effects end =
      t.match_ended(fx.open[0].match, race_of(fx.open[0], true), kNow, kEveryone);
  EXPECT_TRUE(end.finished);
  const protocol::TournamentView v = t.view();
  EXPECT_EQ(v.podium, (std::vector<std::string>{"p0", "p1"}));
  EXPECT_TRUE(v.matches.at(0).draw);
}

TEST(TournamentState, AnArenaPairsOnlyWhoIsAvailableAndLooksAgainEverySecond) {
  TournamentState t = with_players(protocol::TournamentFormat::arena, 4);
  const auto away = [](const std::string& id) { return id != "p3" && id != "p2"; };
  const TournamentState::Effects fx = t.start("p0", kNow, away);
  ASSERT_EQ(fx.open.size(), 1u);
  EXPECT_EQ(players_of(fx.open), (std::set<std::string>{"p0", "p1"}));
  EXPECT_EQ(t.next_deadline(kNow), kNow + 1s);
  const TournamentState::Effects back = t.tick(kNow + 1s, kEveryone);
  EXPECT_EQ(players_of(back.open), (std::set<std::string>{"p2", "p3"}));
  EXPECT_EQ(t.next_deadline(kNow + 59s + 500ms), kNow + 60s) << "its end";
}

// What the store keeps (the record through its document) rebuilds the same tournament.
TournamentState rebuilt(const TournamentState& t, Time now) {
  const TournamentRecord saved = t.record();
  TournamentRecord read{.code = saved.code, .state = saved.state};
  decode_tournament(encode_tournament(saved), read);
  return TournamentState::restore(read, now, wall_clock);
}

std::string shown(const TournamentState& t) { return protocol::encode_tournament(t.view(), {}); }

// Opens every match of fx on t, in rooms named after them.
std::vector<TournamentState::Opening> open_all(TournamentState& t,
                                               const TournamentState::Effects& fx) {
  for (const auto& o : fx.open) t.opened(o.match, fmt::format("ROOM{}", o.match));
  return fx.open;
}

// Each format (Swiss and arena also in rooms of three), rebuilt mid-round from what the store
// keeps: the same snapshot, its racing matches in their rooms, and the same pairings and result
// as the original from then on.
TEST(TournamentState, ARebuiltTournamentGoesOnAsTheOriginal) {
  const std::vector<std::pair<protocol::TournamentFormat, int>> kinds = {
      {protocol::TournamentFormat::single_elimination, 2},
      {protocol::TournamentFormat::swiss, 2},
      {protocol::TournamentFormat::arena, 2},
      {protocol::TournamentFormat::swiss, 3},
      {protocol::TournamentFormat::arena, 3}};
  for (const auto& [format, room_size] : kinds) {
    SCOPED_TRACE(fmt::format("{} in rooms of {}", protocol::to_string(format), room_size));
    TournamentState t = with_players(format, 7, std::nullopt, room_size);
    std::vector<TournamentState::Opening> running = open_all(t, t.start("p0", kNow, kEveryone));
    ASSERT_FALSE(running.empty());
    // Half the first matches end (one drawn); what they pair opens.
    const std::size_t ended = running.size() / 2 + 1;
    for (std::size_t i = 0; i < ended; ++i) {
      const auto& o = running[i];
      const TournamentState::Effects fx =
          t.match_ended(o.match, race_of(o, i == 0), kNow, kEveryone);
      for (const auto& more : open_all(t, fx)) running.push_back(more);
    }
    running.erase(running.begin(), running.begin() + static_cast<std::ptrdiff_t>(ended));

    // Rebuilt five seconds on (by both clocks).
    const Time later = kNow + 5s;
    wall_ms += 5000;
    TournamentState copy = rebuilt(t, later);
    EXPECT_EQ(shown(copy), shown(t));
    std::set<std::string> rooms;
    for (const auto& r : copy.racing()) rooms.insert(r.room);
    std::set<std::string> expected;
    for (const auto& o : running) expected.insert(fmt::format("ROOM{}", o.match));
    EXPECT_EQ(rooms, expected);
    for (const auto& r : copy.racing()) EXPECT_EQ(r.opened_at, wall_clock() - 5000);
    TournamentState::Effects resumed;
    copy.resume(later, kEveryone, resumed);
    EXPECT_TRUE(resumed.open.empty()) << "every match is in a room";

    // Both play on to the end with the same results.
    for (int step = 0; step < 200 && !running.empty(); ++step) {
      const TournamentState::Opening o = running.front();
      running.erase(running.begin());
      const TournamentState::Effects x = t.match_ended(o.match, race_of(o), later, kEveryone);
      const TournamentState::Effects y = copy.match_ended(o.match, race_of(o), later, kEveryone);
      ASSERT_EQ(x.open.size(), y.open.size());
      for (std::size_t i = 0; i < x.open.size(); ++i) {
        EXPECT_EQ(x.open[i].match, y.open[i].match);
        EXPECT_EQ(x.open[i].players, y.open[i].players);
        copy.opened(y.open[i].match, fmt::format("ROOM{}", y.open[i].match));
      }
      for (const auto& more : open_all(t, x)) running.push_back(more);
      if (format == protocol::TournamentFormat::arena && step == 10) break;  // it runs a minute
    }
    EXPECT_EQ(shown(copy), shown(t));
    EXPECT_EQ(copy.next_deadline(later), t.next_deadline(later));
    if (format != protocol::TournamentFormat::arena) {
      EXPECT_EQ(t.view().state, "finished");
    }
    wall_ms -= 5000;
  }
}

// A racing match whose room came to nothing is opened again for the same players.
TEST(TournamentState, AReopenedMatchOpensAgainForItsPlayers) {
  TournamentState t = with_players(protocol::TournamentFormat::single_elimination, 4);
  const std::vector<TournamentState::Opening> first = open_all(t, t.start("p0", kNow, kEveryone));
  ASSERT_EQ(first.size(), 2u);
  TournamentState copy = rebuilt(t, kNow);
  TournamentState::Effects fx = copy.reopen(first[1].match);
  EXPECT_TRUE(fx.changed);
  copy.resume(kNow, kEveryone, fx);
  ASSERT_EQ(fx.open.size(), 1u);
  EXPECT_EQ(fx.open[0].match, first[1].match);
  EXPECT_EQ(players_of(fx.open), players_of({first[1]}));
  EXPECT_EQ(copy.racing().size(), 1u) << "the other is still in its room";
  EXPECT_TRUE(copy.reopen(first[1].match).open.empty()) << "not racing now";
}

// A tournament waiting for its start keeps its members, host and scheduled start.
TEST(TournamentState, ARebuiltWaitingTournamentStartsOnItsClock) {
  protocol::TournamentOptions o = options_of(protocol::TournamentFormat::swiss);
  o.starts = wall_clock() + 30'000;
  TournamentState t("CODE22", o, {"p0", "ann", 1600}, kNow + 30s, wall_clock);
  EXPECT_FALSE(t.join({"p1", "bob", 1500}).error);
  TournamentState copy = rebuilt(t, kNow);
  EXPECT_EQ(shown(copy), shown(t));
  EXPECT_EQ(copy.next_deadline(kNow), kNow + 30s);
  EXPECT_EQ(copy.tick(kNow + 30s, kEveryone).open.size(), 1u);
  EXPECT_TRUE(copy.start("p0", kNow, kEveryone).error) << "begun";
}

TEST(TournamentState, RefusalsChangeNothing) {
  TournamentState t = with_players(protocol::TournamentFormat::single_elimination, 1);
  EXPECT_EQ(t.start("p0", kNow, kEveryone).error->code, protocol::ErrorCode::not_allowed);
  EXPECT_EQ(t.join({"p0", "ann", 1500}).error->code, protocol::ErrorCode::already_in_tournament);
  EXPECT_FALSE(t.join({"p1", "bob", 1500}).error);
  EXPECT_EQ(t.start("p1", kNow, kEveryone).error->code, protocol::ErrorCode::not_allowed);
  EXPECT_EQ(t.leave("p9", kNow, kEveryone).error->code, protocol::ErrorCode::not_in_tournament);
  EXPECT_FALSE(t.start("p0", kNow, kEveryone).error);
  EXPECT_EQ(t.join({"p2", "cy", 1500}).error->code, protocol::ErrorCode::tournament_started);
  EXPECT_EQ(t.start("p0", kNow, kEveryone).error->code, protocol::ErrorCode::tournament_started);
}

// A Swiss of seven in rooms of four: rooms of four and three; first wins, last loses, the
// places between draw; a player missing from the race (away past the grace) lost it; the
// snapshot shows each room's players and results.
TEST(TournamentState, RoomsOfMoreThanTwoScoreByPlace) {
  TournamentState t = with_players(protocol::TournamentFormat::swiss, 7, std::nullopt, 4);
  const std::vector<TournamentState::Opening> first = open_all(t, t.start("p0", kNow, kEveryone));
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].players, (std::vector<std::string>{"p0", "p1", "p2", "p3"}));
  EXPECT_EQ(first[1].players, (std::vector<std::string>{"p4", "p5", "p6"}));
  t.match_ended(first[0].match, MatchEnd{{{"p3", 0}, {"p1", 1}, {"p0", 1}, {"p2", 3}}}, kNow,
                kEveryone);
  t.match_ended(first[1].match, MatchEnd{{{"p5", 0}, {"p4", 1}}}, kNow, kEveryone);  // p6 away
  const protocol::TournamentView v = t.view();
  const auto points = [&v](const std::string& id) {
    for (const auto& p : v.players) {
      if (p.id == id) return p.points;
    }
    return -1;
  };
  EXPECT_EQ(points("p3"), 2);
  EXPECT_EQ(points("p1"), 1);
  EXPECT_EQ(points("p0"), 1);
  EXPECT_EQ(points("p2"), 0);
  EXPECT_EQ(points("p5"), 2);
  EXPECT_EQ(points("p4"), 1) << "second of three who was not last: the absent one was";
  EXPECT_EQ(points("p6"), 0);
  const protocol::TournamentMatchView& room = v.matches.at(0);
  EXPECT_EQ(room.players, (std::vector<std::string>{"p0", "p1", "p2", "p3"}));
  EXPECT_EQ(room.results, (std::vector<std::string>{"draw", "draw", "loss", "win"}));
  EXPECT_EQ(room.winner, "p3");
  EXPECT_EQ(v.round, 2) << "the second round is paired";
  // A player who left is not seated, and loses the match.
  TournamentState four = with_players(protocol::TournamentFormat::swiss, 4, std::nullopt, 4);
  const std::vector<TournamentState::Opening> one =
      open_all(four, four.start("p0", kNow, kEveryone));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_FALSE(four.leave("p3", kNow, kEveryone).error);
  const TournamentState::Effects next =
      four.match_ended(one[0].match, race_of(one[0]), kNow, kEveryone);
  ASSERT_EQ(next.open.size(), 1u);
  EXPECT_EQ(next.open[0].players, (std::vector<std::string>{"p0", "p1", "p2"}));
}

// Tournament TV's choice: every racing match up to the number asked; beyond it the best-rated
// first, and a match followed stays followed while it runs, its place going to the best of the
// others once it ends.
TEST(TournamentState, TheFeaturedMatchesAreTheBestRatedAndStayWhileTheyRun) {
  TournamentState t = with_players(protocol::TournamentFormat::swiss, 8);  // p0 best … p7
  TournamentState::Effects fx = t.start("p0", kNow, kEveryone);
  ASSERT_EQ(fx.open.size(), 4u);
  std::map<std::string, std::size_t> match_of;  // a player's match
  for (const auto& o : fx.open) {
    const std::string room = fmt::format("R{}", o.match);
    t.opened(o.match, room);
    for (const std::string& p : o.players) match_of[p] = o.match;
  }
  const auto room_of = [&](const std::string& p) { return fmt::format("R{}", match_of.at(p)); };
  EXPECT_EQ(t.featured(8, {}).size(), 4u) << "a round of 8 or fewer: every match";
  // Two places: the matches of p0 and p2 (each with the best-rated racer left; Swiss pairs
  // p0 with p1, p2 with p3).
  const std::vector<std::string> two = t.featured(2, {});
  EXPECT_EQ(two, (std::vector<std::string>{room_of("p0"), room_of("p2")}));
  // A followed match stays while it runs, even with better ones about.
  const std::vector<std::string> kept = t.featured(2, {room_of("p7")});
  EXPECT_EQ(kept.front(), room_of("p7"));
  EXPECT_EQ(kept.size(), 2u);
  // Ended: its place goes to the best of the others.
  for (const auto& o : fx.open) {
    if (o.match == match_of.at("p7")) t.match_ended(o.match, race_of(o), kNow, kEveryone);
  }
  const std::vector<std::string> next = t.featured(2, kept);
  EXPECT_EQ(std::count(next.begin(), next.end(), room_of("p7")), 0);
  EXPECT_EQ(next.size(), 2u);
  EXPECT_EQ(next.front(), kept.back()) << "the one still running stays";
}

}  // namespace
}  // namespace tilerace::server
