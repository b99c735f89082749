#pragma once
// One WebSocket connection, plain or over TLS. Beast completes the upgrade; then the session
// frames its messages itself (WsFrameReader, ws_frame_header) over the bare socket (over TLS,
// through a TlsChannel: records straight over the socket, not Beast's SSL stream): when
// SocketReadiness says the socket has something (no read that finds nothing), it reads whatever
// has arrived in one go into its thread's receive buffer (shared by the thread's sessions; a
// session keeps only what it could not handle yet), decodes every whole frame in it where it lies,
// hands each text message (size- and rate-limited) to the dispatcher, and writes everything
// queued — up to kMaxBatch frames — in one write, with exactly one write in flight. A peer that
// lets more than kMaxQueuedMessages or kMaxQueuedBytes pile up is closed with 1013. All member
// functions but deliver/close/shutdown/abort run on the session's thread. The session is in the
// SessionSet from start() until its last handler; it owns its Connection, which holds only a weak
// handle back to it. A message delivered on that thread with nothing posted ahead of it is queued,
// and its write begun, at once: a player's own reply goes out without a trip through the
// scheduler's queue.
#include <boost/asio/buffer.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "server/base/address_limits.hpp"
#include "server/net/idle_watch.hpp"
#include "server/net/network_threads.hpp"
#include "server/net/rate_limiter.hpp"
#include "server/net/raw_socket.hpp"
#include "server/net/session_set.hpp"
#include "server/net/socket_readiness.hpp"
#include "server/net/streams.hpp"
#include "server/net/tls_channel.hpp"
#include "server/net/ws_context.hpp"
#include "server/net/ws_frames.hpp"
#include "server/rules/participant.hpp"

