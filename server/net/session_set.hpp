#pragma once
// The live connections, so that shutdown reaches every one of them.
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace tilerace::server {

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

}  // namespace tilerace::server
