// The daily challenge with the real binary (docs/protocol.md, "The daily challenge"): one seed
// a day for everyone, on every node sharing the store; one ranked attempt; undo off; the
// day's board; nothing of a running day revealed; and after the day, every attempt's replay
// re-runs from the published seed to its score (an abandoned one included).
#include <gtest/gtest.h>
#include <signal.h>

#include "engine/game.hpp"
#include "protocol/names.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/daily_seed.hpp"
#include "server/rules/daily.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/e2e/friend_steps.hpp"
#include "tests/eventually.hpp"
#include "tests/pg_cluster.hpp"

namespace tilerace::e2e {
namespace {

const json kDaily4{{"type", "new_game"}, {"daily", true}, {"mode", "classic"}, {"size", 4}};

TEST(Daily, OneSeedForEveryoneOneRankedAttemptAndTheDaysBoard) {
  ServerProcess server({"--countdown", "0"});
  Racer ann(server.port(), "ann-d"), bob(server.port(), "bob-d");
  const std::string today = server::day_of(server::unix_ms());
  const json first = ask(ann.ws, kDaily4)["game"];
  EXPECT_EQ(first["daily"], today);
  EXPECT_EQ(first["ranked"], true);
  EXPECT_EQ(first["target"], 2048);
  EXPECT_EQ(ask(ann.ws, {{"type", "undo"}})["code"], "not_allowed");
  // bob gets the same board, and the same spawns for the same moves.
  const json bobs = ask(bob.ws, kDaily4)["game"];
  EXPECT_EQ(bobs["board"], first["board"]);
  json last;  // ann's last answer in her ranked attempt
  for (const char* dir : {"left", "up", "right", "down", "left"}) {
    last = play(ann.ws, dir);
    const json b = play(bob.ws, dir);
    EXPECT_EQ(last["board"], b["board"]) << dir;
  }
  ask(bob.ws, {{"type", "resign"}});
  // Later attempts are practice: unranked, never on a board.
  const json again = ask(ann.ws, kDaily4)["game"];  // ann's first ends as resigned
  EXPECT_EQ(again["ranked"], false);
  EXPECT_EQ(again["daily"], today);
  EXPECT_EQ(again["board"], first["board"]);
  for (int i = 0; i < 20; ++i) play(ann.ws, kDirs[i % 4]);

  const json board =
      ask(ann.ws, {{"type", "leaderboard"}, {"board", "daily"}, {"mode", "classic"}, {"size", 4}});
  ASSERT_EQ(board["type"], "leaderboard") << board.dump();
  EXPECT_EQ(board["board"], "daily");
  EXPECT_EQ(board["period"], today);
  ASSERT_EQ(board["entries"].size(), 2u) << board.dump();
  EXPECT_EQ(board["me"]["player"], ann.id);
  EXPECT_EQ(board["me"]["moves"], last["moves"]) << "the ranked attempt, not the practice";
  EXPECT_EQ(board["me"]["score"], last["score"]);
  const json http = json::parse(
      http_request(server.port(), "/api/leaderboard?board=daily&mode=classic&size=4").body);
  EXPECT_EQ(http["entries"], board["entries"]);
  EXPECT_EQ(
      ask(ann.ws,
          {{"type", "leaderboard"}, {"board", "daily"}, {"mode", "classic"}, {"size", 6}})["code"],
      "bad_field");
  EXPECT_EQ(ask(ann.ws,
                {{"type", "new_game"}, {"daily", true}, {"mode", "fifteen"}, {"size", 4}})["field"],
            "daily");

  // The profile counts the streak: one day so far.
  const json profile = json::parse(http_request(server.port(), "/api/players/" + ann.id).body);
  EXPECT_EQ(profile["daily"], (json{{"streak", 1}, {"longest", 1}}));

  // Nothing of the running day: no seed, no replay of a daily game.
  EXPECT_EQ(http_request(server.port(), "/api/daily/" + today).status, 403);
  const std::string game = board["me"]["game"];
  const auto replay = http_request(server.port(), "/api/replays/" + game);
  EXPECT_EQ(replay.status, 403);
  EXPECT_EQ(replay.body.find("seed"), std::string::npos);
}

TEST(Daily, APracticeGameStaysADailyGameAcrossARestart) {
  TempDir data;
  std::string id, token, game;
  {
    ServerProcess server({}, TILERACE_WEB_ROOT, data.path());
    Racer ann(server.port(), "ann-r");
    id = ann.id;
    token = ann.token;
    ask(ann.ws, kDaily4);
    const json practice = ask(ann.ws, kDaily4)["game"];
    ASSERT_EQ(practice["ranked"], false);
    game = practice["id"];
    play(ann.ws, "left");
    play(ann.ws, "up");
    ASSERT_EQ(server.stop(SIGTERM), 0);  // the journal keeps the game
  }
  ServerProcess server({}, TILERACE_WEB_ROOT, data.path());
  json welcome;
  Racer ann(server.port(), id, token, welcome);
  const json back = ann.ws.until("game")["game"];
  EXPECT_EQ(back["id"], game);
  EXPECT_EQ(back["daily"], server::day_of(server::unix_ms()));
  EXPECT_EQ(back["ranked"], false);
  EXPECT_EQ(ask(ann.ws, {{"type", "undo"}})["code"], "not_allowed");
  ask(ann.ws, {{"type", "resign"}});
  // Its seed is the day's: its replay stays unseen while the day runs.
  EXPECT_EQ(http_request(server.port(), "/api/replays/" + game).status, 403);
}

TEST(Daily, EveryNodeOnOneDatabaseDerivesTheSameSeed) {
  const std::string url = tilerace::testing::PgCluster::shared().create_database();
  ServerProcess a({"--database", url, "--node-name", "a"});
  ServerProcess b({"--database", url, "--node-name", "b"});
  Racer ann(a.port(), "ann-n"), bob(b.port(), "bob-n");
  json five = kDaily4;
  five["size"] = 5;
  EXPECT_EQ(ask(ann.ws, five)["game"]["board"], ask(bob.ws, five)["game"]["board"]);
}

TEST(Daily, AfterTheDayEveryAttemptReRunsFromThePublishedSeedToItsScore) {
  // A day that is over, played before this server started: two finished attempts and one
  // abandoned mid-game (journaled, never finished) on the server's store.
  TempDir data;
  const std::string day = "2026-11-20";
  const protocol::DailyMode& mode = protocol::kDailyModes[0];
  std::map<std::string, std::int64_t> scores;  // game → score, as played here
  {
    server::SqliteStore store(data.path() / "tilerace.db");
    const std::string secret = store.server_secret("daily", "the-secret");
    const engine::GameConfig config{engine::Mode::classic, 4, 2048,
                                    server::daily_seed(secret, day, mode)};
    int n = 0;
    for (const char* id : {"p1", "p2", "p3"}) {
      store.add_player(
          {id, std::string("daily-") + id, protocol::name_key(std::string("daily-") + id), 1},
          std::nullopt);
      const std::string game_id = std::string("g") + id;
      ASSERT_TRUE(store.claim_daily({.day = day,
                                     .mode = std::string(mode.key),
                                     .player_id = id,
                                     .game_id = game_id,
                                     .at = 1}));
      engine::Game game(config);
      for (int i = 0; i < 30 + 10 * n; ++i)
        game.move(static_cast<engine::Direction>((i * 7 + n) % 4));
      scores[game_id] = game.score();
      if (n++ < 2) {
        game.end(engine::GameState::resigned);
        server::GameRecord g{.id = game_id,
                             .player_id = id,
                             .config = config,
                             .moves = game.history(),
                             .score = game.score(),
                             .max_tile = game.max_tile(),
                             .move_count = game.moves(),
                             .state = game.state(),
                             .ranked = true,
                             .started_at = 1,
                             .ended_at = 2 + n,
                             .daily = day};
        store.record_game(g);
      } else {
        store.journal({{.player_id = id,
                        .game_id = game_id,
                        .config = config,
                        .moves = game.history(),
                        .started_at = 1,
                        .daily = day,
                        .daily_ranked = true,
                        .score = game.score(),
                        .max_tile = game.max_tile(),
                        .move_count = game.moves()}});
      }
    }
  }
  ServerProcess server({}, TILERACE_WEB_ROOT, data.path());
  json results;
  // The abandoned attempt is closed by the server's first journal pass.
  EXPECT_TRUE(tilerace::testing::eventually(
      [&] {
        const auto r = http_request(server.port(), "/api/daily/" + day);
        if (r.status != 200) return false;
        results = json::parse(r.body);
        return results["modes"][0]["attempts"].size() == 3u &&
               http_request(server.port(), "/api/replays/gp3").status == 200;
      },
      10s));
  ASSERT_EQ(results["day"], day);
  ASSERT_EQ(results["modes"].size(), protocol::kDailyModes.size());
  const json& classic = results["modes"][0];
  EXPECT_EQ(classic["size"], 4);
  const std::uint64_t seed = std::stoull(classic["seed"].get<std::string>());
  EXPECT_EQ(seed, server::daily_seed("the-secret", day, mode));
  std::int64_t previous = std::numeric_limits<std::int64_t>::max();
  for (const json& a : classic["attempts"]) {
    const std::string id = a["game"];
    const json replay = json::parse(http_request(server.port(), "/api/replays/" + id).body);
    ASSERT_EQ(std::stoull(replay["seed"].get<std::string>()), seed) << id;
    const auto game =
        engine::replay({engine::Mode::classic, 4, 2048, seed}, replay["moves"].get<std::string>());
    ASSERT_TRUE(game) << id;
    EXPECT_EQ(game->score(), replay["score"]) << id;
    EXPECT_EQ(game->score(), a["score"]) << id;
    EXPECT_EQ(a["score"], scores[id]) << id;
    EXPECT_LE(a["score"].get<std::int64_t>(), previous) << "best first";
    previous = a["score"];
  }
  EXPECT_EQ(json::parse(http_request(server.port(), "/api/replays/gp3").body)["state"], "resigned");
  EXPECT_EQ(http_request(server.port(), "/api/daily/2026-13-01").status, 404);
}

// The day ends while an attempt is open (the server's clock set just before midnight): the
// attempt abandoned by closing its tab keeps a time for every move; the day's results list it
// only once its replay exists, which answers at once; and signing in after the day hands it
// back ended (resigned, day_over), never as playing.
TEST(Daily, AnAttemptOpenAtMidnightEndsWithItsTimesAndComesBackEnded) {
  constexpr std::int64_t kDayMs = 86'400'000;
  const std::int64_t real = server::unix_ms();
  const std::int64_t offset = (real / kDayMs + 1) * kDayMs - 4000 - real;  // 4 s before midnight
  ServerProcess server({"--clock-offset-ms", std::to_string(offset)});
  const std::string day = server::day_of(server::unix_ms() + offset);
  std::string id, token, game;
  json last;
  {
    Racer ann(server.port(), "ann-m");
    id = ann.id;
    token = ann.token;
    const json started = ask(ann.ws, kDaily4)["game"];
    ASSERT_EQ(started["daily"], day) << "the server's clock is the test's";
    game = started["id"];
    for (const char* dir : {"left", "up", "right", "down", "left"}) last = play(ann.ws, dir);
    // A whole journal pass after the last move: the journal holds them, with their times.
    const double flushes = server.metric("tilerace_journal_flushes_total");
    ASSERT_TRUE(server.wait_for_metric("tilerace_journal_flushes_total", flushes + 2));
    ASSERT_EQ(server::day_of(server::unix_ms() + offset), day) << "too slow: midnight passed";
  }  // the tab closes: the attempt is abandoned

  // After midnight: every attempt listed has its replay at once; ann's comes with its times.
  json listed;
  std::string answer;  // the last answer to the results
  ASSERT_TRUE(testing::eventually(
      [&] {
        const auto results = http_request(server.port(), "/api/daily/" + day);
        answer = results.body;
        if (results.status != 200) return false;  // 403 while the day runs
        const json days = json::parse(results.body);
        for (const json& attempt : days["modes"][0]["attempts"]) {
          const auto replay =
              http_request(server.port(), "/api/replays/" + attempt["game"].get<std::string>());
          EXPECT_EQ(replay.status, 200) << "listed before its replay exists";
          if (attempt["game"] == game) listed = json::parse(replay.body);
        }
        return !listed.is_null();
      },
      15s))
      << "the abandoned attempt " << game << " is never listed: " << answer;
  EXPECT_EQ(listed["state"], "resigned");
  EXPECT_EQ(listed["score"], last["score"]);
  ASSERT_TRUE(listed.contains("times")) << listed.dump();
  EXPECT_EQ(listed["times"].size(), listed["moves"].get<std::string>().size());

  // Back after the day: the attempt is ended, never handed back as playing.
  json welcome;
  Racer back(server.port(), id, token, welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  const json snapshot = back.ws.until("game")["game"];
  EXPECT_EQ(snapshot["id"], game);
  EXPECT_EQ(snapshot["state"], "resigned");
  EXPECT_EQ(snapshot["day_over"], true);
  EXPECT_EQ(snapshot["score"], last["score"]);
  EXPECT_EQ(ask(back.ws, {{"type", "move"}, {"dir", "up"}})["code"], "game_over");
}

}  // namespace
}  // namespace tilerace::e2e
