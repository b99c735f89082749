#pragma once
// The cluster e2e tests' fixture: nodes of the real binary sharing a real PostgreSQL database
// and a real redis-server, both started by the tests on free loopback ports.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "server/store/pg_connection.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"
#include "tests/pg_cluster.hpp"
#include "tests/redis_process.hpp"

namespace tilerace::e2e {

using tilerace::testing::PgCluster;
using tilerace::testing::RedisProcess;

// The port of a ws://127.0.0.1:<port>/ws URL (what a node's default public URL looks like).
inline std::uint16_t port_of(const std::string& url) {
  const auto colon = url.rfind(':');
  return static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1)));
}

class Cluster : public ::testing::Test {
 protected:
  Cluster() : url_(PgCluster::shared().create_database()) {}

  // A node of the cluster, once it is in (its first heartbeat went through: /healthz ok); a
  // short lease so that a dead node is noticed within seconds.
  std::unique_ptr<ServerProcess> node(const std::string& name,
                                      const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{
        "--database",      url_,
        "--node-name",     name,
        "--redis",         "redis://127.0.0.1:" + std::to_string(redis_.port()),
        "--node-lease-ms", "1500",
        "--countdown",     "0",
        "--rate",          "100000"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto n = std::make_unique<ServerProcess>(args);
    EXPECT_TRUE(health_says(n->port(), "ok"));  // in the cluster
    return n;
  }
  std::int64_t query(const std::string& sql) const {
    return server::PgConnection(url_).exec(sql.c_str()).int64(0, 0);
  }

  // The codes list_rooms shows on ws.
  static std::set<std::string> listed(WsClient& ws) {
    std::set<std::string> codes;
    const json rooms = ws.request({{"type", "list_rooms"}});
    if (rooms["type"] != "rooms") return codes;
    for (const json& r : rooms["rooms"]) codes.insert(r["code"].get<std::string>());
    return codes;
  }
  static bool eventually_listed(WsClient& ws, const std::string& code, bool present) {
    return testing::eventually([&] { return listed(ws).count(code) == (present ? 1u : 0u); }, 10s);
  }

  std::string url_;
  RedisProcess redis_;
};

// The player racer is, on a new connection to port (after a redirect); their welcome checked.
inline std::unique_ptr<Racer> follow(const Racer& racer, std::uint16_t port) {
  json welcome;
  auto moved = std::make_unique<Racer>(port, racer.id, racer.token, welcome);
  EXPECT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(welcome["resumed"], true);
  return moved;
}

}  // namespace tilerace::e2e
