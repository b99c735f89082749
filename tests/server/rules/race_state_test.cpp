#include "server/rules/race_state.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "tests/server/rules/race_rules.hpp"

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;
using namespace testing;
using Places = std::vector<std::pair<std::string, int>>;

struct RaceFixture : ::testing::Test {
  Metrics metrics;
  Owner owner;
  Member a{"a"}, b{"b"};

  Rules make(const protocol::RoomOptions& o = options(), RaceSettings s = {3, 10}) {
    return Rules(RaceState("ROOM23", o, with_server_clocks(s)), owner, metrics);
  }
  // a and b join race and are ready at t0: the countdown runs.
  void join_ready(Rules& race) {
    race.join(a.player, *a.out, {});
    race.join(b.player, *b.out, {});
    race.set_ready(*a.player, true, *a.out, {}, t0);
    race.set_ready(*b.player, true, *b.out, {}, t0);
  }
  // a and b joined and ready; the countdown ran out at t0 + 3 s.
  Rules racing(const protocol::RoomOptions& o = options()) {
    Rules race = make(o);
    join_ready(race);
    race.tick(t0 + 3s);
    a.out->take();
    b.out->take();
    return race;
  }
  // Plays moves for m until one changes the board; returns its `moved`.
  json changing_move(Rules& race, Member& m, Time now) {
    for (int d = 0; d < 4; ++d) {
      race.play(*m.player, *m.out, move(static_cast<engine::Direction>(d)), {}, now);
      const json moved = m.out->take().back();
      if (moved["changed"] == true) return moved;
    }
    return {};
  }
};

TEST_F(RaceFixture, TheCountdownRunsOnTheInjectedClock) {
  Rules race = make();
  race.join(a.player, *a.out, {});
  race.join(b.player, *b.out, {});
  EXPECT_EQ(race.next_deadline(), std::nullopt);
  race.set_ready(*a.player, true, *a.out, {}, t0);
  race.set_ready(*b.player, true, *b.out, {}, t0);
  // Her join, his, her ready, his ready; then the countdown.
  EXPECT_EQ(a.out->take_types(),
            (std::vector<std::string>{"room", "room", "room", "room", "countdown"}));
  EXPECT_EQ(race.next_deadline(), t0 + 3s);
  race.tick(t0 + 2999ms);
  EXPECT_TRUE(a.out->take().empty());
  race.tick(t0 + 3s);
  EXPECT_EQ(a.out->take_types(), (std::vector<std::string>{"race_start"}));
  EXPECT_EQ(race.next_deadline(), t0 + 3s + 60s);  // the time limit
  EXPECT_EQ(metrics.races_active, 1);
}

TEST_F(RaceFixture, UnreadyingDuringTheCountdownStopsIt) {
  Rules race = make();
  join_ready(race);
  race.set_ready(*b.player, false, *b.out, {}, t0 + 1s);
  EXPECT_EQ(race.next_deadline(), std::nullopt);
  race.tick(t0 + 10s);
  for (const auto& t : a.out->take_types()) EXPECT_NE(t, "race_start");
}

TEST_F(RaceFixture, TheTimeLimitEndsTheRaceAndRaceOverWaitsForTheRecord) {
  Rules race = racing();
  for (int i = 0; i < 100 && changing_move(race, a, t0 + 4s)["score"] == 0; ++i) {
  }
  ASSERT_EQ(a.out->take().size(), 0u);
  race.tick(t0 + 3s + 59999ms);
  EXPECT_FALSE(race.take_result().has_value());
  race.tick(t0 + 63s);
  std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_FALSE(race.take_result().has_value());  // handed out once
  EXPECT_EQ(result->record.reason, "time");
  EXPECT_EQ(result->record.winner, "a");  // more points
  EXPECT_EQ(result->record.games.size(), 2u);
  // Nothing announced before it is recorded; moves are refused meanwhile.
  for (const auto& t : b.out->take_types()) EXPECT_NE(t, "race_over");
  race.play(*b.player, *b.out, move(engine::Direction::left), {}, t0 + 63s);
  EXPECT_EQ(b.out->take().back()["code"], "game_over");
  race.recorded(*result, {});
  const std::vector<json> got = b.out->take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["type"], "race_over");
  EXPECT_EQ(got[0]["ratings"]["a"]["after"], fresh_after(true));
  EXPECT_EQ(got[0]["variant"], "classic-4");
  EXPECT_EQ(got[0]["ratings"]["a"]["rd_before"], 350);
  EXPECT_LT(got[0]["ratings"]["a"]["rd"], 350);
  EXPECT_EQ(got[0]["ratings"]["a"]["provisional"], true) << "one race: still provisional";
  ASSERT_EQ(result->record.ratings.size(), 2u);
  EXPECT_EQ(result->record.ratings[0].variant, protocol::Variant::classic_4);
  EXPECT_EQ(result->record.ratings[0].before, glicko2::kStart);
  EXPECT_EQ(got[1]["room"]["state"], "waiting");
  EXPECT_EQ(rating_of(*a.player), fresh_after(true));
  EXPECT_EQ(rating_of(*b.player), fresh_after(false));
  EXPECT_EQ(metrics.races_active, 0);
}

