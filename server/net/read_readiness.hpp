#pragma once
// When a WebSocket's socket has something to read, without a read that finds nothing. Asio's
// reactor tries each read at once, so after every message the next read calls recv and finds
// nothing before it waits; told to wait first instead (async_wait), it re-arms the descriptor
// with epoll_ctl every time. This service keeps an edge-triggered epoll set of its own for the
// sockets of one io_context, itself waited on through Asio — one epoll_wait and one re-arm per
// batch of ready sockets, not a syscall per message: a watcher is told when its socket has become
// readable (or has ended) and reads it until a read comes back short. Writes, closes and timers
// stay Asio's. One per io_context (asio::use_service); used on that context's thread only.
#include <boost/asio/execution_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include "server/net/network_threads.hpp"

namespace tilerace::server {

class ReadReadiness final : public boost::asio::execution_context::service {
 public:
  static boost::asio::execution_context::id id;

  class Watcher {
   public:
    virtual ~Watcher() = default;
    // The socket has become readable: read it until a read comes back short (the next edge
    // comes only with more). ended: the peer has shut its side or the connection failed — read
    // on to the end or the error, however short the reads (no edge follows).
    virtual void readable(bool ended) = 0;
  };

  // context must be an io_context.
  explicit ReadReadiness(boost::asio::execution_context& context);
  ~ReadReadiness() override;
  ReadReadiness(const ReadReadiness&) = delete;
  ReadReadiness& operator=(const ReadReadiness&) = delete;

  // Watches socket fd for watcher, which is kept alive until stop(); returns the watch for
  // stop(). Throws boost::system::system_error if epoll refuses the descriptor.
  std::uint64_t watch(int fd, std::shared_ptr<Watcher> watcher);
  // No readable() for this watch after this; its watcher is let go soon after (not inside this
  // call). The descriptor leaves the epoll set when it is closed.
  void stop(std::uint64_t watch);

 private:
  struct Slot {
    std::shared_ptr<Watcher> watcher;
    std::uint32_t generation = 0;  // a watch names its slot and generation: old events miss
  };

  void shutdown() override;
  // Waits (through Asio) for the set to have ready sockets, while any is watched.
  void wait();
  // Tells the watchers of the ready sockets.
  void dispatch();

  int epoll_fd_;
  boost::asio::posix::basic_stream_descriptor<NetExecutor> ready_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;  // slots without a watcher
  std::size_t watched_ = 0;
  bool waiting_ = false;
};

}  // namespace tilerace::server
