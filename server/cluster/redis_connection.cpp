#include "server/cluster/redis_connection.hpp"

#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <array>

namespace tilerace::server {

namespace asio = boost::asio;
using asio::as_tuple;
using asio::use_awaitable;

namespace {

constexpr auto kConnectTimeout = std::chrono::seconds(2);

RedisReply convert(const redisReply& r) {
  RedisReply out;
  switch (r.type) {
    case REDIS_REPLY_STRING: out.type = RedisReply::Type::string; break;
    case REDIS_REPLY_STATUS: out.type = RedisReply::Type::status; break;
    case REDIS_REPLY_ERROR: out.type = RedisReply::Type::error; break;
    case REDIS_REPLY_INTEGER: out.type = RedisReply::Type::integer; break;
    case REDIS_REPLY_ARRAY: out.type = RedisReply::Type::array; break;
    default: out.type = RedisReply::Type::nil; break;
  }
  if (r.str != nullptr) out.str.assign(r.str, r.len);
  out.integer = r.integer;
  out.elements.reserve(r.elements);
  for (std::size_t i = 0; i < r.elements; ++i) out.elements.push_back(convert(*r.element[i]));
  return out;
}

}  // namespace

RedisConnection::RedisConnection(Executor executor, RedisAddress address, std::string name,
                                 std::chrono::milliseconds reply_timeout)
    : executor_(executor),
      address_(std::move(address)),
      name_(std::move(name)),
      reply_timeout_(reply_timeout),
      stream_(executor),
      pause_(executor),
      watchdog_(executor) {}

RedisConnection::~RedisConnection() {
  if (reader_ != nullptr) redisReaderFree(reader_);
}

void RedisConnection::start(std::function<void()> on_connected,
                            std::function<void(RedisReply)> on_push) {
  on_connected_ = std::move(on_connected);
  on_push_ = std::move(on_push);
  asio::co_spawn(
      executor_, [self = shared_from_this()] { return self->run(); }, asio::detached);
  asio::co_spawn(
      executor_, [self = shared_from_this()] { return self->watch(); }, asio::detached);
}

void RedisConnection::stop() {
  stopped_ = true;
  pause_.cancel();
  watchdog_.cancel();
  drop("stopped");
}

asio::awaitable<void> RedisConnection::run() {
  asio::ip::tcp::resolver resolver(executor_);
  bool reported = false;  // the outage was logged
  while (!stopped_) {
    auto [rec, endpoints] = co_await resolver.async_resolve(
        address_.host, std::to_string(address_.port), as_tuple(use_awaitable));
    boost::system::error_code ec = rec;
    if (!ec) {
      stream_.expires_after(kConnectTimeout);
      auto [cec, endpoint] = co_await stream_.async_connect(endpoints, as_tuple(use_awaitable));
      ec = cec;
    }
    if (stopped_) co_return;
    if (ec) {
      if (!reported)
        spdlog::warn("redis {}: cannot connect to {}:{}: {}", name_, address_.host, address_.port,
                     ec.message());
      reported = true;
      pause_.expires_after(kReconnectEvery);
      co_await pause_.async_wait(as_tuple(use_awaitable));
      continue;
    }
    stream_.expires_never();
    stream_.socket().set_option(asio::ip::tcp::no_delay(true), ec);
    reader_ = redisReaderCreate();
    ++generation_;
    connected_.store(true, std::memory_order_relaxed);
    spdlog::info("redis {}: connected to {}:{}", name_, address_.host, address_.port);
    reported = false;
    if (on_connected_) on_connected_();
    write_more();
    const boost::system::error_code why = co_await read_replies();
    if (connected()) drop(why.message());
  }
}

asio::awaitable<boost::system::error_code> RedisConnection::read_replies() {
  std::array<char, 16 * 1024> buffer;
  const std::uint64_t generation = generation_;
  for (;;) {
    auto [ec, n] = co_await stream_.async_read_some(asio::buffer(buffer), as_tuple(use_awaitable));
    if (ec) co_return ec;
    if (generation != generation_ || !connected())
      co_return asio::error::operation_aborted;  // dropped
    redisReaderFeed(reader_, buffer.data(), n);
    for (;;) {
      void* raw = nullptr;
      if (redisReaderGetReply(reader_, &raw) != REDIS_OK) {
        co_return asio::error::invalid_argument;  // not the Redis protocol
      }
      if (raw == nullptr) break;
      RedisReply reply = convert(*static_cast<redisReply*>(raw));
      freeReplyObject(raw);
      if (on_push_) {
        on_push_(std::move(reply));
      } else if (!pending_.empty()) {
        Pending done = std::move(pending_.front());
        pending_.pop_front();
        if (!done.abandoned) complete(std::move(done.waiter), false, std::move(reply));
      }
    }
  }
}

asio::awaitable<void> RedisConnection::watch() {
  while (!stopped_) {
    watchdog_.expires_after(std::min(std::chrono::milliseconds(500), reply_timeout_ / 4));
    co_await watchdog_.async_wait(as_tuple(use_awaitable));
    if (stopped_) co_return;
    if (connected() && !pending_.empty() &&
        std::chrono::steady_clock::now() - pending_.front().since > reply_timeout_) {
      spdlog::warn("redis {}: no reply for {} ms: reconnecting", name_, reply_timeout_.count());
      drop("reply timeout");
    }
  }
}

asio::awaitable<RedisReply> RedisConnection::command(std::vector<std::string> args) {
  auto initiation = [self = shared_from_this(), args = std::move(args)](auto handler) mutable {
    asio::any_io_executor resume_on = asio::get_associated_executor(handler, self->executor_);
    asio::post(self->executor_,
               [self, args = std::move(args),
                waiter = Waiter{Handler(std::move(handler)), resume_on}]() mutable {
                 self->enqueue(args, std::move(waiter));
               });
  };
  co_return co_await asio::async_initiate<const asio::use_awaitable_t<>,
                                          void(std::exception_ptr, RedisReply)>(initiation,
                                                                                use_awaitable);
}

void RedisConnection::send(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  char* formatted = nullptr;
  const int n = redisFormatCommandArgv(&formatted, static_cast<int>(args.size()), argv.data(),
                                       lengths.data());
  if (n < 0) throw std::bad_alloc();
  outgoing_.append(formatted, static_cast<std::size_t>(n));
  redisFreeCommand(formatted);
  write_more();
}

void RedisConnection::enqueue(const std::vector<std::string>& args, Waiter waiter) {
  if (!connected()) return complete(std::move(waiter), true, {});
  send(args);
  pending_.push_back({std::move(waiter), std::chrono::steady_clock::now()});
}

void RedisConnection::write_more() {
  if (!connected() || write_in_flight_ || outgoing_.empty()) return;
  writing_.swap(outgoing_);
  outgoing_.clear();
  write_in_flight_ = true;
  asio::async_write(stream_, asio::buffer(writing_),
                    [self = shared_from_this(), generation = generation_](
                        boost::system::error_code ec, std::size_t) {
                      self->write_in_flight_ = false;
                      self->writing_.clear();
                      // An error on a connection already replaced changes nothing.
                      if (ec && generation == self->generation_) return self->drop(ec.message());
                      self->write_more();
                    });
}

void RedisConnection::complete(Waiter waiter, bool failed, RedisReply reply) {
  std::exception_ptr error;
  if (failed) {
    error = std::make_exception_ptr(
        RedisUnavailable(fmt::format("redis {}:{} is unreachable", address_.host, address_.port)));
  }
  asio::post(waiter.executor,
             [handler = std::move(waiter.handler), error, reply = std::move(reply)]() mutable {
               std::move(handler)(error, std::move(reply));
             });
}

void RedisConnection::drop(std::string_view why) {
  const bool was_up = connected_.exchange(false, std::memory_order_relaxed);
  boost::system::error_code ignored;
  stream_.socket().close(ignored);
  if (reader_ != nullptr) {
    redisReaderFree(reader_);
    reader_ = nullptr;
  }
  outgoing_.clear();
  fail_pending();
  if (was_up && !stopped_) spdlog::warn("redis {}: connection lost ({})", name_, why);
}

void RedisConnection::fail_pending() {
  std::deque<Pending> failed;
  failed.swap(pending_);
  for (auto& p : failed) {
    if (!p.abandoned) complete(std::move(p.waiter), true, {});
  }
}

void RedisConnection::abandon() {
  asio::post(executor_, [self = shared_from_this()] {
    for (Pending& p : self->pending_) {
      if (p.abandoned) continue;
      p.abandoned = true;
      self->complete(std::move(p.waiter), true, {});
    }
  });
}

}  // namespace tilerace::server