// The rules know racers by id, with the name they sat down with: a rename reaches the room, and
// the standings, only through rename.
TEST_F(RaceFixture, ARenameShowsInTheRoomAndInTheStandings) {
  Rules race = racing();
  race.rename(*a.player, "ann again");
  const std::vector<json> seen = b.out->take();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0]["type"], "room");
  EXPECT_EQ(seen[0]["room"]["players"][0]["name"], "ann again");
  race.play(*a.player, *a.out, protocol::Resign{}, {}, t0 + 4s);
  const std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_NE(result->race_over.find("\"name\":\"ann again\""), std::string::npos)
      << result->race_over;
}

// A racer who leaves a running race is let go but stays seated (for the standings) until the
// race is recorded.
TEST_F(RaceFixture, ALeaverStaysSeatedForTheStandingsUntilTheRecord) {
  Rules race = racing();
  race.leave(*b.player, *b.out, {}, t0 + 4s);
  EXPECT_TRUE(b.player->room.expired()) << "let go at once";
  EXPECT_TRUE(race.seated(*b.player));
  std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());  // a forfeit
  race.recorded(*result, {});
  EXPECT_FALSE(race.seated(*b.player));
  EXPECT_TRUE(race.seated(*a.player));
  EXPECT_EQ(rating_of(*b.player), fresh_after(false)) << "rated though gone";
}

TEST_F(RaceFixture, AtTheTimeLimitEqualScoresRankByFewerMoves) {
  Rules race = racing();
  // The same moves for both (one seed: the same boards) until Bob has a quiet move — one
  // that slides without merging, found by trying each direction on a copy — then he makes it.
  const Time now = t0 + 4s;
  std::optional<engine::Direction> quiet;
  for (int i = 0; i < 40 && !quiet; ++i) {
    const json am = changing_move(race, a, now);
    ASSERT_EQ(am["type"], "moved");
    race.play(*b.player, *b.out, move(*engine::direction_from_string(am["dir"].get<std::string>())),
              {}, now);
    ASSERT_EQ(b.out->take().back()["board"], am["board"]);
    for (int d = 0; d < 4 && !quiet && i >= 2; ++d) {
      Rules probe = race;
      probe.play(*b.player, *b.out, move(static_cast<engine::Direction>(d)), {}, now);
      const json m = b.out->take().back();
      if (m["changed"] == true && m["gained"] == 0) quiet = static_cast<engine::Direction>(d);
    }
  }
  ASSERT_TRUE(quiet.has_value());
  race.play(*b.player, *b.out, move(*quiet), {}, now);
  race.tick(t0 + 3s + 60s);
  const std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->record.reason, "time");
  EXPECT_EQ(result->record.winner, "a");
  a.out->take();
  race.recorded(*result, {});
  const json over = a.out->take().at(0);
  ASSERT_EQ(over["type"], "race_over");
  EXPECT_EQ(over["standings"][0]["player"], "a");
  EXPECT_EQ(over["standings"][0]["score"], over["standings"][1]["score"]);
  EXPECT_EQ(over["standings"][0]["max_tile"], over["standings"][1]["max_tile"]);
  EXPECT_LT(over["standings"][0]["moves"], over["standings"][1]["moves"]);
}

