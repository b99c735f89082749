#include "server/net/ws_session.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "protocol/decode.hpp"
#include "protocol/encode.hpp"
#include "server/net/expected_close.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using asio::as_tuple;
using asio::use_awaitable;

namespace {

// Logs unexpected errors; expected ends of a connection stay quiet.
void fail(beast::error_code ec, const char* what, const std::string& remote) {
  if (expected_close(ec)) return;
  spdlog::warn("{} {}: {}", remote, what, ec.message());
}

constexpr auto kCloseStall = std::chrono::seconds(5);

}  // namespace

template <class Next>
BasicWsSession<Next>::BasicWsSession(Next&& stream, ServerContext& context,
                                     AddressLimits::Slot slot, std::string remote)
    : ws_(std::move(stream)),
      context_(context),
      remote_(std::move(remote)),
      hard_close_(ws_.get_executor()),
      idle_timer_(ws_.get_executor()),
      // Silent for --keepalive (15 s): pinged; for twice that: closed (PROTOCOL.md §8).
      idle_(std::chrono::seconds(context.edge.keepalive),
            std::chrono::seconds(2 * context.edge.keepalive), std::chrono::steady_clock::now()),
      limiter_(context.edge.rate, RateLimiter::clock::now()),
      slot_(std::move(slot)) {
  connection_.address = slot_.key();
}

template <class Next>
void BasicWsSession<Next>::start(beast::http::request<beast::http::string_body> request) {
  connection_.self = this->weak_from_this();
  // In the set before any handler can run (so it is never removed before it is added), and
  // owned by the coroutine's frame from its creation (add may post a shutdown onto its thread,
  // and then the coroutine starts after it, not inline).
  auto session = run(this->shared_from_this(), std::move(request));
  context_.sessions.add(this->shared_from_this());
  asio::co_spawn(ws_.get_executor(), std::move(session), asio::detached);
}

template <class Next>
asio::awaitable<void> BasicWsSession<Next>::run(
    [[maybe_unused]] std::shared_ptr<BasicWsSession> self,
    beast::http::request<beast::http::string_body> request) {
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = std::chrono::seconds(10);
  // Keep-alive is ours (IdleWatch): Beast's idle timeout re-arms a timer with every read.
  timeouts.idle_timeout = websocket::stream_base::none();
  ws_.set_option(timeouts);
  ws_.read_message_max(context_.edge.max_message);
  ws_.auto_fragment(false);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(beast::http::field::server, "tilerace"); }));

  auto [ec] = co_await ws_.async_accept(request, as_tuple(use_awaitable));
  if (ec) {
    done_ = true;
    context_.sessions.remove(this);
    co_return fail(ec, "accept", remote_);
  }
  open_ = true;
  ws_.control_callback([this](websocket::frame_type, beast::string_view) {
    idle_.heard(std::chrono::steady_clock::now());
  });
  idle_.heard(std::chrono::steady_clock::now());
  watch_idle(std::chrono::steady_clock::now() + std::chrono::seconds(context_.edge.keepalive));
  context_.metrics.connections.fetch_add(1, std::memory_order_relaxed);
  context_.metrics.connections_total.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("{} connected", remote_);
  if (shutting_down_) say_goodbye();
  read_next();
}

template <class Next>
void BasicWsSession<Next>::read_next() {
  buffer_.clear();
  ws_.async_read(buffer_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
    self->on_read(ec);
  });
}

template <class Next>
void BasicWsSession<Next>::on_read(beast::error_code ec) {
  if (ec) {
    fail(ec, "read", remote_);
    return finish();
  }
  if (closing_) return read_next();  // draining until the peer answers our close
  if (!ws_.got_text()) {
    begin_close(websocket::close_code::unknown_data);  // 1003: binary frames
    return read_next();
  }
  const auto data = buffer_.cdata();
  std::optional<asio::awaitable<void>> rest;
  try {
    rest = handle_text({static_cast<const char*>(data.data()), data.size()});
  } catch (...) {
    internal_error(std::current_exception());
  }
  if (!rest) return read_next();
  // Storage is in the way: the rest runs as a coroutine, and the next message waits for it.
  asio::co_spawn(
      ws_.get_executor(), std::move(*rest),
      [self = this->shared_from_this()](std::exception_ptr e) {
        if (e) self->internal_error(e);
        self->context_.metrics.observe_handling(std::chrono::steady_clock::now() - self->started_);
        self->read_next();
      });
}

