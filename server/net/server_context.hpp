#pragma once
// What every connection shares: configuration, metrics, the dispatcher, and the set of live
// sessions (for shutdown). Owned by run_server, outlives every session (server.cpp says how).
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "server/base/address_limits.hpp"
#include "server/base/metrics.hpp"
#include "server/game/room_registry.hpp"
#include "server/net/security_headers.hpp"
#include "server/net/trusted_proxies.hpp"
#include "server/play/dispatcher.hpp"
#include "server/play/room_directory.hpp"

namespace tilerace::server {

class AdminGuard;
class TlsCertificates;

// A connection as shutdown sees it, HTTP or WebSocket, from accept until its last handler.
// Both calls may come from any thread.
class Session {
 public:
  virtual ~Session() = default;
  // Server shutdown: end the connection politely (WebSocket: `shutdown`, then close 1001).
  virtual void shutdown() = 0;
  // The shutdown budget is spent: close the socket now.
  virtual void abort() = 0;
};

// Live sessions, so shutdown can reach every one of them. A session adds itself before its
// first read and removes itself when its last handler has run.
class SessionSet {
 public:
  // A session added after shutdown_all() is told to shut down at once.
  void add(const std::shared_ptr<Session>& s);
  void remove(const Session* s);
  std::size_t size() const;
  // Calls f for every live session (not under the set's lock).
  void for_each(const std::function<void(Session&)>& f) const;
  // Server shutdown: every session, now and from now on, is told to shut down.
  void shutdown_all();

 private:
  mutable std::mutex mutex_;
  bool closing_ = false;
  std::map<const Session*, std::weak_ptr<Session>> sessions_;
};

// The limits and timeouts every WebSocket connection is held to (from the command line).
struct EdgeLimits {
  std::size_t max_message = 4096;  // bytes of one message
  double rate = 60;                // messages per second; the burst is twice this
  int keepalive = 15;              // seconds of silence before a ping; twice this before closing
};

struct ServerContext {
  EdgeLimits edge;
  std::filesystem::path web_root;  // canonical
  Metrics& metrics;
  Dispatcher& dispatcher;
  SessionSet& sessions;
  RoomRegistry& rooms;
  StoreWorker& store;
  AddressLimits& limits;
  RoomDirectory& directory;
  TlsCertificates* tls = nullptr;  // set: the port speaks HTTPS and WSS only
  SecurityHeaders headers;         // on every HTTP answer; who may open a WebSocket
  TrustedProxies proxies;          // whose forwarding headers name the client
  std::string daily_secret;        // the daily challenge's seeds' key (game/daily.hpp)
  AdminGuard* admin = nullptr;     // the operator API's token check; null: the API is off
};

}  // namespace tilerace::server