TEST_F(RaceFixture, AFailedRecordTellsTheRacersAndAnnouncesNothing) {
  Rules race = racing();
  race.play(*b.player, *b.out, protocol::Resign{}, {}, t0 + 5s);
  const std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->record.reason, "forfeit");
  a.out->take();
  race.record_failed();
  const std::vector<json> got = a.out->take();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["code"], "internal");
  EXPECT_EQ(rating_of(*a.player), 1500);  // no rating before the record
  race.recorded(*result, {});
  EXPECT_EQ(a.out->take_types(), (std::vector<std::string>{"race_over", "room"}));
  EXPECT_EQ(rating_of(*a.player), fresh_after(true));
}

TEST_F(RaceFixture, ARacerAwayPastTheGraceForfeits) {
  Rules race = racing();
  race.disconnected(*b.player, t0 + 10s);
  EXPECT_EQ(race.next_deadline(), t0 + 20s);  // grace 10 s, before the time limit
  race.tick(t0 + 19s);
  EXPECT_FALSE(race.take_result().has_value());
  race.tick(t0 + 20s);
  const std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->record.reason, "forfeit");
  EXPECT_EQ(result->record.winner, "a");
  EXPECT_TRUE(b.player->room.expired());
}

TEST_F(RaceFixture, ComingBackInsideTheGraceKeepsThePlace) {
  Rules race = racing();
  const json before = changing_move(race, b, t0 + 4s);
  race.disconnected(*b.player, t0 + 10s);
  auto back = std::make_shared<FakeParticipant>();
  b.player->connection = back;
  race.reconnected(*b.player, back, t0 + 19s);
  EXPECT_EQ(race.next_deadline(), t0 + 63s);  // only the time limit is left
  const std::vector<json> got = back->take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["type"], "room");
  EXPECT_EQ(got[1]["type"], "race_state");
  EXPECT_EQ(got[1]["remaining_ms"], 44000);
  EXPECT_EQ(got[1]["games"]["b"]["board"], before["board"]);
  race.tick(t0 + 30s);
  EXPECT_FALSE(race.take_result().has_value());
}

TEST_F(RaceFixture, ACountdownCancelledByADropStartsAgainWhenTheRacerIsBack) {
  Rules race = make();
  join_ready(race);
  race.disconnected(*b.player, t0 + 1s);
  race.tick(t0 + 3s);  // the first countdown's end: cancelled, nothing starts
  EXPECT_EQ(a.out->take().back()["type"], "room");
  auto back = std::make_shared<FakeParticipant>();
  b.player->connection = back;
  race.reconnected(*b.player, back, t0 + 5s);
  EXPECT_EQ(back->take().back()["type"], "countdown");
  EXPECT_EQ(race.next_deadline(), t0 + 8s);
}

TEST_F(RaceFixture, APartnerFromAnotherNodeIsSeatedAwayUntilTheyArrive) {
  Rules race = make();
  race.seat(a.player, b.player, t0 + 15s);
  race.announce(b.out.get(), {}, t0);
  const json room = b.out->take().back();
  EXPECT_EQ(room["room"]["players"][0]["connected"], false);
  EXPECT_EQ(race.next_deadline(), t0 + 15s);  // the seat is given up then, as a grace would be
  race.reconnected(*a.player, a.out, t0 + 1s);
  EXPECT_EQ(b.out->take().back()["type"], "countdown");
}

