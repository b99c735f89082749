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

#include <algorithm>
#include <span>
#include <type_traits>
#include <utility>

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

// Removes the first n bytes from buffers.
void drop_front(std::vector<asio::const_buffer>& buffers, std::size_t n) {
  auto it = buffers.begin();
  for (; it != buffers.end() && n >= it->size(); ++it) n -= it->size();
  buffers.erase(buffers.begin(), it);
  if (!buffers.empty()) buffers.front() += n;
}

// The network thread's receive buffer, at least at_least bytes: its sessions read into it in
// turn, and each handles what it read (keeping only what it cannot handle yet) before any other
// reads. 16 KiB takes a burst of many client messages (moves are ~40 bytes) in one read.
std::span<char> receive_buffer(std::size_t at_least) {
  thread_local std::vector<char> buffer;
  if (buffer.size() < at_least) buffer.resize(std::max<std::size_t>(at_least, 16 * 1024));
  return buffer;
}

}  // namespace

template <class Next>
BasicWsSession<Next>::BasicWsSession(Next&& stream, const WsContext& context,
                                     AddressLimits::Slot slot, std::string remote)
    : executor_(socket_of(stream).get_executor()),
      upgrade_(std::in_place, std::move(stream)),
      context_(context),
      remote_(std::move(remote)),
      frames_(context.edge.max_message),
      hard_close_(executor_),
      idle_timer_(executor_),
      // Silent for --keepalive (15 s): pinged; for twice that: closed (PROTOCOL.md §8).
      idle_(std::chrono::seconds(context.edge.keepalive),
            std::chrono::seconds(2 * context.edge.keepalive), std::chrono::steady_clock::now()),
      limiter_(context.edge.rate, RateLimiter::clock::now()),
      slot_(std::move(slot)) {
  connection_.address = slot_.key();
}

template <class Next>
RawSocket& BasicWsSession<Next>::raw() {
  if constexpr (std::is_same_v<Next, TcpSocket>) {
    return *stream_;
  } else {
    return stream_->socket();
  }
}

template <class Next>
void BasicWsSession<Next>::start(beast::http::request<beast::http::string_body> request) {
  connection_.self = this->weak_from_this();
  // A bot may sign in with its API token on the upgrade (docs/bots.md); hello says whether.
  constexpr std::string_view kBearer = "Bearer ";
  if (const std::string_view auth = request[beast::http::field::authorization];
      auth.starts_with(kBearer) && auth.size() - kBearer.size() <= protocol::kMaxTokenBytes) {
    connection_.bearer = std::string(auth.substr(kBearer.size()));
  }
  // In the set before any handler can run (so it is never removed before it is added), and
  // owned by the coroutine's frame from its creation (add may post a shutdown onto its thread,
  // and then the coroutine starts after it, not inline).
  auto session = run(this->shared_from_this(), std::move(request));
  context_.sessions.add(this->shared_from_this());
  asio::co_spawn(executor_, std::move(session), asio::detached);
}

template <class Next>
asio::awaitable<void> BasicWsSession<Next>::run(
    [[maybe_unused]] std::shared_ptr<BasicWsSession> self,
    beast::http::request<beast::http::string_body> request) {
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = std::chrono::seconds(10);
  timeouts.idle_timeout = websocket::stream_base::none();
  upgrade_->set_option(timeouts);
  upgrade_->set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(beast::http::field::server, "tilerace"); }));

  auto [ec] = co_await upgrade_->async_accept(request, as_tuple(use_awaitable));
  if (ec) {
    done_ = true;
    context_.sessions.remove(this);
    co_return fail(ec, "accept", remote_);
  }
  // From here on the frames are ours: the stream leaves Beast's WebSocket, whose buffers go.
  try {
    // Out of Asio's reactor: reads and sends never wait, SocketReadiness says when to try.
    stream_.emplace(std::move(upgrade_->next_layer()));
    upgrade_.reset();
    readiness_ = &asio::use_service<SocketReadiness>(executor_.context());
    watch_ = readiness_->watch(raw().native_handle(), this->shared_from_this());
  } catch (const std::exception& e) {
    done_ = true;
    context_.sessions.remove(this);
    co_return spdlog::warn("{} {}: closing", remote_, e.what());
  }
  open_ = true;
  idle_.heard(std::chrono::steady_clock::now());
  watch_idle(std::chrono::steady_clock::now() + std::chrono::seconds(context_.edge.keepalive));
  context_.metrics.connections.fetch_add(1, std::memory_order_relaxed);
  context_.metrics.connections_total.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("{} connected", remote_);
  if (shutting_down_) say_goodbye();
  readable_ = true;  // what came with the upgrade's answer is read now
  pump();
}

