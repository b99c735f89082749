#pragma once
// One WebSocket connection, plain or over TLS: reads text frames (size- and rate-limited), hands
// each to the dispatcher, and writes queued messages with exactly one write in flight. A peer that
// lets more than kMaxQueuedMessages or kMaxQueuedBytes pile up is closed with 1013. All member
// functions but deliver/close/shutdown/abort run on the session's thread. The session is in the
// SessionSet from start() until its last handler; it owns its Connection, which holds only a weak
// handle back to it. A message delivered on that thread with nothing posted ahead of it is queued,
// and its write begun, at once: a player's own reply goes out without a trip through the
// scheduler's queue.
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <atomic>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "server/game/participant.hpp"
#include "server/net/idle_watch.hpp"
#include "server/net/network_threads.hpp"
#include "server/net/rate_limiter.hpp"
#include "server/net/server_context.hpp"
#include "server/net/streams.hpp"
#include "server/play/dispatcher.hpp"

namespace tilerace::server {

// Next is the stream under the WebSocket: TcpSocket (ws://) or TlsStream (wss://).
template <class Next>
class BasicWsSession final : public Participant,
                             public Session,
                             public std::enable_shared_from_this<BasicWsSession<Next>> {
 public:
  static constexpr std::size_t kMaxQueuedMessages = 64;
  static constexpr std::size_t kMaxQueuedBytes = 256 * 1024;

  // slot counts the client's connection; remote names the client in logs.
  BasicWsSession(Next&& stream, ServerContext& context, AddressLimits::Slot slot,
                 std::string remote);

  // Completes the upgrade for request and runs the session until the connection closes.
  void start(boost::beast::http::request<boost::beast::http::string_body> request);

  void deliver(SharedMessage message) override;
  void close(std::uint16_t code) override;
  // Server shutdown: sends {"type":"shutdown"}, then closes with 1001 (a session still in its
  // handshake does so as soon as the handshake completes).
  void shutdown() override;
  void abort() override;

 private:
  // self keeps the session alive for as long as the coroutine exists, from its creation.
  boost::asio::awaitable<void> run(
      std::shared_ptr<BasicWsSession> self,
      boost::beast::http::request<boost::beast::http::string_body> request);
  // The reader: one message at a time, as a chain of completion handlers (no coroutine per
  // message); a message whose handling needs storage continues as a coroutine, and the next
  // read starts when it is done.
  void read_next();
  void on_read(boost::beast::error_code ec);
  // Rate limit, decode, dispatch; returns the rest of the work when storage is in the way.
  std::optional<boost::asio::awaitable<void>> handle_text(std::string_view text);
  // A message's handling threw: logged, and the client gets `internal`.
  void internal_error(const std::exception_ptr& e);
  // The reader has ended: the connection is gone for everyone.
  void finish();
  void enqueue(SharedMessage message);
  // Starts the next write (or, once closing and drained, the close) unless one is in flight.
  void write_next();
  void on_written(boost::beast::error_code ec, const SharedMessage& message);
  void begin_close(std::uint16_t code);
  // Sets the keep-alive timer to at; when it fires, pings or closes as idle_ says.
  void watch_idle(std::chrono::steady_clock::time_point at);
  void say_goodbye();

  // Beast's own timeouts (handshake, close) and IdleWatch, no timer per operation.
  boost::beast::websocket::stream<Next> ws_;
  ServerContext& context_;
  std::string remote_;
  boost::beast::flat_buffer buffer_;
  std::optional<protocol::Decoded> decoded_;       // the message being handled
  std::chrono::steady_clock::time_point started_;  // when its handling began
  std::deque<SharedMessage> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;  // a write, a ping or the close is in flight
  bool close_started_ = false;
  std::atomic<int> posted_{0};            // deliveries posted and not yet queued
  boost::asio::steady_timer hard_close_;  // tears the socket down if a close stalls
  boost::asio::steady_timer idle_timer_;  // keep-alive: fires when idle_ says, not per message
  IdleWatch idle_;
  bool ping_due_ = false;                 // a keep-alive ping waits for the write in flight
  std::optional<std::uint16_t> closing_;  // the close code, once decided
  bool done_ = false;                     // the reader has ended
  bool open_ = false;                     // the handshake completed
  bool shutting_down_ = false;            // shutdown() came
  RateLimiter limiter_;
  AddressLimits::Slot slot_;
  Connection connection_{*this};
};

extern template class BasicWsSession<TcpSocket>;
extern template class BasicWsSession<TlsStream>;
using WsSession = BasicWsSession<TcpSocket>;
using TlsWsSession = BasicWsSession<TlsStream>;

}  // namespace tilerace::server
