// The load tools stay working: tilerace-loadgen against the real server (and the echo
// server), a few seconds each, its JSON report read back.
#include <gtest/gtest.h>
#include <stdio.h>

#include <cstdlib>

#include "tests/e2e/harness.hpp"
#include "tests/pg_cluster.hpp"
#include "tests/redis_process.hpp"

namespace tilerace::e2e {
namespace {

json run_loadgen(const std::string& args) {
  const std::string command = std::string(TILERACE_LOADGEN) + " " + args + " --json -";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {};
  std::string out;
  char chunk[4096];
  while (const auto n = ::fread(chunk, 1, sizeof chunk, pipe)) out.append(chunk, n);
  EXPECT_EQ(::pclose(pipe), 0) << command;
  return json::parse(out, nullptr, false);
}

// Paced (200 moves/s a player): unpaced, the one-threaded load generator sharing two cores
// with the server can fall behind its own spectators' streams and be cut off (1013) as a
// slow reader, which is the server's defence working, not the tool failing.
TEST(Loadgen, RacesWithSpectatorsReportMovesLatencyAndServerFigures) {
  ServerProcess server({"--countdown", "0", "--rate", "100000"});
  const json r = run_loadgen("--port " + std::to_string(server.port()) + " --server-pid " +
                             std::to_string(server.pid()) +
                             " --scenario race --players 8 --spectators 1 --duration 2 --rate 200");
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r["connections"], 12);
  EXPECT_EQ(r["settled"], 12);
  EXPECT_GT(r["replies"].get<int>(), 0);
  EXPECT_EQ(r["reply_latency"]["count"], r["replies"]);
  EXPECT_GT(r["fanout_latency"]["count"].get<int>(), 0);  // the rival's and the spectator's
  EXPECT_TRUE(r["errors"].empty()) << r["errors"];
  EXPECT_GT(r["server"]["rss_kib_window_end"].get<int>(), 0);
  // The server counted what the load generator says it did.
  EXPECT_GE(server.metric("tilerace_moves_total"), r["changed"].get<double>());
}

// Two nodes of a cluster: rooms are spread over both, and the members who land on the other
// node follow its redirect (two per room: the second racer and the spectator).
TEST(Loadgen, RacesSpreadOverTwoNodesFollowRedirects) {
  const std::string url = tilerace::testing::PgCluster::shared().create_database();
  tilerace::testing::RedisProcess redis;
  auto node = [&](const std::string& name) {
    return std::make_unique<ServerProcess>(
        std::vector<std::string>{"--database", url, "--node-name", name, "--redis",
                                 "redis://127.0.0.1:" + std::to_string(redis.port()), "--countdown",
                                 "0", "--rate", "100000"});
  };
  const auto a = node("a");
  const auto b = node("b");
  // Both in the cluster (first heartbeat done).
  for (const auto* n : {a.get(), b.get()}) ASSERT_TRUE(health_says(n->port(), "ok"));
  const json r =
      run_loadgen("--port " + std::to_string(a->port()) + "," + std::to_string(b->port()) +
                  " --scenario race --players 8 --spectators 1 --duration 2 --rate 200");
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r["connections"], 12);
  EXPECT_EQ(r["settled"], 12);
  EXPECT_EQ(r["redirect_latency"]["count"], 8);
  EXPECT_GT(r["fanout_latency"]["count"].get<int>(), 0);
  EXPECT_TRUE(r["errors"].empty()) << r["errors"];
  EXPECT_EQ(a->metric("tilerace_redirects_total") + b->metric("tilerace_redirects_total"), 8);
}

// wss:// races and bare TLS handshakes against a server with a throwaway certificate.
TEST(Loadgen, RacesAndHandshakesOverTls) {
  TempDir dir;
  const std::string cert = (dir.path() / "tls.pem").string();
  const std::string key = (dir.path() / "tls.key").string();
  ASSERT_EQ(std::system(("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
                         "-nodes -days 1 -subj /CN=127.0.0.1 -keyout " +
                         key + " -out " + cert + " 2>/dev/null")
                            .c_str()),
            0);
  ServerProcess server(
      {"--countdown", "0", "--rate", "100000", "--tls-cert", cert, "--tls-key", key});
  const std::string port = "--port " + std::to_string(server.port());
  const json race = run_loadgen(
      port + " --tls --scenario race --players 8 --spectators 1 --duration 2 --rate 200");
  ASSERT_TRUE(race.is_object());
  EXPECT_EQ(race["settled"], 12);
  EXPECT_GT(race["fanout_latency"]["count"].get<int>(), 0);
  EXPECT_TRUE(race["errors"].empty()) << race["errors"];
  const json handshakes = run_loadgen(port + " --scenario handshake --players 2 --duration 1");
  ASSERT_TRUE(handshakes.is_object());
  EXPECT_EQ(handshakes["settled"], 2);
  EXPECT_GT(handshakes["replies"].get<int>(), 0);
  EXPECT_TRUE(handshakes["errors"].empty()) << handshakes["errors"];
}

TEST(Loadgen, SoloAndIdleScenariosSettle) {
  ServerProcess server;
  const std::string port = "--port " + std::to_string(server.port());
  const json solo = run_loadgen(port + " --scenario solo --players 4 --rate 20 --duration 1");
  ASSERT_TRUE(solo.is_object());
  EXPECT_EQ(solo["settled"], 4);
  EXPECT_GT(solo["replies"].get<int>(), 0);
  const json idle = run_loadgen(port + " --scenario idle --players 20 --duration 1 --server-pid " +
                                std::to_string(server.pid()));
  ASSERT_TRUE(idle.is_object());
  EXPECT_EQ(idle["settled"], 20);
  EXPECT_TRUE(idle["server"].contains("rss_kib_per_connection"));
}

// Players driven by the computer opponent play real games: every move they send is legal
// (it changes the board), and their games go on for hundreds of moves.
TEST(Loadgen, BotPlayersOnlyMakeMovesThatChangeTheBoard) {
  ServerProcess server({"--rate", "100000"});
  const json r = run_loadgen("--port " + std::to_string(server.port()) +
                             " --scenario solo --players 2 --strategy bot --rate 300 --duration 2");
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r["settled"], 2);
  EXPECT_GT(r["replies"].get<int>(), 200);
  EXPECT_EQ(r["changed"], r["replies"]);
  EXPECT_TRUE(r["errors"].empty()) << r["errors"];
}

}  // namespace
}  // namespace tilerace::e2e
