// Plain HTTP on the game port: health, metrics, static files and their confinement.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>

#include <fstream>

#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {
namespace {

TEST(Http, HealthzAndMetrics) {
  ServerProcess server;
  const HttpResult health = http_request(server.port(), "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.content_type, "application/json");
  EXPECT_EQ(json::parse(health.body), (json{{"status", "ok"}}));
  {
    WsClient client(server.port());
    client.hello("m");
    client.request({{"type", "new_game"}});
    client.request({{"type", "move"}, {"dir", "left"}});
    client.request({{"type", "bogus"}});
    EXPECT_EQ(server.metric("tilerace_connections"), 1);
    EXPECT_EQ(server.metric("tilerace_players"), 1);
    EXPECT_EQ(server.metric("tilerace_games"), 1);
    EXPECT_EQ(server.metric("tilerace_messages_in_total"), 4);
    EXPECT_EQ(server.metric("tilerace_errors_total{code=\"unknown_type\"}"), 1);
    EXPECT_EQ(server.metric("tilerace_message_handling_seconds_count"), 4);
    // The move's reply was written: its time from frame to `moved`, and the p99 read off it.
    EXPECT_TRUE(server.wait_for_metric("tilerace_move_reply_seconds_count", 1));
    EXPECT_GT(server.metric("tilerace_move_reply_p99_seconds"), 0);
    EXPECT_LE(server.metric("tilerace_move_reply_p99_seconds"), 0.5);
  }
  const HttpResult metrics = http_request(server.port(), "/metrics");
  EXPECT_EQ(metrics.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(metrics.body.find("# TYPE tilerace_message_handling_seconds histogram"),
            std::string::npos);
  EXPECT_TRUE(server.wait_for_metric("tilerace_connections_total", 1));
}

TEST(Http, StaticFilesWithContentTypes) {
  ServerProcess server;
  const HttpResult index = http_request(server.port(), "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("tilerace"), std::string::npos);
  EXPECT_EQ(http_request(server.port(), "/index.html?x=1").status, 200);
  const HttpResult head = http_request(server.port(), "/index.html", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(http_request(server.port(), "/nope.js").status, 404);
  EXPECT_EQ(http_request(server.port(), "/index.html", "POST").status, 405);
}

TEST(Http, ApiAndWsPathsAnswerJson) {
  ServerProcess server;
  const HttpResult api = http_request(server.port(), "/api/nothing-here");
  EXPECT_EQ(api.status, 404);
  EXPECT_EQ(api.content_type, "application/json");
  EXPECT_EQ(json::parse(api.body)["error"], "not_found");
  EXPECT_EQ(http_request(server.port(), "/ws").status, 426);
}

TEST(Http, PathsOutsideTheWebRootAre404) {
  TempDir root;
  std::ofstream(root.path() / "index.html") << "<p>inside</p>";
  std::filesystem::create_directory(root.path() / "sub");
  std::ofstream(root.path() / "sub" / "ok.txt") << "ok";
  std::filesystem::create_symlink("/etc/passwd", root.path() / "passwd");
  std::filesystem::create_directory_symlink("/etc", root.path() / "etc");
  std::filesystem::create_symlink("sub/ok.txt", root.path() / "inside-link.txt");
  ServerProcess server({}, root.path());
  EXPECT_EQ(http_request(server.port(), "/sub/ok.txt").status, 200);
  EXPECT_EQ(http_request(server.port(), "/inside-link.txt").status, 200);
  for (const char* target :
       {"/../etc/passwd", "/sub/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2Fetc%2Fpasswd", "/..%2f..%2fetc%2fpasswd", "/sub/%2e%2e/%2e%2e/etc/hostname",
        "/passwd", "/etc/passwd", "/etc/hostname", "//etc/passwd", "/sub/..\\..\\etc\\passwd",
        "/%00", "/index.html%00.txt", "/%zz", "/sub"}) {
    const HttpResult r = http_request(server.port(), target);
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
  }
}

}  // namespace
}  // namespace tilerace::e2e

namespace tilerace::e2e {
namespace {

// A WebSocket upgrade carrying Origin (as every browser's does): the site's own pages and the
// origins listed by --allowed-origin may connect; a page of any other site gets 403.
TEST(Http, AWebSocketFromAnotherSitesPageIsRefused) {
  ServerProcess server({"--allowed-origin", "https://node2.example.com"});
  const auto upgrade = [&](const std::string& origin) {
    std::vector<std::pair<std::string, std::string>> headers = {
        {"Upgrade", "websocket"},
        {"Connection", "Upgrade"},
        {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
        {"Sec-WebSocket-Version", "13"}};
    if (!origin.empty()) headers.emplace_back("Origin", origin);
    return http_request(server.port(), "/ws", "GET", headers).status;
  };
  EXPECT_EQ(upgrade("https://evil.example"), 403);
  EXPECT_EQ(upgrade("null"), 403);
  EXPECT_EQ(upgrade("http://127.0.0.1"), 101);  // the page's own site (Host 127.0.0.1)
  EXPECT_EQ(upgrade("https://node2.example.com"), 101);
  EXPECT_EQ(upgrade(""), 101);  // not a browser
  EXPECT_TRUE(server.wait_for_log("refused a WebSocket from the page of another site"));
  WsClient player(server.port());  // and nobody else noticed
  EXPECT_EQ(player.hello("olga")["type"], "welcome");
}

TEST(Http, AnOriginThatIsNoOriginIsAStartUpError) {
  const int status = std::system((std::string("timeout 20 ") + TILERACE_BINARY +
                                  " --host 127.0.0.1 --port 0 --allowed-origin "
                                  "https://x.example/path >/dev/null 2>&1")
                                     .c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

}  // namespace
}  // namespace tilerace::e2e
