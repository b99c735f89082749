// tilerace-soak: honest racers play while abusers attack, in two waves (make soak).
// Reports the honest players' move latency before, during and after the abuse, the server's
// RSS before and after each wave, and how the server closed every abuser; exits 1 if the
// server misbehaved (a wrong close code, an abuser left open, memory still growing after the
// second wave, honest players failing). Loopback only; every phase is bounded in time.
#include <fmt/core.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/program_options.hpp>

#include <functional>
#include <iostream>
#include <vector>

#include "bench/loadgen/fleet.hpp"
#include "bench/loadgen/stats.hpp"
#include "bench/soak/abusers.hpp"

namespace asio = boost::asio;
namespace po = boost::program_options;
using namespace tilerace;
using loadgen::Percentiles;
using soak::Clock;

namespace {

struct Args {
  soak::Target target;
  int server_pid = 0;
  std::size_t honest = 100, slowloris = 1000, garbage_tcp = 50, garbage_ws = 20;
  double honest_rate = 5, phase_s = 10, wave_s = 20;
};

struct Phase {
  std::string name;
  Percentiles latency;
  std::uint64_t errors = 0;
  std::uint64_t rss_kib = 0;  // at the phase's end
};

struct Soak {
  Args args;
  asio::io_context& ioc;
  loadgen::Stats honest_stats, busy_stats;
  std::vector<Phase> phases;
  std::vector<soak::AbuseReport> waves;
  std::size_t running = 0;  // abusers not finished
  asio::steady_timer changed{ioc};

  std::uint64_t rss() const {
    const auto s = loadgen::sample_process(args.server_pid);
    return s ? s->rss_kib : 0;
  }

  asio::awaitable<void> sleep_for(double seconds) {
    asio::steady_timer t(ioc);
    t.expires_after(std::chrono::milliseconds(static_cast<long>(seconds * 1000)));
    co_await t.async_wait(asio::use_awaitable);
  }

  // Measures the honest players for `seconds`.
  asio::awaitable<void> measure(const char* name, double seconds) {
    honest_stats.reply_latency.us.clear();
    honest_stats.errors.clear();
    honest_stats.measuring = true;
    co_await sleep_for(seconds);
    honest_stats.measuring = false;
    Phase p{name, loadgen::summarise(honest_stats.reply_latency), 0, rss()};
    for (const auto& [code, n] : honest_stats.errors) p.errors += n;
    phases.push_back(std::move(p));
  }

  void spawn(asio::awaitable<void> abuser) {
    ++running;
    asio::co_spawn(ioc, std::move(abuser), [this](std::exception_ptr e) {
      if (e) std::rethrow_exception(e);
      --running;
      changed.cancel();
    });
  }

