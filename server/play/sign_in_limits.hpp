#pragma once
// How often anyone may try to sign in (login, and hello with a link code), counted in memory
// on this node (docs/protocol.md, "Sign-in limits"; OWASP's device cookies):
// - an address: at most kPerAddress attempts a minute;
// - a device that brings a valid mark for the account (server/base/device_marks.hpp): at most
//   kPerDevice failures an hour, counted against that device alone;
// - the account's unknown devices (every attempt without a valid mark, from anywhere):
//   kUnknownFailures failures within kUnknownWindow lock them out, for kFirstLockout, then
//   twice as long at each lockout after it, kLongestLockout at most; the doubling is forgotten
//   kLockoutMemory after the last lockout ends.
// So nobody can jam an owner's known device, and a flood costs no hashing: an attempt past a
// limit is refused before any password is checked (rate_limited, with the wait). Thread-safe;
// time comes from the injected clock.
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
  static constexpr std::size_t kPerDevice = 10;
  static constexpr std::chrono::hours kDeviceWindow{1};
  static constexpr std::size_t kUnknownFailures = 10;
  static constexpr std::chrono::minutes kUnknownWindow{15};
  static constexpr std::chrono::minutes kFirstLockout{1};
  static constexpr std::chrono::minutes kLongestLockout{60};
  static constexpr std::chrono::hours kLockoutMemory{24};

  explicit SignInLimits(Clock now = std::chrono::steady_clock::now) : now_(std::move(now)) {}

  // 0 when an attempt from address may go ahead, counting it; else how many ms to wait.
  std::int64_t admit_address(std::string_view address);
  // 0 when an attempt on account (a name key) from device (a valid mark's device id; empty for
  // an unknown device) may go ahead; else how many ms to wait.
  std::int64_t admit(std::string_view account, std::string_view device);

  // What a failure did: when it locked the device or the account's unknown devices out, for
  // how long (0 when it did not).
  struct Failure {
    bool unknown_device = false;
    std::int64_t lockout_ms = 0;
  };
  // An attempt on account from device (as admit's) failed.
  Failure failed(std::string_view account, std::string_view device);

 private:
  using Times = std::deque<std::chrono::steady_clock::time_point>;
  // The unknown devices of one account.
  struct Unknown {
    Times failures;
    std::chrono::steady_clock::time_point locked_until{};
    int lockouts = 0;  // so far, since the doubling was last forgotten
  };
  // Drops times older than window from times; the wait (ms) before one more fits under limit.
  static std::int64_t wait(Times& times, std::size_t limit,
                           std::chrono::steady_clock::duration window,
                           std::chrono::steady_clock::time_point now);
  // Forgets the keys with nothing left to count, once the maps hold many.
  void sweep(std::chrono::steady_clock::time_point now);

  Clock now_;
  std::mutex mutex_;
  std::unordered_map<std::string, Times> by_address_;
  std::unordered_map<std::string, Times> by_device_;  // "account\ndevice"
  std::unordered_map<std::string, Unknown> unknown_;  // by account
};

}  // namespace tilerace::server