namespace tilerace::server {

// Next is the stream under the WebSocket: TcpSocket (ws://) or TlsStream (wss://).
template <class Next>
class BasicWsSession final : public Participant,
                             public Session,
                             public SocketReadiness::Watcher,
                             public std::enable_shared_from_this<BasicWsSession<Next>> {
 public:
  static constexpr std::size_t kMaxQueuedMessages = 64;
  static constexpr std::size_t kMaxQueuedBytes = 256 * 1024;
  static constexpr std::size_t kMaxBatch = 16;  // frames in one write
  static constexpr int kReadsPerTurn = 8;       // full reads in a row before the others' turn

  // slot counts the client's connection; remote names the client in logs; context outlives
  // the session.
  BasicWsSession(Next&& stream, const WsContext& context, AddressLimits::Slot slot,
                 std::string remote);

  // Completes the upgrade for request and runs the session until the connection closes.
  void start(boost::beast::http::request<boost::beast::http::string_body> request);

  void deliver(SharedMessage message) override;
  void close(std::uint16_t code) override;
  bool probe(std::function<void()> heard) override;
  // Server shutdown: sends {"type":"shutdown"}, then closes with 1001 (a session still in its
  // handshake does so as soon as the handshake completes).
  void shutdown() override;
  void abort() override;
  void readable(bool ended) override;
  void writable() override;

 private:
  // A frame waiting to be written: a message (text), or a control frame.
  struct Outgoing {
    SharedMessage payload;
    WsOp op = WsOp::text;
    // A move's reply: when the move's frame was read (metrics' move_reply); else empty.
    std::chrono::steady_clock::time_point move_read_at{};
  };

  // self keeps the session alive for as long as the coroutine exists, from its creation.
  boost::asio::awaitable<void> run(
      std::shared_ptr<BasicWsSession> self,
      boost::beast::http::request<boost::beast::http::string_body> request);
  // The reader: reads whatever has arrived, in one go, while the socket may have more
  // (SocketReadiness says when it has), and handles it; no operation or coroutine per message.
  // A message whose handling needs storage continues as a coroutine, and the frames and reads
  // after it wait for it (paused_).
  void pump();
  // Handles the whole frames at the front of data (in the thread's receive buffer) until one
  // waits for storage (then pauses the reader); keeps what is left in pending_.
  void handle_frames(std::span<char> data);
  // Handles what pending_ keeps, in the thread's receive buffer.
  void handle_pending();
  // The thread's receive buffer, with room for a whole frame past what pending_ keeps, which is
  // copied to its front (pending_ itself is left as it is).
  std::span<char> buffer_with_pending();
  // Rate limit, then the sink; returns the rest of the work when storage is in the way.
  MessageSink::Work handle_text(std::string_view text);
  // A message's handling threw: logged, and the client gets `internal`.
  void internal_error(const std::exception_ptr& e);
  // The reader has ended: the connection is gone for everyone.
  void finish();
  void enqueue(SharedMessage message);
  // Writes what is queued (or, once closing and drained, the close frame) unless a write is in
  // flight.
  void write_next();
  // Sends what is left of the write in flight as far as the socket takes it; true when all of
  // it is sent or ec says why not.
  bool send_rest(boost::beast::error_code& ec);
  // The write of the in_flight_ frames at the queue's front has ended.
  void on_written(boost::beast::error_code ec);
  void begin_close(std::uint16_t code);
  // The close handshake is over (or failed): the connection is done.
  void close_socket();
  // Closes the socket at once (a broken or silent peer, shutdown): the connection is gone.
  void cut_off();
  // Something arrived from the peer at now: the keep-alive and the probes hear it.
  void heard(std::chrono::steady_clock::time_point now);
  // Sets the keep-alive timer to at; when it fires, pings or closes as idle_ says.
  void watch_idle(std::chrono::steady_clock::time_point at);
  void say_goodbye();
  RawSocket& raw();

  NetExecutor executor_;
  // The upgrade, with Beast's handshake timeout; released once it is done.
  std::optional<boost::beast::websocket::stream<Next>> upgrade_;
  // After the upgrade, what the frames travel on: the socket, or TLS records over it.
  using Framed = std::conditional_t<std::is_same_v<Next, TlsStream>, TlsChannel, RawSocket>;
  std::optional<Framed> stream_;
  const WsContext& context_;
  std::string remote_;
  // Received bytes not handled yet: a partial frame, or the frames after one whose handling
  // waits for storage. Usually empty (and then holds no memory).
  std::vector<char> pending_;
  WsFrameReader frames_;
  bool read_failed_ = false;              // the peer broke the protocol: what it sends is discarded
  SocketReadiness* readiness_ = nullptr;  // this thread's, once the upgrade is done
  std::uint64_t watch_ = 0;
  bool readable_ = false;  // the socket may have more to read
  bool ended_ = false;     // the peer's end or an error is there to read
  bool paused_ = false;    // a message's handling waits for storage: no reading meanwhile
  std::optional<protocol::Decoded> decoded_;       // the sink's reading of the message handled
  std::chrono::steady_clock::time_point started_;  // when its handling began
  // While a move is handled: when its frame was read, for the first message queued (its reply).
  std::optional<std::chrono::steady_clock::time_point> move_read_at_;
  std::vector<Outgoing> queue_;  // the first in_flight_ are being written
  std::size_t queued_bytes_ = 0;
  // Frames in the write in flight (0: none is); outside write_next, one in flight is waiting
  // for the socket to take more (a write the socket took whole has ended at once).
  std::size_t in_flight_ = 0;
  std::vector<boost::asio::const_buffer> buffers_;  // the write in flight, headers and payloads
  std::array<char, kMaxBatch * kMaxWsHeader> headers_{};
  bool close_sent_ = false;
  bool close_received_ = false;
  std::atomic<int> posted_{0};            // deliveries posted and not yet queued
  boost::asio::steady_timer hard_close_;  // tears the socket down if a close stalls
  boost::asio::steady_timer idle_timer_;  // keep-alive: fires when idle_ says, not per message
  IdleWatch idle_;
  bool ping_due_ = false;                      // a keep-alive ping waits for the write in flight
  std::vector<std::function<void()>> probes_;  // waiting to hear from the peer (probe)
  std::optional<std::uint16_t> closing_;       // the close code, once decided (0: an empty close)
  bool done_ = false;                          // the reader has ended
  bool open_ = false;                          // the handshake completed
  bool shutting_down_ = false;                 // shutdown() came
  RateLimiter limiter_;
  AddressLimits::Slot slot_;
  Connection connection_{*this};
};

extern template class BasicWsSession<TcpSocket>;
extern template class BasicWsSession<TlsStream>;
using WsSession = BasicWsSession<TcpSocket>;
using TlsWsSession = BasicWsSession<TlsStream>;

}  // namespace tilerace::server
