#include "server/net/http_api.hpp"

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "server/base/unix_time.hpp"
#include "server/net/https_redirect.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/server/dispatcher_parts.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using json = nlohmann::json;

// An answer as it would go on the wire: status code and body.
struct Answer {
  int status = 0;
  std::string head;
  std::string body;
};

Answer read(http::message_generator gen) {
  std::string wire;
  boost::beast::error_code ec;
  while (!gen.is_done()) {
    const auto buffers = gen.prepare(ec);
    if (ec) break;
    std::size_t n = 0;
    for (const auto& b : buffers) {
      wire.append(static_cast<const char*>(b.data()), b.size());
      n += b.size();
    }
    gen.consume(n);
  }
  const auto split = wire.find("\r\n\r\n");
  return {std::stoi(wire.substr(9, 3)), wire.substr(0, split), wire.substr(split + 4)};
}

struct HttpApiFixture : ::testing::Test {
  asio::io_context ioc;
  SqliteStore store{":memory:"};
  testing::DispatcherParts parts{ioc, store};
  SessionSet sessions;
  std::filesystem::path web_root =
      std::filesystem::temp_directory_path() / ("tilerace-http-api-" + std::to_string(getpid()));
  ServerContext context{{},          web_root,     parts.metrics, parts.dispatcher, sessions,
                        parts.rooms, parts.worker, parts.limits,  parts.directory};

  HttpApiFixture() {
    std::filesystem::create_directories(web_root);
    std::ofstream(web_root / "index.html") << "<!doctype html><title>tilerace</title>";
  }
  ~HttpApiFixture() override {
    parts.stop();
    std::filesystem::remove_all(web_root);
  }

  static HttpRequest get(std::string target, http::verb verb = http::verb::get) {
    HttpRequest req{verb, target, 11};
    return req;
  }
  Answer ask(const HttpRequest& req) {
    if (!needs_store(req)) return read(answer(req, context));
    std::optional<Answer> got;
    bool done = false;
    ioc.restart();  // a previous ask ran it out of work
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> { got = read(co_await answer_from_store(req, context)); },
        [&](std::exception_ptr e) {
          EXPECT_FALSE(e) << "the store route threw";
          done = true;
        });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done && std::chrono::steady_clock::now() < deadline) {
      ioc.run_one_for(std::chrono::milliseconds(100));
    }
    return got.value_or(Answer{});
  }
};

TEST_F(HttpApiFixture, HealthSaysWhatTheStoreIsDoing) {
  Answer a = ask(get("/healthz"));
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(json::parse(a.body), json({{"status", "ok"}}));
  parts.metrics.store_available = 0;
  a = ask(get("/healthz"));
  EXPECT_EQ(a.status, 200);  // alive: its races go on
  EXPECT_EQ(json::parse(a.body)["database"], "unreachable");
}

TEST_F(HttpApiFixture, OnlyGetAndHeadAndOnlyKnownApiPaths) {
  EXPECT_EQ(ask(get("/healthz", http::verb::post)).status, 405);
  EXPECT_EQ(ask(get("/api/nothing")).status, 404);
  EXPECT_EQ(ask(get("/ws")).status, 426);
  EXPECT_EQ(ask(get("/metrics")).status, 200);
  const Answer page = ask(get("/"));
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("tilerace"), std::string::npos);
  const Answer head = ask(get("/", http::verb::head));
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
  EXPECT_EQ(ask(get("/../etc/passwd")).status, 404);
}

TEST_F(HttpApiFixture, TheStoreRoutesAnswerFromTheStore) {
  EXPECT_FALSE(needs_store(get("/api/rooms")));
  EXPECT_TRUE(needs_store(get("/api/leaderboard?mode=classic")));
  EXPECT_FALSE(needs_store(get("/api/leaderboard", http::verb::post)));
  EXPECT_EQ(json::parse(ask(get("/api/rooms")).body),
            json::parse(R"({"type":"rooms","rooms":[]})"));

  store.add_player({.id = "p1", .name = "ann", .name_key = "ann", .created_at = unix_ms()},
                   std::nullopt);
  const Answer profile = ask(get("/api/players/p1"));
  EXPECT_EQ(profile.status, 200);
  EXPECT_EQ(json::parse(profile.body)["name"], "ann");
  EXPECT_EQ(json::parse(profile.body)["rating"], kStartRating);
  EXPECT_EQ(ask(get("/api/players/nobody")).status, 404);
  EXPECT_EQ(ask(get("/api/replays/none")).status, 404);
  EXPECT_EQ(ask(get("/api/leaderboard?mode=classic&size=4&kind=score")).status, 200);
  const Answer bad = ask(get("/api/leaderboard?size=99"));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(json::parse(bad.body)["code"], "bad_field");
  EXPECT_EQ(read(store_unavailable(get("/api/players/p1"), context)).status, 503);
}

