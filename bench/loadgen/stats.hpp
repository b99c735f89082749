#pragma once
// What one load-generator run measured, and the server's /proc figures around it.
// Single-threaded: the load generator runs one io_context thread.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilerace::loadgen {

using Clock = std::chrono::steady_clock;

// Latency samples in microseconds; summarised once at the end of the run.
struct Samples {
  std::vector<std::uint32_t> us;
  void add(Clock::duration d);
};

struct Percentiles {
  std::size_t count = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0;
};
// Sorts samples in place and reads the percentiles off (nearest rank).
Percentiles summarise(Samples& samples);

struct Stats {
  bool measuring = false;     // only replies that arrive inside the window count
  std::uint64_t replies = 0;  // moved (or echoed) replies in the window
  std::uint64_t changed = 0;  // of them, moves that changed the board
  std::uint64_t messages_in = 0;
  std::uint64_t bytes_in = 0;
  Samples reply_latency;     // move sent -> its moved received
  Samples fanout_latency;    // move sent -> race_update received by another member
  Samples redirect_latency;  // join_room/spectate sent on one node -> `room` on the hosting one
  std::map<std::string, std::uint64_t> errors;  // error codes, and "connect", "closed"
  std::uint64_t races_finished = 0;
  std::uint64_t games_finished = 0;
};

// The server process, read from /proc/<pid>.
struct ProcSample {
  Clock::time_point at;
  double cpu_seconds = 0;     // utime + stime
  double system_seconds = 0;  // stime: in the kernel on the process's behalf
  std::uint64_t rss_kib = 0;
};
std::optional<ProcSample> sample_process(int pid);

}  // namespace tilerace::loadgen
