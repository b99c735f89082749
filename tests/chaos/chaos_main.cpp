// make chaos: three nodes, Redis and PostgreSQL, scripted racers and spectators playing all
// along, and a fault every CHAOS_FAULT_EVERY seconds (default 30) for CHAOS_MINUTES minutes
// (default 10): a node killed (-9) and restarted 10 s later; a node cut from Redis, from
// PostgreSQL or from its clients for 8 s; a node whose three links turn bad for 20 s (100-300
// ms each way, 2-5 % loss); Redis restarted empty; PostgreSQL restarted. Every
// link — clients to nodes, nodes to Redis, nodes to PostgreSQL — is a TcpRelay on 127.0.0.1
// (this kernel has no netem: the relays add the delay and jitter, and make the cuts). Then
// the verdict (verdict.hpp): violations must be 0; exit status 1 otherwise.
// Everything runs on loopback, bounded in time, and stops by itself; SIGINT or SIGTERM ends
// the faults early and still heals, finishes the races, judges and cleans up.
#include <fmt/format.h>
#include <signal.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "server/store/pg_connection.hpp"
#include "tests/chaos/ledger.hpp"
#include "tests/chaos/people_driver.hpp"
#include "tests/chaos/race_driver.hpp"
#include "tests/chaos/schedule.hpp"
#include "tests/chaos/verdict.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/pg_cluster.hpp"
#include "tests/redis_process.hpp"
#include "tests/tcp_relay.hpp"
#include "tests/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tilerace::chaos::Clock;
using tilerace::chaos::Fault;
using tilerace::chaos::Ledger;
using tilerace::chaos::PeopleDriver;
using tilerace::chaos::RaceDriver;
using tilerace::e2e::ServerProcess;
using tilerace::testing::PgCluster;
using tilerace::testing::RedisProcess;
using tilerace::testing::TcpRelay;

std::atomic<bool> interrupted{false};

int setting(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoi(value) : fallback;
}

// One node and its three links.
struct Node {
  std::string name;
  std::unique_ptr<TcpRelay> door;      // clients → node
  std::unique_ptr<TcpRelay> to_redis;  // node → Redis
  std::unique_ptr<TcpRelay> to_db;     // node → PostgreSQL
  std::unique_ptr<ServerProcess> process;
};

constexpr auto kLease = std::chrono::milliseconds(1500);
const std::string kAdminToken = "chaos-operator-token-0123456789-abcdefghij";

void start(Node& n, const std::string& database, const std::string& admin_token_file) {
  n.process = std::make_unique<ServerProcess>(
      std::vector<std::string>{"--admin-token-file",
                               admin_token_file,
                               "--database",
                               PgCluster::shared().through(database, n.to_db->port()),
                               "--redis",
                               fmt::format("redis://127.0.0.1:{}", n.to_redis->port()),
                               "--node-name",
                               n.name,
                               "--node-lease-ms",
                               std::to_string(kLease.count()),
                               "--public-url",
                               fmt::format("ws://127.0.0.1:{}/ws", n.door->port()),
                               "--countdown",
                               "0",
                               "--rate",
                               "100000",
                               "--rooms-per-ip",
                               "0",
                               "--max-connections-per-ip",
                               "0"});
  n.door->retarget(n.process->port());
}

// The links as they are between faults.
void baseline(Node& n) {
  n.door->delay(10ms, 30ms);  // players on the internet
  n.to_redis->delay(0ms, 2ms);
  n.to_db->delay(0ms, 2ms);
}

// The fault schedule's own clock: returns at t, or as soon as the run is interrupted.
void hold_until(Clock::time_point t) { tilerace::chaos::hold_until(t, interrupted); }

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto i = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(i, values.size() - 1)];
}

}  // namespace

