#pragma once
// Wall-clock time as stored and sent: Unix milliseconds.
#include <chrono>
#include <cstdint>

namespace tilerace::server {

inline std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace tilerace::server
