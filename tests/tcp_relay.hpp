#pragma once
// A TCP relay on 127.0.0.1 for fault injection in tests: it listens on a free port and
// forwards every connection to a target port. cut() is a network partition as the two ends
// see it — bytes stop flowing both ways, and new connections open but carry nothing — and
// heal() ends it: what was held is delivered then, as TCP retransmitting after a short
// partition would. Nothing is dropped or reordered. Runs its own thread; stops with the object.
#include <cstdint>
#include <memory>

namespace tilerace::testing {

class TcpRelay {
 public:
  explicit TcpRelay(std::uint16_t target);
  ~TcpRelay();
  TcpRelay(const TcpRelay&) = delete;
  TcpRelay& operator=(const TcpRelay&) = delete;

  std::uint16_t port() const;
  void cut();
  void heal();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tilerace::testing