template <class Next>
void BasicWsSession<Next>::readable(bool ended) {
  readable_ = true;
  ended_ = ended_ || ended;
  pump();
}

template <class Next>
void BasicWsSession<Next>::writable() {
  if (in_flight_ == 0) return;
  beast::error_code ec;
  if (send_rest(ec)) on_written(ec);  // else the next edge says when the socket takes more
}

template <class Next>
void BasicWsSession<Next>::pump() {
  for (int reads = 0; readable_ && !paused_ && !done_; ++reads) {
    if (reads == kReadsPerTurn) {
      // A busy peer leaves the thread to the others for a turn.
      asio::post(executor_, [self = this->shared_from_this()] { self->pump(); });
      return;
    }
    // What is kept from before goes first (at most a partial frame here), then whatever has
    // arrived.
    const std::span<char> buffer = buffer_with_pending();
    const std::size_t kept = pending_.size();
    const std::size_t room = buffer.size() - kept;
    beast::error_code ec;
    const std::size_t bytes = stream_->read_some(asio::buffer(buffer.data() + kept, room), ec);
    if (ec == asio::error::would_block) {
      readable_ = false;  // until the next edge
      return;
    }
    if (ec) {
      fail(ec, "read", remote_);
      return finish();
    }
    // A short read has emptied the socket: the next edge says when there is more (but no edge
    // follows the end: once it is there, reading goes on to it).
    readable_ = bytes == room || ended_;
    if constexpr (!std::is_same_v<Next, TcpSocket>) readable_ = readable_ || stream_->more();
    std::vector<char>().swap(pending_);
    handle_frames(buffer.first(kept + bytes));
  }
}

template <class Next>
std::span<char> BasicWsSession<Next>::buffer_with_pending() {
  // A whole frame at the message limit (header and mask included) fits with room to spare: the
  // frame reader refuses larger ones before they arrive.
  const std::span<char> buffer = receive_buffer(context_.edge.max_message + kMaxWsHeader + 5);
  std::copy(pending_.begin(), pending_.end(), buffer.begin());
  return buffer;
}

template <class Next>
void BasicWsSession<Next>::handle_pending() {
  if (pending_.empty()) return;
  const std::span<char> buffer = buffer_with_pending();
  const std::size_t kept = pending_.size();
  std::vector<char>().swap(pending_);
  handle_frames(buffer.first(kept));
}

template <class Next>
void BasicWsSession<Next>::handle_frames(std::span<char> data) {
  std::size_t offset = 0;
  MessageSink::Work rest;
  while (!read_failed_ && !close_received_ && !rest) {
    std::size_t used = 0;
    const std::optional<WsEvent> event = frames_.next(data.subspan(offset), used);
    offset += used;
    if (!event) break;
    switch (event->kind) {
      case WsEvent::Kind::text:
        if (closing_) break;  // draining until the peer answers our close
        try {
          rest = handle_text(event->payload);
        } catch (...) {
          internal_error(std::current_exception());
        }
        break;
      case WsEvent::Kind::binary: begin_close(websocket::close_code::unknown_data); break;
      case WsEvent::Kind::ping:
        heard(std::chrono::steady_clock::now());
        if (!closing_) {
          queue_.push_back({std::make_shared<const std::string>(event->payload), WsOp::pong});
          write_next();
        }
        break;
      case WsEvent::Kind::pong: heard(std::chrono::steady_clock::now()); break;
      case WsEvent::Kind::close:
        close_received_ = true;
        if (close_sent_) {
          close_socket();
        } else {
          begin_close(event->code);  // echoed (0: an empty close)
        }
        break;
      case WsEvent::Kind::fail:
        spdlog::warn("{} sent {}: closing ({})", remote_, event->payload, event->code);
        read_failed_ = true;
        begin_close(event->code);
        break;
    }
  }
  // What is left is kept (nothing, once the peer has broken the protocol or closed: nothing
  // more of it is read). A frame that does not fit the buffer whole fails before this.
  if (!read_failed_ && !close_received_) pending_.assign(data.begin() + offset, data.end());
  if (!rest) return;
  // Storage is in the way: the rest runs as a coroutine, and the next frames wait for it.
  paused_ = true;
  asio::co_spawn(
      executor_, std::move(*rest), [self = this->shared_from_this()](std::exception_ptr e) {
        if (e) self->internal_error(e);
        self->move_read_at_.reset();
        self->context_.metrics.handling.observe(std::chrono::steady_clock::now() - self->started_);
        self->paused_ = false;
        self->handle_pending();
        self->pump();
      });
}

