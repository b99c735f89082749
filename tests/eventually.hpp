#pragma once
// Waiting for a condition another process or thread brings about, with a deadline: the one
// polling loop of the tests (for what no event reaches the test directly: a metric, a rank a
// node hears of through the database).
#include <chrono>
#include <thread>

namespace tilerace::testing {

// Checks condition until it holds (true) or deadline has passed (false; one last check).
template <class Condition>
bool eventually(Condition condition, std::chrono::milliseconds deadline) {
  const auto until = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < until) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // polling interval
  }
  return condition();
}

}  // namespace tilerace::testing
