#pragma once
// The network threads: one io_context per thread, each run by exactly one thread, so a
// connection needs no strand: everything of it runs on its context's thread. New connections
// are dealt round robin. The transport types below are bound to that concrete executor (no
// any_io_executor on the path of a message).
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/basic_stream.hpp>

#include <memory>
#include <vector>

namespace tilerace::server {

using NetExecutor = boost::asio::io_context::executor_type;
using TcpSocket = boost::asio::basic_stream_socket<boost::asio::ip::tcp, NetExecutor>;
using HttpStream = boost::beast::basic_stream<boost::asio::ip::tcp, NetExecutor>;

class NetworkThreads {
 public:
  // Requires count >= 1.
  explicit NetworkThreads(int count);

  // Context 0: the acceptor, signals, the journal, rooms' timers and shutdown live here.
  boost::asio::io_context& main() { return *contexts_.front(); }
  // The context for the next connection. Called by the accept loop only.
  boost::asio::io_context& next();

  // Runs every context (the calling thread runs main()) until each has no work left and
  // release() has been called; then joins the other threads.
  void run();
  // Lets the contexts' run() return once their work is done. Call once, from main().
  void release() { guards_.clear(); }

 private:
  std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
  std::vector<boost::asio::executor_work_guard<NetExecutor>> guards_;
  std::size_t next_ = 0;
};

}  // namespace tilerace::server