template <class Next>
void BasicWsSession<Next>::finish() {
  // The reader has ended (whatever ended it): the connection is gone for everyone.
  done_ = true;
  hard_close_.cancel();
  idle_timer_.cancel();
  context_.dispatcher.disconnected(connection_);
  context_.sessions.remove(this);
  context_.metrics.connections.fetch_sub(1, std::memory_order_relaxed);
  spdlog::info("{} disconnected{}", remote_,
               closing_ ? " (close " + std::to_string(*closing_) + ")" : "");
}

template <class Next>
std::optional<asio::awaitable<void>> BasicWsSession<Next>::handle_text(std::string_view text) {
  started_ = std::chrono::steady_clock::now();
  idle_.heard(started_);
  context_.metrics.messages_in_total.fetch_add(1, std::memory_order_relaxed);
  switch (limiter_.admit(started_)) {
    case RateLimiter::Verdict::disconnect:
      begin_close(websocket::close_code::policy_error);  // 1008
      return std::nullopt;
    case RateLimiter::Verdict::drop: return std::nullopt;
    case RateLimiter::Verdict::reject: {
      const protocol::Decoded decoded = protocol::decode_client(text);
      context_.dispatcher.send_error(
          connection_, {protocol::ErrorCode::rate_limited, "too many messages: slow down", ""},
          decoded.rid);
      return std::nullopt;
    }
    case RateLimiter::Verdict::allow: break;
  }
  decoded_ = protocol::decode_client(text);
  std::optional<asio::awaitable<void>> rest = context_.dispatcher.handle(connection_, *decoded_);
  if (!rest) context_.metrics.observe_handling(std::chrono::steady_clock::now() - started_);
  return rest;
}

template <class Next>
void BasicWsSession<Next>::internal_error(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    spdlog::error("{} handling a message: {}", remote_, x.what());
  } catch (...) {
    spdlog::error("{} handling a message: unknown exception", remote_);
  }
  context_.dispatcher.send_error(connection_, {protocol::ErrorCode::internal, "internal error", ""},
                                 decoded_ ? decoded_->rid : protocol::Rid{});
}

template <class Next>
void BasicWsSession<Next>::write_next() {
  if (writing_ || done_) return;
  if (!queue_.empty()) {
    writing_ = true;
    // Asio tries the send at once, before this returns; the completion only tidies up.
    ws_.async_write(asio::buffer(*queue_.front()),
                    [self = this->shared_from_this(), message = queue_.front()](
                        beast::error_code ec, std::size_t) { self->on_written(ec, message); });
    return;
  }
  if (ping_due_ && !closing_) {
    ping_due_ = false;
    writing_ = true;
    ws_.async_ping({}, [self = this->shared_from_this()](beast::error_code ec) {
      self->writing_ = false;
      if (ec) return fail(ec, "ping", self->remote_);
      self->write_next();
    });
    return;
  }
  if (!closing_ || close_started_) return;
  close_started_ = true;
  writing_ = true;
  ws_.async_close(websocket::close_reason(*closing_),
                  [self = this->shared_from_this()](beast::error_code ec) {
                    self->writing_ = false;
                    if (ec) return fail(ec, "close", self->remote_);
                  });
}

template <class Next>
void BasicWsSession<Next>::on_written(beast::error_code ec, const SharedMessage& message) {
  writing_ = false;
  if (ec) return fail(ec, "write", remote_);  // the reader sees the end too
  context_.metrics.messages_out_total.fetch_add(1, std::memory_order_relaxed);
  if (!queue_.empty() && queue_.front() == message) {  // a 1013 may have cleared the queue
    queued_bytes_ -= message->size();
    queue_.pop_front();
  }
  write_next();
}

