#pragma once
// A WebSocket's connected TCP socket once its upgrade is done: the descriptor taken out of Asio's
// reactor (which registers every socket it opens, so each arriving message would wake its epoll
// set as well as SocketReadiness's), read and written without waiting. SocketReadiness says when it
// has something to read and when it can take more. Owns the descriptor; used on the connection's
// thread only.
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>

#include <span>

#include "server/net/network_threads.hpp"

namespace tilerace::server {

class RawSocket {
 public:
  // Takes socket's descriptor out of Asio (socket must have no operation in flight) and makes
  // it non-blocking. Throws boost::system::system_error if Asio cannot let it go.
  explicit RawSocket(TcpSocket&& socket);
  ~RawSocket();  // closes the descriptor if still open
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;

  int native_handle() const { return fd_; }

  // Reads what has arrived into `into` (not empty). Returns the bytes read, or 0 with ec set:
  // would_block when nothing has, eof at the peer's end, else the socket's error.
  std::size_t read_some(boost::asio::mutable_buffer into, boost::beast::error_code& ec);
  // Sends the buffers, in order, as far as the socket takes them now (one send, or sendmsg
  // past 16 KiB). Returns the bytes sent, or 0 with ec set: would_block when it takes nothing,
  // else the socket's error.
  std::size_t write_some(std::span<const boost::asio::const_buffer> buffers,
                         boost::beast::error_code& ec);
  // Ends our side (a FIN after what is sent); reading goes on.
  void shutdown_send();
  // Closes the descriptor at once (it leaves every epoll set); later calls fail with
  // bad_descriptor.
  void close();

 private:
  int fd_;
};

}  // namespace tilerace::server