// A tournament's match room: it starts by itself, a racer away past the grace before the
// start loses the match unraced, and the room closes once the match is decided.
TEST_F(RaceFixture, ATournamentMatchWithAnAbsentRacerIsWonUnraced) {
  protocol::RoomOptions o = options();
  o.tournament = "TOURNY";
  Rules race = make(o);
  race.seat_match({{a.player, std::nullopt}, {b.player, t0 + 10s}});
  race.announce(nullptr, {}, t0);
  EXPECT_EQ(a.out->take().back()["room"]["tournament"], "TOURNY");
  race.set_ready(*a.player, false, *a.out, {}, t0);
  EXPECT_EQ(a.out->take().back()["code"], "not_allowed") << "a match starts by itself";
  a.out->take();
  race.tick(t0 + 10s);
  // A walkover: recorded like a race (no game, no rating change) before a is told.
  EXPECT_FALSE(race.match_end().has_value());
  EXPECT_TRUE(b.player->room.expired()) << "b is out of the room";
  std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->record.reason, "walkover");
  EXPECT_EQ(result->record.winner, a.player->id);
  EXPECT_TRUE(result->record.games.empty() && result->record.ratings.empty());
  EXPECT_TRUE(a.out->take().empty()) << "nothing before the record";
  race.recorded(*result, {});
  ASSERT_TRUE(race.match_end().has_value());
  EXPECT_EQ(race.match_end()->places, (Places{{a.player->id, 0}})) << "b did not play it";
  EXPECT_TRUE(race.closed());
  // Then race_over with reason walkover, then room_closed.
  const std::vector<json> told = a.out->take();
  ASSERT_EQ(told.size(), 2u);
  const json& over = told[0];
  EXPECT_EQ(over["type"], "race_over");
  EXPECT_EQ(over["reason"], "walkover");
  EXPECT_EQ(over["winner"], a.player->id);
  EXPECT_EQ(over["standings"][0]["player"], a.player->id);
  EXPECT_EQ(over["standings"][1]["state"], "forfeited");
  EXPECT_EQ(over["ratings"][b.player->id]["before"], over["ratings"][b.player->id]["after"]);
  EXPECT_EQ(told[1]["type"], "room_closed");
  EXPECT_EQ(told[1]["reason"], "match_over");
  const std::optional<MatchEnd> end = race.match_end();
  const auto& walkover = end->walkover;
  ASSERT_TRUE(walkover.has_value());
  EXPECT_EQ(walkover->absent, std::vector<std::string>{b.player->id});
  EXPECT_EQ(json::parse(walkover->race_over), over);
  EXPECT_TRUE(a.player->room.expired() && b.player->room.expired()) << "both are free";
}

TEST_F(RaceFixture, LeavingATournamentMatchBeforeItsStartForfeitsIt) {
  protocol::RoomOptions o = options();
  o.tournament = "TOURNY";
  Rules race = make(o);
  race.seat_match({{a.player, std::nullopt}, {b.player, std::nullopt}});
  race.announce(nullptr, {}, t0);
  race.leave(*b.player, *b.out, {}, t0 + 1s);
  std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value()) << "a walkover, recorded";
  race.recorded(*result, {});
  ASSERT_TRUE(race.match_end().has_value());
  EXPECT_EQ(race.match_end()->places, (Places{{a.player->id, 0}}));
  EXPECT_TRUE(race.closed());
}

// Everyone away past the grace: nobody played it, everyone is let go, and a spectator is told
// the match is over.
TEST_F(RaceFixture, ATournamentMatchNobodyCameToIsDecidedForNobody) {
  protocol::RoomOptions o = options();
  o.tournament = "TOURNY";
  Rules race = make(o);
  race.seat_match({{a.player, t0 + 10s}, {b.player, t0 + 10s}});
  race.announce(nullptr, {}, t0);
  const auto watcher = std::make_shared<FakeParticipant>();
  EXPECT_TRUE(race.add_spectator(watcher, {}, t0));
  race.tick(t0 + 10s);
  ASSERT_TRUE(race.match_end().has_value());
  EXPECT_TRUE(race.match_end()->places.empty());
  EXPECT_TRUE(race.closed());
  const json last = watcher->take().back();
  EXPECT_EQ(last["type"], "room_closed");
  EXPECT_EQ(last["reason"], "match_over");
  EXPECT_TRUE(a.player->room.expired() && b.player->room.expired()) << "both are free";
}

