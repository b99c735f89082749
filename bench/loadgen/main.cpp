// tilerace-loadgen: simulated players against a running tilerace (or the echo server).
// Connects the fleet, measures for --duration seconds once everyone is settled, closes, and
// reports moves/s, latency percentiles, errors and the server's CPU and RSS (--server-pid).
#include <fmt/core.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

#include "bench/loadgen/fleet.hpp"
#include "bench/loadgen/stats.hpp"

namespace asio = boost::asio;
namespace po = boost::program_options;
using namespace tilerace::loadgen;
using json = nlohmann::json;

namespace {

struct Args {
  std::string scenario = "race";
  std::size_t players = 1000;
  double duration = 30;
  double setup_timeout = 120;
  double warmup = 0;  // seconds played after settling, before the window
  int server_pid = 0;
  std::string json_path;  // "-": JSON on stdout instead of the text report
  FleetConfig fleet;
};

struct Result {
  Args args;
  std::size_t connections = 0, settled = 0;
  double window_s = 0;
  Stats stats;
  std::optional<ProcSample> before_launch, window_start, window_end;
};

asio::awaitable<void> run(asio::io_context& ioc, Result& result) {
  const Args& a = result.args;
  Fleet fleet(ioc, a.fleet, result.stats);
  if (a.server_pid > 0) result.before_launch = sample_process(a.server_pid);
  if (a.scenario == "race") {
    fleet.launch_races(a.players);
  } else if (a.scenario == "solo") {
    fleet.launch_solo(a.players);
  } else if (a.scenario == "idle") {
    fleet.launch_idle(a.players);
  } else if (a.scenario == "handshake") {
    fleet.launch_handshakes(a.players);
  } else {  // echo: the same connections as a race run; racers send, spectators listen
    fleet.launch_echo(a.players, a.players / a.fleet.racers_per_room * a.fleet.spectators);
  }
  const auto setup_deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long>(a.setup_timeout * 1000));
  result.settled = co_await fleet.wait_settled(setup_deadline);
  result.connections = fleet.launched();

  asio::steady_timer timer(ioc);
  if (a.warmup > 0) {
    timer.expires_after(std::chrono::milliseconds(static_cast<long>(a.warmup * 1000)));
    co_await timer.async_wait(asio::use_awaitable);
  }
  if (a.server_pid > 0) result.window_start = sample_process(a.server_pid);
  const auto started = Clock::now();
  result.stats.measuring = true;
  timer.expires_after(std::chrono::milliseconds(static_cast<long>(a.duration * 1000)));
  co_await timer.async_wait(asio::use_awaitable);
  result.stats.measuring = false;
  result.window_s = std::chrono::duration<double>(Clock::now() - started).count();
  if (a.server_pid > 0) result.window_end = sample_process(a.server_pid);
  co_await fleet.stop(Clock::now() + std::chrono::seconds(10));
}

json latency_json(const Percentiles& p) {
  return {{"count", p.count},
          {"p50_ms", p.p50_ms},
          {"p90_ms", p.p90_ms},
          {"p99_ms", p.p99_ms},
          {"max_ms", p.max_ms}};
}