template <class Next>
void BasicWsSession<Next>::watch_idle(std::chrono::steady_clock::time_point at) {
  idle_timer_.expires_at(at);
  idle_timer_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
    if (ec || self->done_) return;
    const IdleWatch::Next next = self->idle_.check(std::chrono::steady_clock::now());
    switch (next.action) {
      case IdleWatch::Action::close: {
        self->context_.metrics.silent_closes_total.fetch_add(1, std::memory_order_relaxed);
        spdlog::info("{} silent for {} s: closing", self->remote_,
                     2 * self->context_.edge.keepalive);
        beast::error_code ignored;
        socket_of(self->ws_.next_layer()).close(ignored);
        return;
      }
      case IdleWatch::Action::ping:
        self->context_.metrics.keepalive_pings_total.fetch_add(1, std::memory_order_relaxed);
        self->ping_due_ = true;
        self->write_next();
        break;
      case IdleWatch::Action::wait: break;
    }
    self->watch_idle(next.check_at);
  });
}

template <class Next>
void BasicWsSession<Next>::enqueue(SharedMessage message) {
  if (closing_ || done_) return;
  if (queue_.size() >= kMaxQueuedMessages || queued_bytes_ + message->size() > kMaxQueuedBytes) {
    context_.metrics.send_queue_overflows_total.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("{} is not reading its messages: closing (1013)", remote_);
    // Keep only the write in flight (it holds the front); drop the rest.
    if (!queue_.empty()) queue_.erase(queue_.begin() + 1, queue_.end());
    queued_bytes_ = queue_.empty() ? 0 : queue_.front()->size();
    begin_close(websocket::close_code::try_again_later);
    return;
  }
  queued_bytes_ += message->size();
  queue_.push_back(std::move(message));
  write_next();
}

template <class Next>
void BasicWsSession<Next>::begin_close(std::uint16_t code) {
  if (closing_ || done_) return;
  closing_ = code;
  write_next();
  // A peer that neither reads nor answers the close is cut off.
  hard_close_.expires_after(kCloseStall);
  hard_close_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
    if (ec || self->done_) return;
    beast::error_code ignored;
    socket_of(self->ws_.next_layer()).close(ignored);
  });
}

template <class Next>
void BasicWsSession<Next>::deliver(SharedMessage message) {
  // Inline only when nothing delivered earlier is still on its way: order is kept.
  if (posted_.load(std::memory_order_acquire) == 0 && ws_.get_executor().running_in_this_thread()) {
    return enqueue(std::move(message));
  }
  posted_.fetch_add(1, std::memory_order_acq_rel);
  asio::post(ws_.get_executor(),
             [self = this->shared_from_this(), m = std::move(message)]() mutable {
               self->posted_.fetch_sub(1, std::memory_order_acq_rel);
               self->enqueue(std::move(m));
             });
}

template <class Next>
void BasicWsSession<Next>::close(std::uint16_t code) {
  asio::post(ws_.get_executor(),
             [self = this->shared_from_this(), code] { self->begin_close(code); });
}

template <class Next>
void BasicWsSession<Next>::say_goodbye() {
  enqueue(std::make_shared<const std::string>(protocol::encode_shutdown()));
  begin_close(websocket::close_code::going_away);
}

template <class Next>
void BasicWsSession<Next>::shutdown() {
  asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
    self->shutting_down_ = true;
    if (self->open_) self->say_goodbye();
  });
}

template <class Next>
void BasicWsSession<Next>::abort() {
  asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
    beast::error_code ignored;
    socket_of(self->ws_.next_layer()).close(ignored);
  });
}

template class BasicWsSession<TcpSocket>;
template class BasicWsSession<TlsStream>;

}  // namespace tilerace::server
