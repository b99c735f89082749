// PostgreSQL as the shared authority, with the real binary: the database restarted while
// people play (nothing lost, nothing twice), and two servers on one database (one world of
// players, tokens and leaderboards).
#include <gtest/gtest.h>
#include <signal.h>

#include "engine/game.hpp"
#include "server/store/pg_connection.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"
#include "tests/e2e/shared_world.hpp"
#include "tests/pg_cluster.hpp"

namespace tilerace::e2e {
namespace {

using tilerace::testing::PgCluster;

// The moves (letters) that play a 3×3 classic game with seed 7 to its end, each one changing
// the board: the test knows in advance which move ends the game.
std::vector<std::string> moves_to_the_end() {
  engine::Game game({engine::Mode::classic, 3, 2048, 7});
  std::vector<std::string> dirs;
  for (int i = 0; game.state() == engine::GameState::playing && i < 10000; ++i) {
    for (int k = 0; k < 4; ++k) {
      const auto d = static_cast<engine::Direction>((i + k) % 4);
      if (game.move(d).changed) {
        dirs.emplace_back(engine::to_string(d));
        break;
      }
    }
  }
  EXPECT_EQ(game.state(), engine::GameState::over);
  return dirs;
}

std::int64_t count(const std::string& url, const std::string& sql) {
  return server::PgConnection(url).exec(sql.c_str()).int64(0, 0);
}

TEST(SharedDatabase, GamesAndRacesGoOnWhilePostgresqlRestartsAndTheirResultsAreWrittenOnce) {
  PgCluster& pg = PgCluster::shared();
  const std::string url = pg.create_database();
  ServerProcess server(
      {"--database", url, "--node-name", "a", "--countdown", "0", "--rate", "100000"});
  WsClient solo(server.port());
  solo.hello("sol");
  const std::string game_id =
      solo.request({{"type", "new_game"}, {"size", 3}, {"seed", "7"}})["game"]["id"];
  Racer ann(server.port(), "ann"), bob(server.port(), "bob");
  const std::string code = create_room(ann, {{"size", 4}})["code"];
  ASSERT_EQ(bob.ws.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  start_race({&ann, &bob});

  pg.stop();
  ASSERT_TRUE(health_says(server.port(), "degraded"));
  // The solo game and the race go on: moves need no database.
  const std::vector<std::string> dirs = moves_to_the_end();
  for (std::size_t i = 0; i + 1 < dirs.size(); ++i) {
    const json m = solo.request({{"type", "move"}, {"dir", dirs[i]}});
    ASSERT_EQ(m["type"], "moved") << m.dump();
    ASSERT_EQ(m["state"], "playing");
  }
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(play(ann.ws, kDirs[i % 4])["type"], "moved");
    ASSERT_EQ(play(bob.ws, kDirs[(i + 1) % 4])["type"], "moved");
  }
  // The game's last move and the race's end (bob resigns) wait for the database: neither is
  // announced before it is recorded.
  solo.send({{"type", "move"}, {"dir", dirs.back()}});
  bob.ws.send({{"type", "resign"}});
  const double retries = server.metric("tilerace_store_retries_total");
  ASSERT_TRUE(testing::eventually(
      [&] { return server.metric("tilerace_store_retries_total") >= retries + 2; }, 10s));
  ASSERT_TRUE(health_says(server.port(), "degraded"));
  EXPECT_EQ(server.metric("tilerace_games_finished_total"), 0);

  pg.start();
  const json over = solo.until("moved", 20s);
  EXPECT_EQ(over["state"], "over");
  const json race_over = ann.ws.until("race_over", 20s);
  EXPECT_EQ(race_over["winner"], ann.id);
  EXPECT_TRUE(health_says(server.port(), "ok"));
  // Each result once, and the replay served from the database.
  EXPECT_EQ(count(url, "SELECT COUNT(*) FROM games WHERE id = '" + game_id + "'"), 1);
  EXPECT_EQ(count(url, "SELECT COUNT(*) FROM races"), 1);
  EXPECT_EQ(count(url, "SELECT SUM(races) FROM players"), 2);
  const HttpResult replay = http_request(server.port(), "/api/replays/" + game_id);
  ASSERT_EQ(replay.status, 200);
  EXPECT_EQ(json::parse(replay.body)["score"], over["score"]);
  const json ratings =
      json::parse(http_request(server.port(), "/api/leaderboard?kind=rating&provisional=1").body);
  ASSERT_EQ(ratings["entries"].size(), 2u);
  EXPECT_EQ(ratings["entries"][0]["player"], ann.id);
  EXPECT_EQ(server.stop(SIGTERM), 0);
}

TEST(SharedDatabase, TwoServersOnOneDatabaseShareTokensAndLeaderboards) {
  const std::string url = PgCluster::shared().create_database();
  ServerProcess a({"--database", url, "--node-name", "a"});
  ServerProcess b({"--database", url, "--node-name", "b"});
  json ann, bob;
  {
    WsClient on_a(a.port()), on_b(b.port());
    ann = on_a.hello("ann");
    bob = on_b.hello("bob");
    finish_a_ranked_game(on_a);
    finish_a_ranked_game(on_b);
  }
  // Each server's board lists both results, in the same order.
  const std::string board = "/api/leaderboard?mode=classic&size=3&kind=score";
  const json from_a = json::parse(http_request(a.port(), board).body);
  const json from_b = json::parse(http_request(b.port(), board).body);
  ASSERT_EQ(from_a["entries"].size(), 2u);
  EXPECT_EQ(from_a["entries"], from_b["entries"]);
  json rank_of;
  for (const json& e : from_a["entries"]) rank_of[e["player"].get<std::string>()] = e["rank"];
  // Each player's rank on each node: on the node that did not record the other's result, it
  // is right only once that node has heard of it.
  for (const json* p : {&ann, &bob}) {
    const json& expected = rank_of[(*p)["player"]["id"].get<std::string>()];
    EXPECT_EQ(rank_becomes(a.port(), *p, expected), expected);
    EXPECT_EQ(rank_becomes(b.port(), *p, expected), expected);
  }
  EXPECT_EQ(a.stop(SIGTERM), 0);
  EXPECT_EQ(b.stop(SIGTERM), 0);
}

}  // namespace
}  // namespace tilerace::e2e
