#pragma once
// What game logic sees of a connection: a place to deliver messages, never a socket.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace tilerace::server {

using SharedMessage = std::shared_ptr<const std::string>;

class Participant {
 public:
  virtual ~Participant() = default;
  // Queues message for sending; callable from any thread, also with a room's lock held.
  // Never blocks and never calls back into the caller; messages reach the connection in the
  // order deliver was called (a room's broadcasts and a direct reply stay in the order the
  // room produced them).
  virtual void deliver(SharedMessage message) = 0;
  // Closes the connection with a WebSocket close code, after what is already queued.
  virtual void close(std::uint16_t code) = 0;
  // Asks the peer for a sign of life (a WebSocket ping): heard is called, on the connection's
  // thread, once anything arrives from it after this call — never, from a peer that is gone or
  // cut off. Callable from any thread. False, and heard never called, where there is no peer
  // to ask (the computer's seat).
  virtual bool probe([[maybe_unused]] std::function<void()> heard) { return false; }
};

}  // namespace tilerace::server