int main() {
  ::signal(SIGINT, [](int) { interrupted = true; });
  ::signal(SIGTERM, [](int) { interrupted = true; });
  ::signal(SIGPIPE, SIG_IGN);
  const int minutes = setting("CHAOS_MINUTES", 10);
  const auto every = std::chrono::seconds(setting("CHAOS_FAULT_EVERY", 30));
  const int races = setting("CHAOS_RACES", 6);
  std::mt19937 random(static_cast<unsigned>(setting("CHAOS_SEED", 2048)));

  const tilerace::testing::TempDir secrets;
  const std::string admin_token_file = (secrets.path() / "admin-token").string();
  std::ofstream(admin_token_file) << kAdminToken << "\n";
  PgCluster& pg = PgCluster::shared();
  const std::string database = pg.create_database();
  RedisProcess redis;
  std::vector<Node> nodes(3);
  std::vector<std::uint16_t> doors;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Node& n = nodes[i];
    n.name = fmt::format("n{}", i + 1);
    n.door = std::make_unique<TcpRelay>(0);
    n.to_redis = std::make_unique<TcpRelay>(redis.port());
    n.to_db = std::make_unique<TcpRelay>(pg.port());
    baseline(n);
    start(n, database, admin_token_file);
    doors.push_back(n.door->port());
  }
  for (Node& n : nodes) {
    if (!tilerace::e2e::health_says(n.process->port(), "ok")) {
      std::fprintf(stderr, "chaos: node %s never joined the cluster\n", n.name.c_str());
      return 2;
    }
  }
  std::printf(
      "chaos: 3 nodes, Redis, PostgreSQL; %d races at a time; a fault every %llds for "
      "%d min\n",
      races, static_cast<long long>(every.count()), minutes);
  std::fflush(stdout);

  // The people's moderator, made with the owner's token and signed in once (a session is the
  // store's: it holds on every node).
  const nlohmann::json moderator{
      {"name", "chaos"}, {"password", "chaos-moderator-8137"}, {"role", "moderator"}};
  const auto made =
      tilerace::e2e::http_request(nodes[0].process->port(), "/admin/api/create_operator", "POST",
                                  {{"Authorization", "Bearer " + kAdminToken}}, moderator.dump());
  const auto signed_in = tilerace::e2e::http_request(
      nodes[0].process->port(), "/admin/api/sign_in", "POST", {},
      nlohmann::json{{"name", "chaos"}, {"password", "chaos-moderator-8137"}}.dump());
  if (made.status != 200 || signed_in.status != 200) {
    std::fprintf(stderr, "chaos: the moderator could not sign in (%d, %d)\n", made.status,
                 signed_in.status);
    return 2;
  }
  const std::string moderator_session =
      nlohmann::json::parse(signed_in.body)["token"].get<std::string>();

  Ledger ledger;
  const auto recorded = [&database](const std::string& code, const std::string& player) {
    try {
      thread_local std::unique_ptr<tilerace::server::PgConnection> db;
      if (!db || !db->healthy()) db = std::make_unique<tilerace::server::PgConnection>(database);
      const std::string sql = "SELECT count(*) FROM races WHERE room = '" + code +
                              "' AND result LIKE '%" + player + "%'";
      return db->exec(sql.c_str()).int64(0, 0) > 0;
    } catch (const std::exception&) {
      return false;  // PostgreSQL restarting: ask again
    }
  };
  std::vector<std::unique_ptr<RaceDriver>> drivers;
  for (int i = 0; i < races; ++i) {
    drivers.push_back(std::make_unique<RaceDriver>(i, doors, ledger, recorded));
    drivers.back()->start();
  }

  std::vector<std::unique_ptr<PeopleDriver>> people;
  for (int i = 0; i < setting("CHAOS_PEOPLE", 2); ++i) {
    people.push_back(std::make_unique<PeopleDriver>(i, doors, kLease, moderator_session, ledger));
    people.back()->start();
  }

  // The faults, one at a time; each heals (or its node restarts) before the next.
  const std::vector<std::string> kinds{
      "kill",    "cut_redis",     "cut_postgresql",    "cut_clients",
      "degrade", "restart_redis", "restart_postgresql"};
  // CHAOS_FAULTS=kind,kind…: only those (to look at one kind closely).
  std::vector<std::string> drawn;
  if (const char* only = std::getenv("CHAOS_FAULTS")) {
    std::stringstream list(only);
    for (std::string k; std::getline(list, k, ',');) {
      if (std::find(kinds.begin(), kinds.end(), k) != kinds.end()) drawn.push_back(k);
    }
  }
  if (drawn.empty()) drawn = kinds;
  std::map<std::string, int> injected;
  const auto end = Clock::now() + std::chrono::minutes(minutes);
  for (auto next = Clock::now() + every; next < end && !interrupted; next += every) {
    hold_until(next);
    if (interrupted) break;
    const std::string kind = drawn[random() % drawn.size()];
    const int target = static_cast<int>(random() % nodes.size());
    Node& n = nodes[static_cast<std::size_t>(target)];
    ++injected[kind];
    const bool global = kind.starts_with("restart_");
    // A bad link: 100-300 ms each way and 2-5 % of chunks lost, on all three of the node's.
    const double loss = 0.02 + 0.03 * static_cast<double>(random() % 1001) / 1000.0;
    if (kind == "degrade") {
      std::printf("chaos: degrade %s (100-300 ms each way, %.1f %% loss, 20 s)\n", n.name.c_str(),
                  loss * 100);
    } else {
      std::printf("chaos: %s %s\n", kind.c_str(), global ? "" : n.name.c_str());
    }
    std::fflush(stdout);
    const auto at = Clock::now();
    ledger.begin_fault({kind, global ? -1 : target, at, at});
    if (kind == "kill") {
      n.process->stop(SIGKILL);
      hold_until(at + 10s);  // dead that long
      start(n, database, admin_token_file);
    } else if (kind == "degrade") {
      for (TcpRelay* link : {n.door.get(), n.to_redis.get(), n.to_db.get()}) {
        link->delay(100ms, 200ms);
        link->loss(loss);
      }
      hold_until(at + 20s);
      for (TcpRelay* link : {n.door.get(), n.to_redis.get(), n.to_db.get()}) link->loss(0);
      baseline(n);
    } else if (kind == "restart_redis") {
      redis.stop();
      redis.start();
    } else if (kind == "restart_postgresql") {
      pg.stop();
      pg.start();
    } else {
      TcpRelay& link = kind == "cut_redis"        ? *n.to_redis
                       : kind == "cut_postgresql" ? *n.to_db
                                                  : *n.door;
      link.cut();
      hold_until(at + 8s);  // the partition's length
      link.heal();
    }
    ledger.fault({kind, global ? -1 : target, at, Clock::now()});
  }

  // Everything healed: the races in progress finish and are recorded.
  std::printf("chaos: faults over; finishing the races\n");
  std::fflush(stdout);
  for (auto& d : drivers) d->stop();
  for (auto& p : people) p->stop();
  tilerace::chaos::Verdict verdict = judge(ledger, database, doors);
  tilerace::chaos::PeopleCounts counted;
  for (auto& p : people) counted += p->counts();
  for (const std::string& v : counted.violations) verdict.violations.push_back(v);

  std::printf("\nchaos summary (%d min, seed %d)\n", minutes, setting("CHAOS_SEED", 2048));
  int faults = 0;
  for (const auto& [kind, count] : injected) {
    std::printf("  fault %-20s %d\n", kind.c_str(), count);
    faults += count;
  }
  std::printf("  faults injected          %d\n", faults);
  std::printf("  races recorded           %zu\n", verdict.races);
  std::printf("  races given up in setup  %d\n", ledger.setbacks());
  std::printf("  races lost unanswered    %zu (their node died before any move was answered)\n",
              verdict.lost_before_first_move);
  std::printf("  acknowledged moves       %zu\n", verdict.acks);
  std::printf(
      "  next answered move, by kind: from the fault (races it hit) p50 / p99 ms;"
      " from a move sent while it lasted (moves) p50 / p99 ms\n");
  for (const auto& [kind, delays] : verdict.recovery_ms) {
    const std::vector<double>& during =
        verdict.during_ms.count(kind) > 0 ? verdict.during_ms.at(kind) : std::vector<double>{};
    std::printf("    %-20s %4zu  %8.0f / %8.0f    %6zu  %8.0f / %8.0f\n", kind.c_str(),
                delays.size(), percentile(delays, 0.5), percentile(delays, 0.99), during.size(),
                percentile(during, 0.5), percentile(during, 0.99));
  }
  std::printf(
      "  people: moves between nodes %d, friends' views %d, revocations %d (%d through a "
      "node cut from Redis), rounds given up %d\n",
      counted.moves, counted.presence_checks, counted.revocations, counted.revocations_cut,
      counted.rounds_given_up);
  std::printf("  two live connections of one player beyond a lease   %d\n",
              counted.two_live_connections);
  std::printf("  a revoked session answered beyond a lease           %d\n",
              counted.revoked_answered);
  std::printf("  a wrong presence beyond a lease                     %d\n", counted.wrong_presence);
  std::printf("  violations               %zu\n", verdict.violations.size());
  for (const std::string& v : verdict.violations) std::printf("    %s\n", v.c_str());
  return verdict.violations.empty() ? 0 : 1;
}