// A match room of three: a racer still away after the grace is out of the match (let go, and
// missing from its places: they lost it), and the others race it.
TEST_F(RaceFixture, AMatchOfThreeIsRacedWithoutTheOneStillAway) {
  Member c{"c"};
  protocol::RoomOptions o = options();
  o.tournament = "TOURNY";
  o.max_players = 3;
  Rules race = make(o);
  race.seat_match({{a.player, std::nullopt}, {b.player, std::nullopt}, {c.player, t0 + 10s}});
  race.announce(nullptr, {}, t0);
  EXPECT_EQ(race.next_deadline(), t0 + 10s) << "no countdown while c is away";
  race.tick(t0 + 10s);
  EXPECT_FALSE(race.match_end().has_value()) << "two are left to race it";
  EXPECT_FALSE(race.closed());
  EXPECT_TRUE(c.player->room.expired()) << "c is let go";
  EXPECT_EQ(a.out->take().back()["type"], "countdown");
  race.tick(t0 + 13s);  // the countdown's end
  race.play(*b.player, *b.out, protocol::Resign{}, {}, t0 + 14s);
  std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(json::parse(result->race_over)["standings"][1]["place"], 2);
  race.recorded(*result, {});
  ASSERT_TRUE(race.match_end().has_value());
  EXPECT_EQ(race.match_end()->places, (Places{{a.player->id, 0}, {b.player->id, 1}}));
  EXPECT_TRUE(race.closed());
}

TEST_F(RaceFixture, ATournamentMatchClosesOnceItsRaceIsRecorded) {
  protocol::RoomOptions o = options();
  o.tournament = "TOURNY";
  Rules race = make(o);
  race.seat_match({{a.player, std::nullopt}, {b.player, std::nullopt}});
  race.announce(nullptr, {}, t0);
  race.tick(t0 + 3s);  // the countdown's end
  race.play(*b.player, *b.out, protocol::Resign{}, {}, t0 + 4s);
  std::optional<RaceResult> result = race.take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_FALSE(race.match_end().has_value()) << "not before the record";
  race.recorded(*result, {});
  ASSERT_TRUE(race.match_end().has_value());
  EXPECT_EQ(race.match_end()->places, (Places{{a.player->id, 0}, {b.player->id, 1}}));
  EXPECT_TRUE(race.closed());
  const std::vector<json> seen = a.out->take();
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen[seen.size() - 2]["type"], "race_over");
  EXPECT_EQ(seen.back()["type"], "room_closed");
}

TEST_F(RaceFixture, TheMoveCapRefillsWithTime) {
  Rules race = racing(options(60, 2));
  const Time t = t0 + 10s;
  int moved = 0, limited = 0;
  for (int i = 0; i < 3; ++i) {
    race.play(*a.player, *a.out, move(static_cast<engine::Direction>(i % 4)), {}, t);
    const json m = a.out->take().back();
    moved += m["type"] == "moved";
    limited += m.value("code", "") == "rate_limited";
  }
  EXPECT_EQ(moved, 2);
  EXPECT_EQ(limited, 1);
  race.play(*a.player, *a.out, move(engine::Direction::up), {}, t + 500ms);
  EXPECT_EQ(a.out->take().back()["type"], "moved");
}

TEST_F(RaceFixture, EmotesReachEveryoneAtMostOneEveryTwoSeconds) {
  Rules race = make();
  race.join(a.player, *a.out, {});
  race.join(b.player, *b.out, {});
  const auto watcher = std::make_shared<FakeParticipant>();
  ASSERT_TRUE(race.add_spectator(watcher, {}, t0));
  for (auto* out : {a.out.get(), b.out.get(), watcher.get()}) out->take();
  race.emote(*a.player, *a.out, protocol::Emote::gl, protocol::Rid{"e"}, t0);
  const json mine = a.out->take().back();
  EXPECT_EQ(mine["type"], "emote");
  EXPECT_EQ(mine["rid"], "e");
  for (auto* out : {b.out.get(), watcher.get()}) {
    const json seen = out->take().back();
    EXPECT_EQ(seen["player"], "a");
    EXPECT_EQ(seen["emote"], "gl");
    EXPECT_EQ(seen["code"], "ROOM23");
    EXPECT_FALSE(seen.contains("rid"));
  }
  // Another within 2 s is refused and reaches nobody; at 2 s it goes.
  race.emote(*a.player, *a.out, protocol::Emote::wow, {}, t0 + 1999ms);
  EXPECT_EQ(a.out->take().back()["code"], "rate_limited");
  EXPECT_TRUE(b.out->take().empty());
  race.emote(*b.player, *b.out, protocol::Emote::hi, {}, t0 + 1999ms);  // b has its own allowance
  EXPECT_EQ(a.out->take().back()["emote"], "hi");
  race.emote(*a.player, *a.out, protocol::Emote::wow, {}, t0 + 2s);
  EXPECT_EQ(b.out->take().back()["emote"], "wow");
}