  asio::awaitable<void> wave(const char* name) {
    waves.emplace_back();
    soak::AbuseReport& r = waves.back();
    const auto until =
        Clock::now() + std::chrono::milliseconds(static_cast<long>(args.wave_s * 1000));
    for (std::size_t i = 0; i < args.slowloris; ++i) spawn(soak::slowloris(args.target, until, r));
    for (std::size_t i = 0; i < args.garbage_tcp; ++i) {
      spawn(soak::garbage_tcp(args.target, static_cast<unsigned>(i + 1), until, r));
    }
    for (std::size_t i = 0; i < args.garbage_ws; ++i) {
      spawn(soak::garbage_ws(args.target, static_cast<unsigned>(i + 1), until, r));
    }
    spawn(soak::silent_spectator(args.target, until, r));
    spawn(soak::flood(args.target, until, r));
    spawn(soak::bad_frame(args.target, true, r));
    spawn(soak::bad_frame(args.target, false, r));
    co_await measure(name, args.wave_s);
    // Every abuser ends by itself shortly after the wave; wait for the last one (bounded).
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (running > 0 && Clock::now() < deadline) {
      changed.expires_at(deadline);
      co_await changed.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    co_await sleep_for(2);  // the server's side of the closes
    phases.back().rss_kib = rss();
  }

  asio::awaitable<void> run();
};

asio::awaitable<void> Soak::run() {
  loadgen::FleetConfig honest_cfg;
  honest_cfg.host = args.target.host;
  honest_cfg.port = args.target.port;
  honest_cfg.spectators = 0;
  honest_cfg.rate = args.honest_rate;
  honest_cfg.public_rooms = true;
  loadgen::Fleet honest(ioc, honest_cfg, honest_stats);
  // One busy race (50 moves/s each) for the silent spectator to fall behind on.
  loadgen::FleetConfig busy_cfg = honest_cfg;
  busy_cfg.rate = 50;
  busy_cfg.size = 5;  // how the silent spectator tells it from the others
  loadgen::Fleet busy(ioc, busy_cfg, busy_stats);
  honest.launch_races(args.honest);
  busy.launch_races(2);
  const auto setup = Clock::now() + std::chrono::seconds(60);
  co_await honest.wait_settled(setup);
  co_await busy.wait_settled(setup);

  co_await measure("before", args.phase_s);
  co_await wave("wave 1");
  co_await wave("wave 2");
  co_await measure("after", args.phase_s);
  co_await honest.stop(Clock::now() + std::chrono::seconds(10));
  co_await busy.stop(Clock::now() + std::chrono::seconds(10));
}

bool report(const Soak& s) {
  bool ok = true;
  const auto check = [&ok](bool good, const std::string& what) {
    fmt::print("  {} {}\n", good ? "ok  " : "FAIL", what);
    ok = ok && good;
  };
  fmt::print("honest players: {} racers at {} moves/s each\n", s.args.honest, s.args.honest_rate);
  for (const auto& p : s.phases) {
    fmt::print(
        "  {:<7} move latency p50 {:.2f}  p99 {:.2f}  max {:.2f} ms  ({} moves, {} errors)  "
        "server RSS {:.1f} MiB\n",
        p.name, p.latency.p50_ms, p.latency.p99_ms, p.latency.max_ms, p.latency.count, p.errors,
        static_cast<double>(p.rss_kib) / 1024);
  }
  for (std::size_t w = 0; w < s.waves.size(); ++w) {
    const auto& r = s.waves[w];
    fmt::print(
        "wave {}: {} slowloris ({} cut, the longest lasted {:.1f} s), {} garbage TCP ({} cut), "
        "{} garbage WebSocket ({} still open, {} error replies), flood ({} rate_limited)\n",
        w + 1, r.slowloris, r.slowloris_cut, r.slowloris_longest_s, r.garbage_tcp,
        r.garbage_tcp_cut, r.garbage_ws, r.garbage_ws_open, r.garbage_ws_errors,
        r.flood_rate_limited);
    const auto code = [](const std::optional<int>& c) {
      if (!c) return std::string("never connected");
      if (*c == 0) return std::string("cut off without a close frame");
      if (*c < 0) return std::string("still open");
      return std::to_string(*c);
    };
    check(r.slowloris == s.args.slowloris && r.slowloris_cut == r.slowloris &&
              r.slowloris_longest_s < 15,
          "every slowloris socket cut within the 10 s request deadline");
    check(r.garbage_tcp_cut == r.garbage_tcp, "every garbage TCP socket closed");
    check(r.garbage_ws == s.args.garbage_ws && r.garbage_ws_open == r.garbage_ws &&
              r.garbage_ws_errors > 0,
          "garbage WebSocket players answered with errors and kept open");
    check(r.spectator_close == 1013 || r.spectator_close == 0,
          "silent spectator closed 1013 (or cut after the close stalled): " +
              code(r.spectator_close));
    check(r.flood_close == 1008 && r.flood_rate_limited > 0,
          "flood rate_limited, then closed 1008: " + code(r.flood_close));
    check(r.binary_close == 1003, "binary frame closed 1003: " + code(r.binary_close));
    check(r.utf8_close == 1007, "invalid UTF-8 closed 1007: " + code(r.utf8_close));
  }
  if (s.phases.size() == 4) {
    const auto before = s.phases[0], wave1 = s.phases[1], wave2 = s.phases[2], after = s.phases[3];
    check(before.errors + wave1.errors + wave2.errors + after.errors == 0,
          "honest players saw no errors");
    check(wave1.latency.count > 0 && wave2.latency.count > 0 && after.latency.count > 0,
          "honest players kept playing through both waves");
    check(static_cast<double>(wave2.rss_kib) <= static_cast<double>(wave1.rss_kib) * 1.1 + 4096,
          fmt::format("no lasting memory growth: {:.1f} MiB after wave 1, {:.1f} MiB after wave 2",
                      static_cast<double>(wave1.rss_kib) / 1024,
                      static_cast<double>(wave2.rss_kib) / 1024));
  } else {
    check(false, "all phases ran");
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  po::options_description desc("tilerace-soak options");
  desc.add_options()("help", "this text")("port", po::value(&a.target.port)->required(),
                                          "server port on 127.0.0.1")(
      "server-pid", po::value(&a.server_pid)->required(), "server process, for its RSS")(
      "honest", po::value(&a.honest)->default_value(a.honest), "honest racers")(
      "honest-rate", po::value(&a.honest_rate)->default_value(a.honest_rate), "their moves/s each")(
      "slowloris", po::value(&a.slowloris)->default_value(a.slowloris),
      "slowloris sockets per wave")("garbage-tcp",
                                    po::value(&a.garbage_tcp)->default_value(a.garbage_tcp),
                                    "random-byte sockets per wave")(
      "garbage-ws", po::value(&a.garbage_ws)->default_value(a.garbage_ws),
      "garbage-text players per wave")("phase", po::value(&a.phase_s)->default_value(a.phase_s),
                                       "seconds measured before and after")(
      "wave", po::value(&a.wave_s)->default_value(a.wave_s), "seconds each abuse wave lasts");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc;
      return 0;
    }
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n" << desc;
    return 2;
  }
  asio::io_context ioc(1);
  Soak soak{a, ioc, {}, {}, {}, {}, 0};
  asio::co_spawn(ioc, soak.run(), [&](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
    ioc.stop();
  });
  ioc.run();
  return report(soak) ? 0 : 1;
}
