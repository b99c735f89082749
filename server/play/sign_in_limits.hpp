#pragma once
// How often anyone may try to sign in (login, and hello with a link code), counted in memory
// on this node: at most kPerAddress attempts a minute from one address, and kPerName failed
// attempts in 15 minutes on one name. An attempt past either is refused before any password is
// checked (rate_limited, with the wait until the oldest counted attempt leaves its window), so
// a flood costs no hashing. Thread-safe; time comes from the injected clock.
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tilerace::server {

class SignInLimits {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  static constexpr std::size_t kPerAddress = 20;
  static constexpr std::chrono::minutes kAddressWindow{1};
  static constexpr std::size_t kPerName = 10;
  static constexpr std::chrono::minutes kNameWindow{15};

  explicit SignInLimits(Clock now = std::chrono::steady_clock::now) : now_(std::move(now)) {}

  // 0 when an attempt from address on name (a name key; empty for a link code) may go ahead,
  // counting it against the address; else how many milliseconds to wait.
  std::int64_t admit(std::string_view address, std::string_view name);
  // An attempt on name failed: it counts against the name.
  void failed(std::string_view name);

 private:
  using Times = std::deque<std::chrono::steady_clock::time_point>;
  // Drops times older than window from times; the wait (ms) before one more fits under limit.
  static std::int64_t wait(Times& times, std::size_t limit, std::chrono::minutes window,
                           std::chrono::steady_clock::time_point now);
  // Forgets the keys with nothing left to count, once a map holds many.
  void sweep(std::unordered_map<std::string, Times>& map, std::chrono::minutes window,
             std::chrono::steady_clock::time_point now);

  Clock now_;
  std::mutex mutex_;
  std::unordered_map<std::string, Times> by_address_;
  std::unordered_map<std::string, Times> by_name_;
};

}  // namespace tilerace::server
