#pragma once
// The cluster e2e tests' fixture: nodes of the real binary sharing a real PostgreSQL database
// and a real redis-server, both started by the tests on free loopback ports.
#include <fmt/format.h>
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

// Where a node reaches Redis and PostgreSQL: directly (0), or through a relay's port (a
// TcpRelay that can cut the link).
struct Links {
  std::uint16_t redis = 0;
  std::uint16_t database = 0;
};

class Cluster : public ::testing::Test {
 protected:
  Cluster() : url_(PgCluster::shared().create_database()) {}

  // A node of the cluster, once it is in (its first heartbeat went through: /healthz ok); a
  // short lease so that a dead node is noticed within seconds.
  std::unique_ptr<ServerProcess> node(const std::string& name,
                                      const std::vector<std::string>& extra = {}, Links via = {}) {
    const std::string database =
        via.database != 0 ? PgCluster::shared().through(url_, via.database) : url_;
    std::vector<std::string> args{
        "--database",
        database,
        "--node-name",
        name,
        "--redis",
        "redis://127.0.0.1:" + std::to_string(via.redis != 0 ? via.redis : redis_.port()),
        "--node-lease-ms",
        "1500",
        "--countdown",
        "0",
        "--rate",
        "100000"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto n = std::make_unique<ServerProcess>(args);
    EXPECT_TRUE(health_says(n->port(), "ok"));  // in the cluster
    return n;
  }
  std::int64_t query(const std::string& sql) const {
    return server::PgConnection(url_).exec(sql.c_str()).int64(0, 0);
  }
  // How many moves of player's solo game the store's journal holds (its entry and pieces).
  std::int64_t journaled_solo_moves(const std::string& player) const {
    return query(fmt::format(
        "SELECT coalesce(sum(length(moves)), 0) FROM (SELECT moves FROM active_games WHERE "
        "player_id = '{0}' UNION ALL SELECT moves FROM active_moves WHERE player_id = '{0}') j",
        player));
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

// host creates a 4×4 room (with options; another size if they say), guest joins, both ready:
// the race is on. Its code.
inline std::string race(Racer& host, Racer& guest, json options = json::object()) {
  if (!options.contains("size")) options["size"] = 4;
  const std::string code = create_room(host, options)["code"];
  EXPECT_EQ(guest.ws.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  start_race({&host, &guest});
  return code;
}

// The player racer is back through the balancer (here: port) with their token; if the
// node says their race is elsewhere (redirect, reason "resume"), they follow it. Returns the
// new connection, read up to and including race_state. Before a dead node's lease runs out
// the redirect may still name it: as a client does, they try the balancer again.
inline std::unique_ptr<Racer> come_back(const Racer& racer, std::uint16_t port, json& race_state) {
  std::unique_ptr<Racer> back;
  const bool resumed = testing::eventually(
      [&] {
        try {
          back = follow(racer, port);
          json m = back->ws.next(15s).value_or(json::object());
          if (m["type"] == "redirect") {
            EXPECT_EQ(m["reason"], "resume");
            back = follow(racer, port_of(m["url"]));
            m = back->ws.next(15s).value_or(json::object());
          }
          if (m["type"] != "room") return false;
          race_state = back->ws.expect("race_state");
          return true;
        } catch (const std::exception&) {
          return false;  // the redirect named the dead node
        }
      },
      20s);
  EXPECT_TRUE(resumed) << racer.id;
  return back;
}

}  // namespace tilerace::e2e