TEST_F(RaceFixture, AJournaledRaceIsRestoredWithItsBoardsClockAndGrace) {
  Rules race = racing();
  const json a_last = changing_move(race, a, t0 + 4s);
  const json b_last = changing_move(race, b, t0 + 5s);
  std::optional<ActiveRaceRecord> entry = race.active_record(t0 + 13s);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->remaining_ms, 50000);
  ASSERT_EQ(entry->racers.size(), 2u);

  // A new process: the same players, loaded again, nobody connected yet.
  Metrics fresh;
  Member a2{"a"}, b2{"b"};
  a2.player->connection.reset();
  b2.player->connection.reset();
  const Time later = t0 + 1h;  // however long the server was down
  std::optional<Rules> back =
      Rules::restore(*entry, {a2.player, b2.player}, {3, 10}, fresh, owner, later);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->next_deadline(), later + 10s);  // the graces start now
  a2.player->connection = a2.out;
  back->reconnected(*a2.player, a2.out, later + 1s);
  const std::vector<json> got = a2.out->take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["room"]["state"], "racing");
  EXPECT_EQ(got[1]["remaining_ms"], 49000);  // the downtime did not count
  EXPECT_EQ(got[1]["games"]["a"]["board"], a_last["board"]);
  EXPECT_EQ(got[1]["games"]["b"]["board"], b_last["board"]);
  EXPECT_EQ(got[1]["games"]["a"]["score"], a_last["score"]);
  // The journal carries the race id it will be recorded under.
  back->play(*a2.player, *a2.out, protocol::Resign{}, {}, later + 2s);
  const std::optional<RaceResult> result = back->take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->record.id, entry->id);
  EXPECT_EQ(result->record.winner, "b");
}

TEST_F(RaceFixture, ARestoredRaceWhoseTimeRanOutEndsAtOnce) {
  Rules race = racing();
  race.tick(t0 + 63s);
  ASSERT_TRUE(race.take_result().has_value());
  // The process died before the result was recorded; the journal still has the race.
  std::optional<ActiveRaceRecord> entry = race.active_record(t0 + 63s);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->remaining_ms, 0);
  Metrics fresh;
  std::optional<Rules> back =
      Rules::restore(*entry, {a.player, b.player}, {3, 10}, fresh, owner, t0 + 2h);
  ASSERT_TRUE(back.has_value());
  const std::optional<RaceResult> result = back->take_result();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->record.reason, "time");
  EXPECT_EQ(result->record.id, entry->id);
}

TEST_F(RaceFixture, LeavingAWaitingRoomHandsTheHostOnAndTheLastOneClosesIt) {
  Rules race = make();
  race.join(a.player, *a.out, {});
  race.join(b.player, *b.out, {});
  race.leave(*a.player, *a.out, {}, t0);
  EXPECT_EQ(race.summary().host, "b");
  EXPECT_TRUE(a.player->room.expired());
  EXPECT_FALSE(race.closed());
  race.leave(*b.player, *b.out, {}, t0);
  EXPECT_TRUE(race.closed());
}

TEST_F(RaceFixture, SeatedQuickMatchPlayersHearOfTheRoomOnlyWhenAnnounced) {
  Rules race = make(options(), {0, 10});
  race.seat(a.player, b.player);
  EXPECT_TRUE(a.out->take().empty());
  EXPECT_TRUE(b.out->take().empty());
  race.announce(b.out.get(), std::int64_t{5}, t0);
  const std::vector<json> got = b.out->take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["rid"], 5);
  EXPECT_EQ(got[0]["room"]["players"].size(), 2u);
  EXPECT_EQ(got[1]["type"], "race_start");  // no countdown configured
  EXPECT_EQ(a.out->take_types(), (std::vector<std::string>{"room", "race_start"}));
}

// The rules draw their secrets and read the wall clock only through the settings: with fixed
// ones, a race is the same race every time — seed (so boards), ids and recorded times.
std::uint64_t draws = 0;
std::uint64_t next_draw() { return 0x1000 + draws++; }
std::int64_t fixed_wall_clock() { return 1'700'000'000'000; }

