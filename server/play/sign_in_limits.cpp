#include "server/play/sign_in_limits.hpp"

#include <algorithm>

namespace tilerace::server {

namespace {

constexpr std::size_t kSweepAt = 10000;  // keys in a map before the forgotten ones are dropped

std::int64_t ms_until(std::chrono::steady_clock::time_point then,
                      std::chrono::steady_clock::time_point now) {
  return std::max<std::int64_t>(1,
                                std::chrono::ceil<std::chrono::milliseconds>(then - now).count());
}

std::string device_key(std::string_view account, std::string_view device) {
  std::string key(account);
  key.push_back('\n');
  key.append(device);
  return key;
}

}  // namespace

std::int64_t SignInLimits::wait(Times& times, std::size_t limit,
                                std::chrono::steady_clock::duration window,
                                std::chrono::steady_clock::time_point now) {
  while (!times.empty() && times.front() <= now - window) times.pop_front();
  if (times.size() < limit) return 0;
  return ms_until(times[times.size() - limit] + window, now);
}

void SignInLimits::sweep(std::chrono::steady_clock::time_point now) {
  const auto drop = [now](auto& map, auto window) {
    if (map.size() < kSweepAt) return;
    std::erase_if(map, [&](const auto& entry) {
      const Times& times = entry.second;
      return times.empty() || times.back() <= now - window;  // its newest has left the window
    });
  };
  drop(by_address_, kAddressWindow);
  drop(by_device_, kDeviceWindow);
  if (unknown_.size() >= kSweepAt) {
    std::erase_if(unknown_, [now](const auto& entry) {
      const Unknown& u = entry.second;
      return (u.failures.empty() || u.failures.back() <= now - kUnknownWindow) &&
             u.locked_until + kLockoutMemory <= now;
    });
  }
}

std::int64_t SignInLimits::admit_address(std::string_view address) {
  const auto now = now_();
  std::lock_guard lock(mutex_);
  sweep(now);
  Times& from = by_address_[std::string(address)];
  const std::int64_t ms = wait(from, kPerAddress, kAddressWindow, now);
  if (ms == 0) from.push_back(now);
  return ms;
}

std::int64_t SignInLimits::admit(std::string_view account, std::string_view device) {
  if (account.empty()) return 0;
  const auto now = now_();
  std::lock_guard lock(mutex_);
  if (!device.empty()) {
    const auto it = by_device_.find(device_key(account, device));
    return it == by_device_.end() ? 0 : wait(it->second, kPerDevice, kDeviceWindow, now);
  }
  const auto it = unknown_.find(std::string(account));
  if (it == unknown_.end() || it->second.locked_until <= now) return 0;
  return ms_until(it->second.locked_until, now);
}

SignInLimits::Failure SignInLimits::failed(std::string_view account, std::string_view device) {
  if (account.empty()) return {};
  const auto now = now_();
  std::lock_guard lock(mutex_);
  sweep(now);
  if (!device.empty()) {
    Times& times = by_device_[device_key(account, device)];
    times.push_back(now);
    if (wait(times, kPerDevice, kDeviceWindow, now) == 0) return {};
    return {false, ms_until(times.front() + kDeviceWindow, now)};
  }
  Unknown& u = unknown_[std::string(account)];
  if (u.lockouts > 0 && u.locked_until + kLockoutMemory <= now) u.lockouts = 0;
  if (wait(u.failures, kUnknownFailures - 1, kUnknownWindow, now) == 0) {
    u.failures.push_back(now);
    return {true, 0};
  }
  // The kUnknownFailures-th failure within the window: a lockout, twice the last one.
  u.failures.clear();
  const auto length = std::min<std::chrono::steady_clock::duration>(
      kFirstLockout * (1LL << std::min(u.lockouts, 10)), kLongestLockout);
  ++u.lockouts;
  u.locked_until = now + length;
  return {true, std::chrono::duration_cast<std::chrono::milliseconds>(length).count()};
}

}  // namespace tilerace::server