json report_json(Result& r) {
  const Stats& s = r.stats;
  json j{{"scenario", r.args.scenario},
         {"players", r.args.players},
         {"racers_per_room", r.args.fleet.racers_per_room},
         {"spectators_per_room", r.args.fleet.spectators},
         {"rate_per_player", r.args.fleet.rate},
         {"connections", r.connections},
         {"settled", r.settled},
         {"window_s", r.window_s},
         {"replies", s.replies},
         {"replies_per_s", static_cast<double>(s.replies) / r.window_s},
         {"changed", s.changed},
         {"messages_in_per_s", static_cast<double>(s.messages_in) / r.window_s},
         {"bytes_in_per_s", static_cast<double>(s.bytes_in) / r.window_s},
         {"races_finished", s.races_finished},
         {"games_finished", s.games_finished},
         {"reply_latency", latency_json(summarise(r.stats.reply_latency))},
         {"fanout_latency", latency_json(summarise(r.stats.fanout_latency))},
         {"redirect_latency", latency_json(summarise(r.stats.redirect_latency))},
         {"errors", s.errors}};
  if (r.window_start && r.window_end) {
    const double cpu = r.window_end->cpu_seconds - r.window_start->cpu_seconds;
    const double system = r.window_end->system_seconds - r.window_start->system_seconds;
    const double wall =
        std::chrono::duration<double>(r.window_end->at - r.window_start->at).count();
    json server{
        {"cpu_percent", 100.0 * cpu / wall},
        // Load-independent: what one reply (a move, an echo) cost the server.
        {"cpu_us_per_reply", s.replies > 0 ? 1e6 * cpu / static_cast<double>(s.replies) : 0.0},
        {"system_share", cpu > 0 ? system / cpu : 0.0},
        {"rss_kib_window_start", r.window_start->rss_kib},
        {"rss_kib_window_end", r.window_end->rss_kib}};
    if (r.args.scenario == "solo" && s.changed > 0) {
      // What the server holds per move played: its growth over the window, per changing move
      // (meaningful while games_finished stays 0: a finished game's memory is released).
      server["rss_bytes_per_move"] = (static_cast<double>(r.window_end->rss_kib) -
                                      static_cast<double>(r.window_start->rss_kib)) *
                                     1024 / static_cast<double>(s.changed);
    }
    if (r.before_launch) {
      server["rss_kib_before_launch"] = r.before_launch->rss_kib;
      if (r.args.scenario == "idle" && r.settled > 0) {
        server["rss_kib_per_connection"] = (static_cast<double>(r.window_end->rss_kib) -
                                            static_cast<double>(r.before_launch->rss_kib)) /
                                           static_cast<double>(r.settled);
      }
    }
    j["server"] = server;
  }
  return j;
}

void print_latency(const char* what, const json& p) {
  if (p["count"] == 0) return;
  fmt::print("  {:<22} p50 {:.3f}  p90 {:.3f}  p99 {:.3f}  max {:.3f} ms  ({} samples)\n", what,
             p["p50_ms"].get<double>(), p["p90_ms"].get<double>(), p["p99_ms"].get<double>(),
             p["max_ms"].get<double>(), p["count"].get<std::size_t>());
}

