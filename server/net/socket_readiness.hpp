#pragma once
// When a WebSocket's socket has something to read (without a read that finds nothing), and when
// it has room to send what it could not take at once. Asio's reactor tries each read at once, so
// after every message the next read calls recv and finds nothing before it waits; told to wait
// first instead (async_wait), it re-arms the descriptor with epoll_ctl every time. This service
// keeps an edge-triggered epoll set of its own for the sockets of one io_context, itself waited on
// through Asio — one epoll_wait and one re-arm per batch of ready sockets, not a syscall per
// message: a watcher is told when its socket has become readable (or has ended) and reads it
// until a read comes back short, and — once it has asked, after a send the socket could not take
// whole — when it can take more. The sockets are out of Asio's reactor (RawSocket), so each
// arriving message wakes this set only; timers stay Asio's. One per io_context
// (asio::use_service); used on that context's thread only.
#include <boost/asio/execution_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include "server/net/network_threads.hpp"

namespace tilerace::server {

class SocketReadiness final : public boost::asio::execution_context::service {
 public:
  static boost::asio::execution_context::id id;

  class Watcher {
   public:
    virtual ~Watcher() = default;
    // The socket has become readable: read it until a read comes back short (the next edge
    // comes only with more). ended: the peer has shut its side or the connection failed — read
    // on to the end or the error, however short the reads (no edge follows).
    virtual void readable(bool ended) = 0;
    // The socket may take more to send (or has failed: a send says how). Told once want_writable
    // was called, with every edge after (also when nothing waits to be sent).
    virtual void writable() = 0;
  };

  // context must be an io_context.
  explicit SocketReadiness(boost::asio::execution_context& context);
  ~SocketReadiness() override;
  SocketReadiness(const SocketReadiness&) = delete;
  SocketReadiness& operator=(const SocketReadiness&) = delete;

  // Watches socket fd for watcher, which is kept alive until stop(); returns the watch for
  // stop(). Throws boost::system::system_error if epoll refuses the descriptor.
  std::uint64_t watch(int fd, std::shared_ptr<Watcher> watcher);
  // No readable() for this watch after this; its watcher is let go soon after (not inside this
  // call). The descriptor leaves the epoll set when it is closed.
  void stop(std::uint64_t watch);
  // From now on, writable() is told too: call after a send came back short; if the socket can
  // take more already, writable() comes on a later turn.
  void want_writable(std::uint64_t watch);

 private:
  struct Slot {
    std::shared_ptr<Watcher> watcher;
    int fd = -1;
    bool writes = false;           // the set reports writability too
    std::uint32_t generation = 0;  // a watch names its slot and generation: old events miss
  };

  void shutdown() override;
  // Waits (through Asio) for the set to have ready sockets, while any is watched.
  void wait();
  // Tells the watchers of the ready sockets.
  void dispatch();
  // The watch's slot, or null when it has stopped.
  Slot* find(std::uint64_t watch);

  int epoll_fd_;
  boost::asio::posix::basic_stream_descriptor<NetExecutor> ready_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;  // slots without a watcher
  std::size_t watched_ = 0;
  bool waiting_ = false;
};

}  // namespace tilerace::server