TEST_F(RaceFixture, SecretsAndTheWallClockComeFromTheSettings) {
  RaceSettings settings{.countdown = 3, .grace = 10};
  settings.secret = next_draw;
  settings.wall_clock = fixed_wall_clock;
  std::vector<json> starts;
  std::optional<RaceResult> result;
  for (int run = 0; run < 2; ++run) {
    draws = 0;
    Member x{"x"}, y{"y"};
    Owner here;
    Rules race(RaceState("ROOM23", options(), with_server_clocks(settings)), here, metrics);
    race.join(x.player, *x.out, {});
    race.join(y.player, *y.out, {});
    race.set_ready(*x.player, true, *x.out, {}, t0);
    race.set_ready(*y.player, true, *y.out, {}, t0);
    race.tick(t0 + 3s);
    starts.push_back(x.out->take().back());
    race.play(*y.player, *y.out, protocol::Resign{}, {}, t0 + 4s);
    result = race.take_result();
    ASSERT_TRUE(result.has_value());
  }
  ASSERT_EQ(starts[0]["type"], "race_start");
  EXPECT_EQ(starts[0]["games"], starts[1]["games"]);             // the same boards and game ids
  EXPECT_EQ(starts[0]["games"]["x"]["id"], "0000000000001002");  // after the seed and race id
  EXPECT_EQ(result->record.id, "0000000000001001");
  EXPECT_EQ(result->record.games[0].config.seed, 0x1000u);
  EXPECT_EQ(result->record.games[0].started_at, fixed_wall_clock());
  EXPECT_EQ(result->record.ended_at, fixed_wall_clock());
}

TEST_F(RaceFixture, TheHostSendsARacerOutOfTheWaitingRoomForTenMinutes) {
  Rules race = make();
  race.join(a.player, *a.out, {});
  race.join(b.player, *b.out, {});
  a.out->take();
  b.out->take();
  race.kick(*b.player, "a", *b.out, t0);
  EXPECT_EQ(b.out->take().back()["code"], "not_allowed") << "only the host";
  race.kick(*a.player, "a", *a.out, t0);
  EXPECT_EQ(a.out->take().back()["code"], "not_allowed") << "not the host themselves";
  race.kick(*a.player, "b", *a.out, t0);
  EXPECT_EQ(b.out->take_types(), (std::vector<std::string>{"kicked"}));
  EXPECT_EQ(a.out->take().back()["room"]["players"].size(), 1u);
  EXPECT_TRUE(b.player->room.expired());
  race.join(b.player, *b.out, {}, t0 + RaceState::kKickedFor - 1ms);
  EXPECT_EQ(b.out->take().back()["code"], "not_allowed");
  EXPECT_TRUE(b.player->room.expired());
  race.join(b.player, *b.out, {}, t0 + RaceState::kKickedFor);
  EXPECT_EQ(b.out->take().back()["type"], "room");
}

TEST_F(RaceFixture, NobodyIsSentOutOnceTheRaceHasBegun) {
  Rules race = racing();
  race.kick(*a.player, "b", *a.out, t0 + 4s);
  EXPECT_EQ(a.out->take().back()["code"], "race_running");
}

TEST_F(RaceFixture, TheOperatorClosesARoomMidRace) {
  Rules race = racing();
  auto watcher = std::make_shared<FakeParticipant>();
  ASSERT_TRUE(race.add_spectator(watcher, {}, t0 + 4s));
  watcher->take();
  EXPECT_EQ(metrics.races_active, 1);
  const std::optional<std::string> abandoned = race.close_by_operator("spam");
  ASSERT_TRUE(abandoned.has_value()) << "the running race leaves the journals";
  for (auto* out : {a.out.get(), b.out.get(), watcher.get()}) {
    const json closed = out->take().back();
    EXPECT_EQ(closed["type"], "room_closed");
    EXPECT_EQ(closed["reason"], "spam");
  }
  EXPECT_TRUE(race.closed());
  EXPECT_TRUE(a.player->room.expired());
  EXPECT_TRUE(b.player->room.expired());
  EXPECT_FALSE(race.take_result().has_value()) << "no result, no rating";
  EXPECT_EQ(metrics.races_active, 0);
  EXPECT_EQ(race.next_deadline(), std::nullopt);
}

