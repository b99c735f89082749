#pragma once
// A TCP relay on 127.0.0.1 for fault injection in tests: it listens on a free port and
// forwards every connection to a target port. cut() is a network partition as the two ends
// see it — bytes stop flowing both ways, and new connections open but carry nothing — and
// heal() ends it: what was held is delivered then, as TCP retransmitting after a short
// partition would. delay() holds each chunk a while and loss() makes some chunks "lost" (a
// slow, jittery, lossy link: the chaos suite's stand-in for netem, which this kernel lacks).
// The link stays a pipe: chunks are read on while earlier ones wait, and each is due its delay
// after it was read. Nothing is dropped or reordered: a TCP stream cannot lose bytes, so a
// lost segment shows as what TCP makes of it — the chunk arrives a retransmission timeout
// (200 ms, Linux's least) late, and everything behind it waits for it. Runs its own thread;
// stops with the object. Callable from any thread.
#include <chrono>
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
  // New connections go to port from now on (the target restarted elsewhere).
  void retarget(std::uint16_t target);
  // Each chunk, each way, waits base plus up to jitter (uniform) before it is passed on.
  void delay(std::chrono::milliseconds base, std::chrono::milliseconds jitter);
  // From now on this fraction (0..1) of chunks, each way, is lost and retransmitted (above).
  void loss(double fraction);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tilerace::testing
