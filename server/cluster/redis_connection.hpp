#pragma once
// One connection to Redis, driven by Asio: the socket is Asio's and hiredis only formats
// commands (redisFormatCommandArgv) and parses replies (its reader), so no thread ever blocks
// on Redis. Everything of the connection runs on its executor (the main context's one
// thread); command() may be awaited from any executor and resumes there.
//
// Commands are pipelined: written in order, answered in order. The connection connects and
// reconnects by itself (every kReconnectEvery) until stop(). While it is down, a command fails
// at once with RedisUnavailable; so does every command in flight when it drops, and the
// connection is dropped when a reply is overdue by its reply timeout (a hung server, or one
// cut off). A caller that cannot wait that long abandons what is in flight (abandon()).
//
// Subscriber mode (on_push given): every reply goes to on_push (SUBSCRIBE confirmations and
// messages); the owner subscribes with send() from on_connected.
#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/basic_stream.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "server/cluster/redis_types.hpp"

struct redisReader;

namespace tilerace::server {

class RedisConnection : public std::enable_shared_from_this<RedisConnection> {
 public:
  using Executor = boost::asio::io_context::executor_type;
  static constexpr std::chrono::milliseconds kReconnectEvery{250};
  static constexpr std::chrono::milliseconds kReplyTimeout{3000};

  // name says which connection a log line is about.
  RedisConnection(Executor executor, RedisAddress address, std::string name,
                  std::chrono::milliseconds reply_timeout = kReplyTimeout);
  ~RedisConnection();

  // Starts connecting. on_connected runs on the executor after each (re)connection, before
  // any other reply is read; on_push makes this a subscriber connection (above).
  void start(std::function<void()> on_connected, std::function<void(RedisReply)> on_push = nullptr);
  // Closes the connection for good; pending commands fail. Call on the executor.
  void stop();

  bool connected() const noexcept { return connected_.load(std::memory_order_relaxed); }

  // Sends one command and returns its reply (a Redis error reply is returned, not thrown).
  // Throws RedisUnavailable as above.
  boost::asio::awaitable<RedisReply> command(std::vector<std::string> args);
  // Sends one command whose reply goes to on_push (subscriber mode). Call on the executor.
  void send(const std::vector<std::string>& args);
  // Every command waiting for its reply fails now with RedisUnavailable, the connection
  // staying up: their replies, when they come, are read and dropped. Callable from any thread.
  void abandon();

 private:
  using Handler = boost::asio::any_completion_handler<void(std::exception_ptr, RedisReply)>;
  using Stream = boost::beast::basic_stream<boost::asio::ip::tcp, Executor>;
  // A caller waiting: its handler and the executor it resumes on.
  struct Waiter {
    Handler handler;
    boost::asio::any_io_executor executor;
  };
  struct Pending {
    Waiter waiter;
    std::chrono::steady_clock::time_point since;
    bool abandoned = false;  // its caller was answered already (abandon())
  };

  boost::asio::awaitable<void> run();
  boost::asio::awaitable<void> watch();
  // Reads replies until the connection drops; returns why.
  boost::asio::awaitable<boost::system::error_code> read_replies();
  void enqueue(const std::vector<std::string>& args, Waiter waiter);
  void write_more();
  // Resumes the command's caller on its own executor; failed: with RedisUnavailable.
  void complete(Waiter waiter, bool failed, RedisReply reply);
  void drop(std::string_view why);
  void fail_pending();

  Executor executor_;
  RedisAddress address_;
  std::string name_;
  std::chrono::milliseconds reply_timeout_;
  Stream stream_;
  boost::asio::steady_timer pause_;
  boost::asio::steady_timer watchdog_;
  redisReader* reader_ = nullptr;
  std::uint64_t generation_ = 0;  // which connection: handlers of an older one stand down
  std::function<void()> on_connected_;
  std::function<void(RedisReply)> on_push_;
  std::deque<Pending> pending_;
  std::string outgoing_;  // formatted commands not yet handed to a write
  std::string writing_;   // the buffer of the write in flight
  bool write_in_flight_ = false;
  bool stopped_ = false;
  std::atomic<bool> connected_{false};  // written on the executor, read anywhere
};

}  // namespace tilerace::server