// Cluster mode: the race was adopted by another node while this one still ran it (fencing).
TEST_F(RaceFixture, ARaceFoundToBeAnotherNodesSendsEveryoneThereAndEndsHereWithoutAResult) {
  Rules race = racing();
  auto watcher = std::make_shared<FakeParticipant>();
  ASSERT_TRUE(race.add_spectator(watcher, {}, t0 + 4s));
  watcher->take();
  EXPECT_FALSE(race.hand_over("ws://b.example/ws")) << "the journals are the owner's";
  for (auto* out : {a.out.get(), b.out.get(), watcher.get()}) {
    const json moved = out->take().back();
    EXPECT_EQ(moved["type"], "redirect");
    EXPECT_EQ(moved["url"], "ws://b.example/ws");
    EXPECT_EQ(moved["reason"], "resume");
    EXPECT_EQ(moved["code"], race.summary().code);
  }
  EXPECT_TRUE(race.closed());
  EXPECT_TRUE(a.player->room.expired());
  EXPECT_FALSE(race.take_result().has_value()) << "nothing announced or recorded here";
  EXPECT_EQ(metrics.races_active, 0);
  EXPECT_EQ(race.next_deadline(), std::nullopt);
}

TEST_F(RaceFixture, ARaceHandedOverToAnUnknownOwnerClosesTheRoom) {
  Rules race = racing();
  race.hand_over("");
  const json closed = a.out->take().back();
  EXPECT_EQ(closed["type"], "room_closed");
  EXPECT_EQ(closed["reason"], "moved");
  EXPECT_TRUE(race.closed());
}

// A tournament's followers of a match room get its race stream only — race_start, race_update,
// race_over — and one added while it races gets race_state first; a racer or spectator of the
// room is never a follower too (no message twice), and followers are not counted.
TEST_F(RaceFixture, FollowersGetTheRaceStreamOnly) {
  Rules race = make();
  const auto early = std::make_shared<FakeParticipant>();
  const auto spectator = std::make_shared<FakeParticipant>();
  race.join(a.player, *a.out, {});
  race.join(b.player, *b.out, {});
  ASSERT_TRUE(race.add_spectator(spectator, {}, t0));
  race.set_watchers({early, spectator, a.out}, t0);
  EXPECT_TRUE(early->take().empty()) << "nothing races yet";
  race.set_ready(*a.player, true, *a.out, {}, t0);
  race.set_ready(*b.player, true, *b.out, {}, t0);
  race.tick(t0 + 3s);
  EXPECT_EQ(early->take_types(), std::vector<std::string>{"race_start"}) << "no room, no countdown";
  EXPECT_EQ(race.summary().spectators, 1);
  spectator->take();
  a.out->take();
  b.out->take();
  const json moved = changing_move(race, a, t0 + 4s);
  ASSERT_FALSE(moved.is_null());
  EXPECT_EQ(early->take_types(), std::vector<std::string>{"race_update"});
  EXPECT_EQ(spectator->take_types(), std::vector<std::string>{"race_update"}) << "once";
  race.emote(*a.player, *a.out, protocol::Emote::gl, {}, t0 + 4s);
  EXPECT_TRUE(early->take().empty()) << "no emotes";
  // A follower added now gets where the race stands; one kept gets nothing again.
  const auto late = std::make_shared<FakeParticipant>();
  race.set_watchers({early, late}, t0 + 5s);
  EXPECT_TRUE(early->take().empty());
  const std::vector<json> state = late->take();
  ASSERT_EQ(state.size(), 1u);
  EXPECT_EQ(state[0]["type"], "race_state");
  EXPECT_EQ(state[0]["code"], "ROOM23");
  // Taken off: nothing more.
  race.set_watchers({late}, t0 + 5s);
  race.play(*b.player, *b.out, protocol::Resign{}, {}, t0 + 6s);
  EXPECT_TRUE(early->take().empty());
  EXPECT_EQ(late->take_types(), std::vector<std::string>{"race_update"});
}

}  // namespace
}  // namespace tilerace::server
