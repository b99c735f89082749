#pragma once
// Wall-clock time as stored and sent: Unix milliseconds, the system clock's, moved by the offset
// --clock-offset-ms set at start (tests of day boundaries; 0 otherwise).
#include <atomic>
#include <chrono>
#include <cstdint>

namespace tilerace::server {

inline std::atomic<std::int64_t>& clock_offset_ms() {
  static std::atomic<std::int64_t> offset{0};
  return offset;
}

inline std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count() +
         clock_offset_ms().load(std::memory_order_relaxed);
}

}  // namespace tilerace::server