template <class Next>
void BasicWsSession<Next>::finish() {
  // The reader has ended (whatever ended it): the connection is gone for everyone.
  if (done_) return;
  done_ = true;
  readiness_->stop(watch_);
  hard_close_.cancel();
  idle_timer_.cancel();
  context_.sink.disconnected(connection_);
  context_.sessions.remove(this);
  context_.metrics.connections.fetch_sub(1, std::memory_order_relaxed);
  spdlog::info("{} disconnected{}", remote_,
               closing_ ? " (close " + std::to_string(*closing_) + ")" : "");
}

template <class Next>
MessageSink::Work BasicWsSession<Next>::handle_text(std::string_view text) {
  started_ = std::chrono::steady_clock::now();
  heard(started_);
  context_.metrics.messages_in_total.fetch_add(1, std::memory_order_relaxed);
  switch (limiter_.admit(started_)) {
    case RateLimiter::Verdict::disconnect:
      begin_close(websocket::close_code::policy_error);  // 1008
      return std::nullopt;
    case RateLimiter::Verdict::drop: return std::nullopt;
    case RateLimiter::Verdict::reject:
      context_.sink.refused(connection_, text);
      return std::nullopt;
    case RateLimiter::Verdict::allow: break;
  }
  if (context_.sink.read(text, decoded_)) move_read_at_ = started_;
  MessageSink::Work rest = context_.sink.handle(connection_, text, decoded_);
  if (!rest) {
    move_read_at_.reset();
    context_.metrics.handling.observe(std::chrono::steady_clock::now() - started_);
  }
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
  context_.sink.failed(connection_, decoded_);
}

template <class Next>
void BasicWsSession<Next>::write_next() {
  if (in_flight_ > 0 || done_ || !stream_ || close_sent_) return;
  if (queue_.empty()) {
    if (ping_due_ && !closing_) {
      ping_due_ = false;
      queue_.push_back({std::make_shared<const std::string>(), WsOp::ping});
    } else if (closing_) {
      std::string code;
      if (*closing_ != 0) code = {static_cast<char>(*closing_ >> 8), static_cast<char>(*closing_)};
      queue_.push_back({std::make_shared<const std::string>(std::move(code)), WsOp::close});
    } else {
      return;
    }
  }
  // Everything queued, up to kMaxBatch frames, in one write: one send for all of it.
  in_flight_ = std::min(queue_.size(), kMaxBatch);
  buffers_.clear();
  for (std::size_t i = 0; i < in_flight_; ++i) {
    const Outgoing& out = queue_[i];
    char* header = headers_.data() + i * kMaxWsHeader;
    buffers_.emplace_back(header, ws_frame_header(out.op, out.payload->size(), header));
    buffers_.emplace_back(out.payload->data(), out.payload->size());
    if (out.op == WsOp::close) {
      close_sent_ = true;
      in_flight_ = i + 1;
      break;
    }
  }
  // The socket is non-blocking: send now, and when it all went (the usual case), be done
  // without an operation or a completion to schedule. What the socket cannot take yet is sent
  // when it can take more (writable).
  beast::error_code ec;
  bool sent = false;
  if constexpr (std::is_same_v<Next, TcpSocket>) {
    sent = send_rest(ec);
  } else {
    // Over TLS the frames are sealed as one record; what the socket cannot take is already
    // sealed, and goes as it is.
    sent = stream_->seal_and_send(buffers_, ec);
  }
  if (sent) return on_written(ec);
  try {
    readiness_->want_writable(watch_);
  } catch (const std::exception& e) {
    spdlog::warn("{} {}: closing", remote_, e.what());
    on_written(asio::error::fault);
  }
}

template <class Next>
bool BasicWsSession<Next>::send_rest(beast::error_code& ec) {
  if constexpr (std::is_same_v<Next, TcpSocket>) {
    const std::size_t sent = stream_->write_some(buffers_, ec);
    if (ec == asio::error::would_block) {
      ec = {};
      return false;
    }
    if (ec) return true;
    drop_front(buffers_, sent);
    return buffers_.empty();
  } else {
    return stream_->flush(ec);
  }
}

