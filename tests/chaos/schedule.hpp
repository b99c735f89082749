#pragma once
// The chaos suite's own schedule: its faults last so long, and its people are judged so long
// after what they did (a lease after a welcome, a sign-out, a ban). Those times are the rules
// being checked, not stand-ins for an event.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/chaos/ledger.hpp"

namespace tilerace::chaos {

// Returns at t, or as soon as stop is set (looked at every 50 ms).
inline void hold_until(Clock::time_point t, const std::atomic<bool>& stop) {
  while (!stop && Clock::now() < t) {
    std::this_thread::sleep_for(
        std::min<Clock::duration>(std::chrono::milliseconds(50), t - Clock::now()));
  }
}

}  // namespace tilerace::chaos
