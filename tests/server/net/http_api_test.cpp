#include "server/net/http_api.hpp"

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "server/base/address_limits.hpp"
#include "server/base/unix_time.hpp"
#include "server/play/local_directory.hpp"
#include "server/store/sqlite_dialect.hpp"

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
  Metrics metrics;
  StoreWorker worker{store, metrics};
  PlayerRegistry players;
  RoomRegistry rooms{RoomServices{ioc.get_executor(), &worker, &metrics, {}, {}}};
  Matchmaker matchmaker;
  LocalDirectory directory{rooms, matchmaker};
  AddressLimits limits{0, 0};
  Dispatcher dispatcher{players, rooms, directory, worker, metrics, limits};
  SessionSet sessions;
  std::filesystem::path web_root =
      std::filesystem::temp_directory_path() / ("tilerace-http-api-" + std::to_string(getpid()));
  ServerContext context{{},    web_root, metrics, dispatcher, sessions,
                        rooms, worker,   limits,  directory};

  HttpApiFixture() {
    std::filesystem::create_directories(web_root);
    std::ofstream(web_root / "index.html") << "<!doctype html><title>tilerace</title>";
  }
  ~HttpApiFixture() override {
    rooms.stop();
    worker.join();
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
  metrics.store_available = 0;
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

  store.add_player({.id = "p1", .name = "ann", .token_hash = "", .created_at = unix_ms()});
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
  EXPECT_EQ(read(store_unavailable(get("/api/players/p1"))).status, 503);
}

}  // namespace
}  // namespace tilerace::server