// Every kind of answer — a file, its HEAD, the API, a 404, an error, a refusal — carries the
// headers that tell browsers how the page may be used.
TEST_F(HttpApiFixture, EveryAnswerCarriesTheSecurityHeaders) {
  const auto with_host = [](HttpRequest req) {
    req.set(http::field::host, "play.example.com:8080");
    return req;
  };
  for (const Answer& a :
       {ask(with_host(get("/"))), ask(with_host(get("/", http::verb::head))),
        ask(with_host(get("/healthz"))), ask(with_host(get("/nothing-here"))),
        ask(with_host(get("/api/nope"))), ask(with_host(get("/healthz", http::verb::post))),
        ask(with_host(get("/api/replays/none"))),
        read(store_unavailable(with_host(get("/api/players/p1")), context)),
        read(forbidden_origin(with_host(get("/ws")), context))}) {
    SCOPED_TRACE(a.head.substr(0, a.head.find('\r')));
    EXPECT_NE(a.head.find("X-Content-Type-Options: nosniff"), std::string::npos);
    EXPECT_NE(a.head.find("Referrer-Policy: no-referrer"), std::string::npos);
    EXPECT_NE(a.head.find("Content-Security-Policy: default-src 'self'; connect-src 'self' "
                          "ws://play.example.com:* wss://play.example.com:*;"),
              std::string::npos)
        << a.head;
    EXPECT_NE(a.head.find("frame-ancestors 'none'"), std::string::npos);
    EXPECT_EQ(a.head.find("Strict-Transport-Security"), std::string::npos);  // not over TLS
  }
  EXPECT_EQ(read(forbidden_origin(get("/ws"), context)).status, 403);
  context.headers = {true, {"https://node2.example.com"}};
  const Answer tls = ask(with_host(get("/")));
  EXPECT_NE(tls.head.find("Strict-Transport-Security: max-age=31536000"), std::string::npos);
  EXPECT_NE(tls.head.find(" https://node2.example.com wss://node2.example.com;"), std::string::npos)
      << tls.head;
  // A Host that could break out of the header is left out of it.
  HttpRequest odd = get("/");
  odd.set(http::field::host, "evil.example; script-src *");
  EXPECT_EQ(ask(odd).head.find("evil"), std::string::npos);
}

TEST(HttpsRedirect, TheSamePageOnTheTlsPortOrNothingForAHostThatIsNone) {
  EXPECT_EQ(https_location("play.example.com", "/?room=ABC", 443),
            "https://play.example.com/?room=ABC");
  EXPECT_EQ(https_location("play.example.com:80", "/x", 8443), "https://play.example.com:8443/x");
  EXPECT_EQ(https_location("[::1]:80", "/", 443), "https://[::1]/");
  EXPECT_EQ(https_location("", "/", 443), "");
  EXPECT_EQ(https_location("evil.example/x?", "/", 443), "");
  EXPECT_EQ(https_location("a.example", "http://b.example/", 443), "");  // absolute targets
}

TEST(SecurityHeaders, OnlyTheSitesOwnOriginsMayOpenASocket) {
  const SecurityHeaders headers{false, {"https://node2.example.com"}};
  EXPECT_TRUE(headers.origin_allowed("", "play.example.com"));  // not a browser
  EXPECT_TRUE(headers.origin_allowed("https://play.example.com", "play.example.com"));
  EXPECT_TRUE(headers.origin_allowed("http://PLAY.example.com", "play.example.com"));
  EXPECT_TRUE(headers.origin_allowed("https://node2.example.com", "play.example.com"));
  EXPECT_FALSE(headers.origin_allowed("https://evil.example", "play.example.com"));
  EXPECT_FALSE(headers.origin_allowed("https://play.example.com.evil.example", "play.example.com"));
  EXPECT_FALSE(headers.origin_allowed("null", "play.example.com"));
  // The same host on another port (a cluster's other node on this machine) is the same site.
  EXPECT_TRUE(headers.origin_allowed("https://play.example.com:444", "play.example.com"));
  EXPECT_TRUE(headers.origin_allowed("http://127.0.0.1:8081", "127.0.0.1:8080"));
  EXPECT_TRUE(headers.origin_allowed("http://[::1]:8081", "[::1]:8080"));
  EXPECT_FALSE(headers.origin_allowed("http://[::2]:8081", "[::1]:8080"));
  EXPECT_FALSE(headers.origin_allowed("http://127.0.0.2:8080", "127.0.0.1:8080"));
  // Cluster mode: the other nodes' public URLs, as the directory last heard them.
  SecurityHeaders cluster{false, {}, [] {
                            return std::vector<std::string>{"wss://node3.example.com/ws",
                                                            "/node/2/ws", "ws://10.0.0.7:8081/ws"};
                          }};
  EXPECT_TRUE(cluster.origin_allowed("https://node3.example.com", "play.example.com"));
  EXPECT_TRUE(cluster.origin_allowed("http://10.0.0.7:8081", "play.example.com"));
  EXPECT_FALSE(cluster.origin_allowed("https://node4.example.com", "play.example.com"));
  boost::beast::http::fields fields;
  cluster.apply(fields, "play.example.com");
  EXPECT_NE(std::string(fields["Content-Security-Policy"])
                .find(" https://node3.example.com wss://node3.example.com http://10.0.0.7:8081 "
                      "ws://10.0.0.7:8081;"),
            std::string::npos)
      << fields["Content-Security-Policy"];
  EXPECT_EQ(origin_of_socket_url("wss://Node3.example.com:8443/ws"),
            "https://node3.example.com:8443");
  EXPECT_EQ(origin_of_socket_url("/node/2/ws"), "");
  EXPECT_EQ(normal_origin("HTTPS://Node2.Example.com:8443"), "https://node2.example.com:8443");
  EXPECT_EQ(normal_origin("https://x.example/"), "");
  EXPECT_EQ(normal_origin("ftp://x.example"), "");
}

}  // namespace
}  // namespace tilerace::server
