#pragma once
// What every connection shares: configuration, metrics, the dispatcher, and the set of live
// WebSocket sessions (for shutdown). Owned by Server, outlives every session.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "server/address_limits.hpp"
#include "server/dispatcher.hpp"
#include "server/metrics.hpp"
#include "server/options.hpp"
#include "server/room_registry.hpp"

namespace tilerace::server {

class WsSession;

// Live WebSocket sessions, so shutdown can reach every one of them.
class SessionSet {
 public:
  void add(const std::shared_ptr<WsSession>& s) {
    std::lock_guard lock(mutex_);
    sessions_[s.get()] = s;
  }
  void remove(const WsSession* s) {
    std::lock_guard lock(mutex_);
    sessions_.erase(s);
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return sessions_.size();
  }
  void for_each(const std::function<void(WsSession&)>& f) const;

 private:
  mutable std::mutex mutex_;
  std::map<const WsSession*, std::weak_ptr<WsSession>> sessions_;
};

struct ServerContext {
  const Options& options;
  std::filesystem::path web_root;  // canonical
  Metrics& metrics;
  Dispatcher& dispatcher;
  SessionSet& sessions;
  RoomRegistry& rooms;
  StoreWorker& store;
  AddressLimits& limits;
};

}  // namespace tilerace::server