template <class Next>
void BasicWsSession<Next>::on_written(beast::error_code ec) {
  const std::size_t frames = std::exchange(in_flight_, 0);
  if (ec) {
    // The connection is broken. Cut off later, not here: a direct send runs inside deliver,
    // under the lock of whoever delivers (a room), and cutting off tells the room.
    fail(ec, "write", remote_);
    asio::post(executor_, [self = this->shared_from_this()] { self->cut_off(); });
    return;
  }
  std::size_t messages = 0;
  const auto written =
      queue_.begin() + static_cast<std::ptrdiff_t>(std::min(frames, queue_.size()));
  for (auto out = queue_.begin(); out != written; ++out) {
    if (out->op == WsOp::text) {
      ++messages;
      queued_bytes_ -= out->payload->size();
      if (out->move_read_at != std::chrono::steady_clock::time_point{}) {
        context_.metrics.move_reply.observe(std::chrono::steady_clock::now() - out->move_read_at);
      }
    }
  }
  queue_.erase(queue_.begin(), written);
  context_.metrics.messages_out_total.fetch_add(messages, std::memory_order_relaxed);
  if (close_sent_) {
    // The close handshake is complete, or the peer broke the protocol (the connection fails,
    // RFC 6455 §7.1.7): the reader finds the end. Otherwise it waits for the peer's close.
    if (close_received_ || read_failed_) close_socket();
    return;
  }
  write_next();
}

template <class Next>
void BasicWsSession<Next>::close_socket() {
  // Our side ends after the close frame (as Beast's teardown does): the reader goes on
  // discarding what the peer still sends until its end, then finishes the session, and the
  // descriptor goes with the session. A peer that never ends is cut off by hard_close_.
  raw().shutdown_send();
}

template <class Next>
void BasicWsSession<Next>::cut_off() {
  if (stream_) {
    raw().close();
  } else {
    // During the upgrade, Beast's operation ends with the error.
    beast::error_code ignored;
    socket_of(upgrade_->next_layer()).close(ignored);
  }
  if (open_) finish();
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
        self->cut_off();
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
    // Keep only the write in flight; drop the rest.
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(in_flight_), queue_.end());
    queued_bytes_ = 0;
    for (const Outgoing& out : queue_) {
      if (out.op == WsOp::text) queued_bytes_ += out.payload->size();
    }
    begin_close(websocket::close_code::try_again_later);
    return;
  }
  queued_bytes_ += message->size();
  queue_.push_back({std::move(message), WsOp::text,
                    move_read_at_.value_or(std::chrono::steady_clock::time_point{})});
  move_read_at_.reset();  // the reply is the first message a move queues
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
    self->cut_off();
  });
}

template <class Next>
void BasicWsSession<Next>::deliver(SharedMessage message) {
  // Inline only when nothing delivered earlier is still on its way: order is kept.
  if (posted_.load(std::memory_order_acquire) == 0 && executor_.running_in_this_thread()) {
    return enqueue(std::move(message));
  }
  posted_.fetch_add(1, std::memory_order_acq_rel);
  asio::post(executor_, [self = this->shared_from_this(), m = std::move(message)]() mutable {
    self->posted_.fetch_sub(1, std::memory_order_acq_rel);
    self->enqueue(std::move(m));
  });
}

template <class Next>
void BasicWsSession<Next>::close(std::uint16_t code) {
  asio::post(executor_, [self = this->shared_from_this(), code] { self->begin_close(code); });
}

template <class Next>
bool BasicWsSession<Next>::probe(std::function<void()> heard) {
  asio::post(executor_, [self = this->shared_from_this(), heard = std::move(heard)]() mutable {
    if (self->done_ || self->closing_) return;
    self->probes_.push_back(std::move(heard));
    self->ping_due_ = true;
    self->write_next();
  });
  return true;
}

template <class Next>
void BasicWsSession<Next>::heard(std::chrono::steady_clock::time_point now) {
  idle_.heard(now);
  if (probes_.empty()) return;
  for (auto& told : std::exchange(probes_, {})) told();
}

template <class Next>
void BasicWsSession<Next>::say_goodbye() {
  enqueue(std::make_shared<const std::string>(protocol::encode_shutdown()));
  begin_close(websocket::close_code::going_away);
}

template <class Next>
void BasicWsSession<Next>::shutdown() {
  asio::post(executor_, [self = this->shared_from_this()] {
    self->shutting_down_ = true;
    if (self->open_) self->say_goodbye();
  });
}

template <class Next>
void BasicWsSession<Next>::abort() {
  asio::post(executor_, [self = this->shared_from_this()] { self->cut_off(); });
}

template class BasicWsSession<TcpSocket>;
template class BasicWsSession<TlsStream>;

}  // namespace tilerace::server
