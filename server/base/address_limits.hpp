#pragma once
// Per-address limits (docs/operations.md): connections open at once, and rooms created per
// minute. IPv6 addresses count by their /64, the block one subscriber usually holds.
// Thread-safe; 0 turns a limit off.
#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace tilerace::server {

class AddressLimits {
 public:
  using clock = std::chrono::steady_clock;

  AddressLimits(std::size_t max_connections, std::size_t rooms_per_minute)
      : max_connections_(max_connections), rooms_per_minute_(rooms_per_minute) {}

  // A connection's hold on its address's count; released when destroyed. Move-only.
  class Slot {
   public:
    Slot() = default;
    Slot(AddressLimits* owner, std::string key) : owner_(owner), key_(std::move(key)) {}
    Slot(Slot&& other) noexcept : owner_(other.owner_), key_(std::move(other.key_)) {
      other.owner_ = nullptr;
    }
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (owner_ != nullptr) owner_->release(key_);
    }
    // The address as counted (IPv6: its /64), for the room quota.
    const std::string& key() const { return key_; }

   private:
    AddressLimits* owner_ = nullptr;
    std::string key_;
  };

  // A slot for a new connection from address, or false in ok when it has max_connections.
  Slot connect(const boost::asio::ip::address& address, bool& ok);
  // Takes one room creation from key's quota; false when spent for now.
  bool create_room(const std::string& key, clock::time_point now);

 private:
  struct Bucket {
    double tokens;
    clock::time_point last;
  };
  void release(const std::string& key);
  static std::string key_of(const boost::asio::ip::address& address);

  const std::size_t max_connections_;
  const std::size_t rooms_per_minute_;
  std::mutex mutex_;
  std::map<std::string, std::size_t> connections_;
  std::map<std::string, Bucket> rooms_;
};

}  // namespace tilerace::server
