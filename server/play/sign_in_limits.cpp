#include "server/play/sign_in_limits.hpp"

namespace tilerace::server {

namespace {
constexpr std::size_t kSweepAt = 10000;  // keys in a map before the forgotten ones are dropped
}

std::int64_t SignInLimits::wait(Times& times, std::size_t limit, std::chrono::minutes window,
                                std::chrono::steady_clock::time_point now) {
  while (!times.empty() && times.front() <= now - window) times.pop_front();
  if (times.size() < limit) return 0;
  const auto free_at = times[times.size() - limit] + window;
  return std::max<std::int64_t>(
      1, std::chrono::ceil<std::chrono::milliseconds>(free_at - now).count());
}

void SignInLimits::sweep(std::unordered_map<std::string, Times>& map, std::chrono::minutes window,
                         std::chrono::steady_clock::time_point now) {
  if (map.size() < kSweepAt) return;
  for (auto it = map.begin(); it != map.end();) {
    Times& times = it->second;
    while (!times.empty() && times.front() <= now - window) times.pop_front();
    it = times.empty() ? map.erase(it) : std::next(it);
  }
}

std::int64_t SignInLimits::admit(std::string_view address, std::string_view name) {
  const auto now = now_();
  std::lock_guard lock(mutex_);
  sweep(by_address_, kAddressWindow, now);
  Times& from = by_address_[std::string(address)];
  std::int64_t ms = wait(from, kPerAddress, kAddressWindow, now);
  if (!name.empty()) {
    const auto on = by_name_.find(std::string(name));
    if (on != by_name_.end()) ms = std::max(ms, wait(on->second, kPerName, kNameWindow, now));
  }
  if (ms == 0) from.push_back(now);
  return ms;
}

void SignInLimits::failed(std::string_view name) {
  if (name.empty()) return;
  const auto now = now_();
  std::lock_guard lock(mutex_);
  sweep(by_name_, kNameWindow, now);
  by_name_[std::string(name)].push_back(now);
}

}  // namespace tilerace::server
