// Glicko-2 ratings from outside, on both stores: fresh players are provisional and rated as
// the reference computes, each variant apart, the leaderboard's threshold; quick match by
// rating — the closer of two waiting players, windows that widen — on one node and, with the
// pool in Redis, across two.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "tests/e2e/backend.hpp"
#include "tests/e2e/cluster_nodes.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {
namespace {

// A race of two in a private room with options, won by winner (the loser resigns); both leave
// the room after. Returns race_over.
json rated_race(Racer& winner, Racer& loser, json options) {
  const std::string code = create_room(winner, std::move(options))["code"];
  EXPECT_EQ(loser.ws.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  start_race({&winner, &loser});
  loser.ws.send({{"type", "resign"}});
  const json over = winner.ws.until("race_over");
  EXPECT_EQ(over["winner"], winner.id) << over.dump();
  loser.ws.until("race_over");
  for (Racer* r : {&winner, &loser}) {
    r->ws.send({{"type", "leave_room"}});
    r->ws.until("left");
  }
  return over;
}

const json kClassic4{{"mode", "classic"}, {"size", 4}};

json profile(std::uint16_t port, const std::string& id) {
  return json::parse(http_request(port, "/api/players/" + id).body);
}
// The profile's entry for variant.
json variant_of(const json& profile, const std::string& variant) {
  for (const json& v : profile["ratings"]) {
    if (v["variant"] == variant) return v;
  }
  return json();
}

class Ratings : public BackendTest {};

TEST_P(Ratings, FreshPlayersAreProvisionalRatedAsTheReferenceAndEachVariantApart) {
  const TempDir data;
  ServerProcess server(args({"--countdown", "0"}), TILERACE_WEB_ROOT, data.path());
  Racer ann(server.port(), "ann"), bob(server.port(), "bob");
  const json first = rated_race(ann, bob, kClassic4);
  EXPECT_EQ(first["variant"], "classic-4");
  EXPECT_EQ(first["ratings"][ann.id], fresh_rating_after(true));
  EXPECT_EQ(first["ratings"][bob.id], fresh_rating_after(false));
  // A 3×3 race is its own variant: both start it fresh, and the 4×4 ratings stay.
  const json small = rated_race(bob, ann, {{"mode", "classic"}, {"size", 3}, {"target", 64}});
  EXPECT_EQ(small["variant"], "classic-3");
  EXPECT_EQ(small["ratings"][bob.id], fresh_rating_after(true));
  EXPECT_EQ(small["ratings"][ann.id], fresh_rating_after(false));
  const json p = profile(server.port(), ann.id);
  EXPECT_EQ(p["variant"], "classic-4");
  EXPECT_EQ(p["rating"], fresh_rating_after(true)["after"]) << "the 3×3 race left it alone";
  EXPECT_EQ(p["rd"], fresh_rating_after(true)["rd"]);
  EXPECT_EQ(p["provisional"], true);
  ASSERT_EQ(p["ratings"].size(), 6u) << p.dump();
  const json four = variant_of(p, "classic-4"), three = variant_of(p, "classic-3");
  EXPECT_EQ(four["rating"], p["rating"]);
  EXPECT_EQ(four["races"], 1);
  EXPECT_EQ(four["wins"], 1);
  ASSERT_EQ(four["history"].size(), 1u);
  EXPECT_EQ(four["history"][0]["rating"], p["rating"]);
  EXPECT_EQ(three["rating"], fresh_rating_after(false)["after"]);
  EXPECT_EQ(three["losses"], 1);
  EXPECT_EQ(variant_of(p, "fifteen"), (json{{"variant", "fifteen"},
                                            {"rating", 1500},
                                            {"rd", 350},
                                            {"provisional", true},
                                            {"races", 0},
                                            {"wins", 0},
                                            {"losses", 0},
                                            {"history", json::array()}}));
  EXPECT_EQ(p["rating_history"], four["history"]);
  // The threshold: provisional ratings are listed only when asked for.
  auto board = [&](const std::string& query) {
    return json::parse(http_request(server.port(), "/api/leaderboard?kind=rating" + query).body);
  };
  EXPECT_TRUE(board("")["entries"].empty());
  const json everyone = board("&provisional=1");
  ASSERT_EQ(everyone["entries"].size(), 2u);
  EXPECT_EQ(everyone["entries"][0]["player"], ann.id);
  EXPECT_EQ(everyone["entries"][0]["provisional"], true);
  const json small_board = board("&variant=classic-3&provisional=1");
  EXPECT_EQ(small_board["variant"], "classic-3");
  ASSERT_EQ(small_board["entries"].size(), 2u);
  EXPECT_EQ(small_board["entries"][0]["player"], bob.id);
  EXPECT_EQ(board("&size=3&provisional=1")["entries"], small_board["entries"])
      << "mode and size pick the variant when none is named";
  EXPECT_EQ(http_request(server.port(), "/api/leaderboard?kind=rating&variant=blitz").status, 400);
  // Over the socket: `me` is there, not listed.
  const json mine = ann.ws.request({{"type", "leaderboard"}, {"kind", "rating"}});
  EXPECT_EQ(mine["me"]["listed"], false);
  EXPECT_EQ(mine["me"]["rating"], p["rating"]);
  // A 3×3 tournament seeds by the 3×3 rating.
  const json tournament = ann.ws.request({{"type", "create_tournament"},
                                          {"format", "single_elimination"},
                                          {"mode", "classic"},
                                          {"size", 3},
                                          {"target", 64}});
  ASSERT_EQ(tournament["type"], "tournament") << tournament.dump();
  EXPECT_EQ(tournament["tournament"]["players"][0]["rating"], three["rating"]);
}

TEST_P(Ratings, QuickMatchPairsTheCloserOfTwoWaitingPlayers) {
  const TempDir data;
  ServerProcess server(args({"--countdown", "0", "--quick-match-bot-after", "0"}),
                       TILERACE_WEB_ROOT, data.path());
  Racer hi(server.port(), "hi"), lo(server.port(), "lo"), x1(server.port(), "x1"),
      x2(server.port(), "x2"), x3(server.port(), "x3");
  rated_race(hi, x1, kClassic4);
  rated_race(hi, x2, kClassic4);  // hi: about 1750, RD 256
  rated_race(x3, lo, kClassic4);  // lo: about 1338, RD 290
  const json hi_queued = hi.ws.request({{"type", "quick_match"}, {"size", 4}});
  ASSERT_EQ(hi_queued["type"], "queued") << hi_queued.dump();
  EXPECT_EQ(hi_queued["variant"], "classic-4");
  EXPECT_EQ(hi_queued["rating"], profile(server.port(), hi.id)["rating"]);
  EXPECT_EQ(hi_queued["window"], 100 + hi_queued["rd"].get<int>());
  EXPECT_EQ(hi_queued["window_step"], 50);
  EXPECT_EQ(hi_queued["window_every_ms"], 5000);
  EXPECT_EQ(hi_queued["window_max"], 600);
  ASSERT_EQ(lo.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  // A newcomer (1500) is 250 from hi, who waited longer, and 162 from lo: lo it is.
  Racer fresh(server.port(), "fresh");
  const json room = fresh.ws.request({{"type", "quick_match"}, {"size", 4}});
  ASSERT_EQ(room["type"], "room") << room.dump();
  std::set<std::string> players;
  for (const json& p : room["room"]["players"]) players.insert(p["id"].get<std::string>());
  EXPECT_EQ(players, (std::set<std::string>{fresh.id, lo.id}));
  EXPECT_EQ(lo.ws.until("room")["room"]["code"], room["room"]["code"]);
  EXPECT_EQ(hi.ws.request({{"type", "cancel_match"}})["type"], "match_cancelled");
}

TEST_P(Ratings, TwoPlayersTooFarApartArePairedOnceTheirWindowsHaveWidened) {
  const TempDir data;
  ServerProcess server(args({"--countdown", "0", "--quick-match-bot-after", "0"}),
                       TILERACE_WEB_ROOT, data.path());
  Racer hi(server.port(), "hi"), lo(server.port(), "lo");
  {
    Racer x1(server.port(), "x1"), x2(server.port(), "x2"), x3(server.port(), "x3"),
        x4(server.port(), "x4");
    rated_race(hi, x1, kClassic4);
    rated_race(hi, x2, kClassic4);  // about 1750, RD 256: window 356
    rated_race(x3, lo, kClassic4);
    rated_race(x4, lo, kClassic4);  // about 1250, RD 256: window 356
  }
  const json hi_queued = hi.ws.request({{"type", "quick_match"}, {"size", 4}});
  const json lo_queued = lo.ws.request({{"type", "quick_match"}, {"size", 4}});
  ASSERT_EQ(lo_queued["type"], "queued") << "about 500 apart: beyond both windows";
  const int gap = hi_queued["rating"].get<int>() - lo_queued["rating"].get<int>();
  ASSERT_GT(gap, lo_queued["window"].get<int>());
  // 50 more every 5 s: both reach 500 after 15 s.
  const json room = lo.ws.until("room", 30s);
  EXPECT_EQ(room["room"]["players"].size(), 2u);
  EXPECT_EQ(hi.ws.until("room", 5s)["room"]["code"], room["room"]["code"]);
}

TILERACE_BOTH_BACKENDS(Ratings);

// Across nodes the pool is a sorted set in Redis: a newcomer on node b is paired with the
// closer of two players waiting on node a.
TEST_F(Cluster, QuickMatchByRatingPairsTheCloserPlayerWaitingOnAnotherNode) {
  const auto a = node("a", {"--quick-match-bot-after", "0"});
  const auto b = node("b", {"--quick-match-bot-after", "0"});
  Racer hi(a->port(), "hi"), lo(a->port(), "lo"), x1(a->port(), "x1"), x2(a->port(), "x2"),
      x3(a->port(), "x3");
  rated_race(hi, x1, kClassic4);
  rated_race(hi, x2, kClassic4);
  rated_race(x3, lo, kClassic4);
  ASSERT_EQ(hi.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  ASSERT_EQ(lo.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  Racer fresh(b->port(), "fresh");
  const json room = fresh.ws.request({{"type", "quick_match"}, {"size", 4}});
  ASSERT_EQ(room["type"], "room") << room.dump();
  const json redirect = lo.ws.until("redirect");
  EXPECT_EQ(redirect["code"], room["room"]["code"]);
  EXPECT_EQ(port_of(redirect["url"]), b->port());
  const auto lo_on_b = follow(lo, b->port());
  EXPECT_EQ(lo_on_b->ws.until("race_start")["code"], room["room"]["code"]);
  EXPECT_EQ(hi.ws.request({{"type", "cancel_match"}})["type"], "match_cancelled");
}

// The Redis pool widens too: two players too far apart on two nodes are paired once their
// windows reach each other; whichever node asks first hosts, the other's player is sent there.
TEST_F(Cluster, TwoPlayersTooFarApartOnTwoNodesArePairedOnceTheirWindowsHaveWidened) {
  const auto a = node("a", {"--quick-match-bot-after", "0"});
  const auto b = node("b", {"--quick-match-bot-after", "0"});
  Racer hi(a->port(), "hi"), lo(b->port(), "lo");
  {
    Racer x1(a->port(), "x1"), x2(a->port(), "x2"), x3(b->port(), "x3"), x4(b->port(), "x4");
    rated_race(hi, x1, kClassic4);
    rated_race(hi, x2, kClassic4);
    rated_race(x3, lo, kClassic4);
    rated_race(x4, lo, kClassic4);
  }
  ASSERT_EQ(hi.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  ASSERT_EQ(lo.ws.request({{"type", "quick_match"}, {"size", 4}})["type"], "queued");
  // After about 15 s one of them gets the room, the other a redirect to it.
  std::optional<json> hi_news, lo_news;
  auto news = [](WsClient& ws) -> std::optional<json> {
    while (const auto m = ws.next(30s)) {
      if ((*m)["type"] == "room" || (*m)["type"] == "redirect") return m;
    }
    return std::nullopt;
  };
  hi_news = news(hi.ws);
  lo_news = news(lo.ws);
  ASSERT_TRUE(hi_news && lo_news) << hi.id << ": " << (hi_news ? hi_news->dump() : "none") << "; "
                                  << lo.id << ": " << (lo_news ? lo_news->dump() : "none");
  const bool hosted_on_a = (*hi_news)["type"] == "room";
  const json& room = hosted_on_a ? *hi_news : *lo_news;
  const json& redirect = hosted_on_a ? *lo_news : *hi_news;
  ASSERT_EQ(room["type"], "room") << room.dump();
  ASSERT_EQ(redirect["type"], "redirect") << redirect.dump();
  EXPECT_EQ(redirect["code"], room["room"]["code"]);
  EXPECT_EQ(port_of(redirect["url"]), hosted_on_a ? a->port() : b->port());
  const auto moved = follow(hosted_on_a ? lo : hi, hosted_on_a ? a->port() : b->port());
  EXPECT_EQ(moved->ws.until("race_start")["code"], room["room"]["code"]);
}

}  // namespace
}  // namespace tilerace::e2e
