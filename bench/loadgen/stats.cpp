#include "bench/loadgen/stats.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace tilerace::loadgen {

void Samples::add(Clock::duration d) {
  const auto us_count = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  us.push_back(static_cast<std::uint32_t>(std::clamp<std::int64_t>(us_count, 0, UINT32_MAX)));
}

Percentiles summarise(Samples& samples) {
  Percentiles p;
  auto& v = samples.us;
  p.count = v.size();
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) {
    const auto rank = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
    return static_cast<double>(v[rank]) / 1000.0;
  };
  p.p50_ms = at(0.50);
  p.p90_ms = at(0.90);
  p.p99_ms = at(0.99);
  p.max_ms = static_cast<double>(v.back()) / 1000.0;
  return p;
}

std::optional<ProcSample> sample_process(int pid) {
  const std::string base = "/proc/" + std::to_string(pid);
  std::ifstream stat(base + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  // Fields after the command name (which may hold spaces) start at field 3.
  const auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 2));
  std::vector<std::string> fields{std::istream_iterator<std::string>(rest), {}};
  if (fields.size() < 13) return std::nullopt;
  ProcSample s;
  s.at = Clock::now();
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  s.system_seconds = std::stod(fields[12]) / ticks;                  // stime
  s.cpu_seconds = std::stod(fields[11]) / ticks + s.system_seconds;  // + utime
  std::ifstream status(base + "/status");
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kib = std::stoull(line.substr(6));
  }
  return s;
}

}  // namespace tilerace::loadgen