void print_text(const json& j) {
  const std::string scenario = j["scenario"];
  const double rate = j["rate_per_player"];
  fmt::print("scenario {}: {} connections ({} settled), {:.1f} s window, rate {}\n", scenario,
             j["connections"].get<std::size_t>(), j["settled"].get<std::size_t>(),
             j["window_s"].get<double>(),
             rate > 0 ? fmt::format("{} moves/s per player", rate)
                      : std::string("as fast as replies come"));
  if (scenario != "idle") {
    fmt::print("  {:<22} {:.0f}/s  ({} in the window)\n",
               scenario == "echo"        ? "round-trips"
               : scenario == "handshake" ? "handshakes"
                                         : "moves",
               j["replies_per_s"].get<double>(), j["replies"].get<std::uint64_t>());
    fmt::print("  {:<22} {:.0f}/s  ({:.1f} MB/s)\n", "messages received",
               j["messages_in_per_s"].get<double>(), j["bytes_in_per_s"].get<double>() / 1e6);
  }
  const char* reply = scenario == "echo"        ? "round-trip latency"
                      : scenario == "handshake" ? "connect + handshake"
                                                : "move -> moved";
  print_latency(reply, j["reply_latency"]);
  print_latency("race_update fan-out", j["fanout_latency"]);
  if (j["redirect_latency"]["count"].get<std::size_t>() > 0) {
    print_latency("redirect to room", j["redirect_latency"]);
  }
  if (j["races_finished"] > 0)
    fmt::print("  races finished         {}\n", j["races_finished"].get<std::uint64_t>());
  if (j["games_finished"] > 0)
    fmt::print("  games finished         {}\n", j["games_finished"].get<std::uint64_t>());
  std::string errors;
  for (const auto& [code, count] : j["errors"].items())
    errors += fmt::format(" {}={}", code, count.get<std::uint64_t>());
  fmt::print("  errors                {}\n", errors.empty() ? " none" : errors);
  if (j.contains("server")) {
    const json& s = j["server"];
    fmt::print("  server CPU             {:.0f}%  ({:.2f} µs per reply, {:.0f}% in the kernel)\n",
               s["cpu_percent"].get<double>(), s["cpu_us_per_reply"].get<double>(),
               100 * s["system_share"].get<double>());
    if (s.contains("rss_kib_before_launch")) {
      fmt::print("  server RSS             {:.1f} MiB before, {:.1f} MiB loaded\n",
                 s["rss_kib_before_launch"].get<double>() / 1024,
                 s["rss_kib_window_end"].get<double>() / 1024);
    }
    if (s.contains("rss_kib_per_connection")) {
      fmt::print("  server RSS/connection  {:.1f} KiB\n",
                 s["rss_kib_per_connection"].get<double>());
    }
    if (s.contains("rss_bytes_per_move")) {
      fmt::print("  server RSS held/move   {:.2f} bytes ({} games finished in the window)\n",
                 s["rss_bytes_per_move"].get<double>(), j["games_finished"].get<long>());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  std::string strategy = "corner";
  po::options_description desc("tilerace-loadgen options");
  desc.add_options()("help", "this text")(
      "host", po::value(&a.fleet.host)->default_value(a.fleet.host), "server address")(
      "port", po::value(&a.fleet.port)->default_value(a.fleet.port),
      "server port; several, comma-separated: a cluster's nodes (rooms spread across them)")(
      "scenario", po::value(&a.scenario)->default_value(a.scenario),
      "race | solo | idle | echo | handshake (full TLS handshakes, implies --tls)")(
      "players", po::value(&a.players)->default_value(a.players),
      "simulated players (echo: sending connections; handshake: clients)")(
      "tls", po::bool_switch(&a.fleet.tls), "wss:// (the certificate is not verified)")(
      "racers-per-room",
      po::value(&a.fleet.racers_per_room)->default_value(a.fleet.racers_per_room),
      "racers in each race (2-8)")(
      "spectators", po::value(&a.fleet.spectators)->default_value(a.fleet.spectators),
      "spectators per race (echo: listening connections per room)")(
      "rate", po::value(&a.fleet.rate)->default_value(a.fleet.rate),
      "moves/s per player; 0: next move as soon as the reply is in")(
      "strategy", po::value(&strategy)->default_value(strategy),
      "corner | random | bot (the computer's medium strength; classic 4x4)")(
      "size", po::value(&a.fleet.size)->default_value(a.fleet.size), "board size")(
      "duration", po::value(&a.duration)->default_value(a.duration),
      "seconds measured once everyone is settled")(
      "setup-timeout", po::value(&a.setup_timeout)->default_value(a.setup_timeout),
      "seconds allowed to connect and settle")(
      "warmup", po::value(&a.warmup)->default_value(a.warmup),
      "seconds played once settled, before the measured window")(
      "max-connecting", po::value(&a.fleet.max_connecting)->default_value(a.fleet.max_connecting),
      "handshakes in progress at once")("server-pid", po::value(&a.server_pid),
                                        "server process to read CPU and RSS of from /proc")(
      "json", po::value(&a.json_path),
      "write the report as JSON to this file ('-': stdout, no text)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n" << desc;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  const bool known = a.scenario == "race" || a.scenario == "solo" || a.scenario == "idle" ||
                     a.scenario == "echo" || a.scenario == "handshake";
  if (a.scenario == "handshake") a.fleet.tls = true;
  if (!known || (strategy != "corner" && strategy != "random" && strategy != "bot") ||
      (strategy == "bot" && a.fleet.size != 4) || a.fleet.racers_per_room < 2 ||
      a.fleet.racers_per_room > 8 || a.duration <= 0) {
    std::cerr << "bad arguments\n" << desc;
    return 2;
  }
  a.fleet.strategy = strategy == "random" ? Strategy::random
                     : strategy == "bot"  ? Strategy::bot
                                          : Strategy::corner;

  Result result{a, 0, 0, 0, {}, {}, {}, {}};
  asio::io_context ioc(1);
  asio::co_spawn(ioc, run(ioc, result), [&](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
    ioc.stop();  // detached writers of closed connections may still hold handlers
  });
  ioc.run();

  const json report = report_json(result);
  if (a.json_path != "-") print_text(report);
  if (a.json_path == "-") {
    std::cout << report.dump(2) << "\n";
  } else if (!a.json_path.empty()) {
    std::ofstream(a.json_path) << report.dump(2) << "\n";
  }
  return result.settled == 0 ? 1 : 0;
}
