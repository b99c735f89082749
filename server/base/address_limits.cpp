#include "server/base/address_limits.hpp"

#include <algorithm>

namespace tilerace::server {

std::string AddressLimits::key_of(const boost::asio::ip::address& address) {
  if (address.is_v6() && !address.to_v6().is_v4_mapped()) {
    auto bytes = address.to_v6().to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return boost::asio::ip::address_v6(bytes).to_string() + "/64";
  }
  if (address.is_v6()) {
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6())
        .to_string();
  }
  return address.to_string();
}

AddressLimits::Slot AddressLimits::connect(const boost::asio::ip::address& address, bool& ok) {
  std::string key = key_of(address);
  std::lock_guard lock(mutex_);
  std::size_t& open = connections_[key];
  ok = max_connections_ == 0 || open < max_connections_;
  if (!ok) {
    if (open == 0) connections_.erase(key);
    return {};
  }
  ++open;
  return Slot(this, std::move(key));
}

void AddressLimits::release(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto it = connections_.find(key);
  if (it != connections_.end() && --it->second == 0) connections_.erase(it);
}

bool AddressLimits::create_room(const std::string& key, clock::time_point now) {
  if (rooms_per_minute_ == 0) return true;
  const double capacity = static_cast<double>(rooms_per_minute_);
  std::lock_guard lock(mutex_);
  // Full buckets carry no information: drop them so the map holds only recent creators.
  if (rooms_.size() > 4096) {
    std::erase_if(rooms_, [&](const auto& entry) {
      const std::chrono::duration<double> idle = now - entry.second.last;
      return idle.count() >= 60.0;
    });
  }
  auto [it, fresh] = rooms_.try_emplace(key, Bucket{capacity, now});
  Bucket& b = it->second;
  const std::chrono::duration<double> elapsed = now - b.last;
  b.tokens = std::min(capacity, b.tokens + elapsed.count() * capacity / 60.0);
  b.last = now;
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

}  // namespace tilerace::server
