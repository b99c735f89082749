#pragma once
// A WebSocket's TLS once the upgrade is answered: records opened and sealed by OpenSSL, with the
// session its handshake made, straight over the bare socket — no asio::ssl::stream engine after
// the handshake (its 17 KiB buffers each way and the copies through them, a record per buffer
// written, writes only asynchronous). OpenSSL reads ciphertext from this channel's receive buffer
// and writes records into its send buffer through a BIO of ours, so the frames of one write are
// one record, sent at once by the non-blocking socket when it takes them (the usual case), as on
// a plain connection. Used on the connection's thread only; not movable (the BIO points at it).
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>

#include <span>
#include <vector>

#include "server/net/raw_socket.hpp"
#include "server/net/streams.hpp"

struct ssl_st;
struct bio_st;
struct bio_method_st;

namespace tilerace::server {

class TlsChannel {
 public:
  // Takes stream's socket and TLS session; stream must have completed its handshake and every
  // write, and is left to be destroyed. Throws std::runtime_error if stream holds bytes received
  // and not read: a client sends nothing after its upgrade request until it has the answer
  // (RFC 6455 §4.1), so any is a broken client (its connection closes with the channel). The
  // socket leaves Asio's reactor (RawSocket).
  explicit TlsChannel(TlsStream&& stream);
  ~TlsChannel();
  TlsChannel(const TlsChannel&) = delete;
  TlsChannel& operator=(const TlsChannel&) = delete;

  RawSocket& socket() { return socket_; }

  // Reads plaintext into `into` (not empty) from what has arrived, without waiting: the socket
  // is read (non-blocking) only when what is buffered opens to nothing. Returns the bytes read,
  // or 0 with ec set: would_block when no whole record is there yet, eof at the peer's
  // close_notify or the stream's end, an SSL error for a bad record.
  std::size_t read_some(boost::asio::mutable_buffer into, boost::beast::error_code& ec);
  // True if more may be read before the socket's next edge: plaintext or whole ciphertext
  // buffered, or the socket's last read filled the buffer.
  bool more() const;

  // Seals the plaintext buffers, in order, as one record (more beyond 16 KiB) and sends what the
  // socket takes now. True: everything is sent, or ec says why not. False: the rest must be sent
  // by flush, when the socket can take more, before anything else is sealed (one write in
  // flight).
  bool seal_and_send(std::span<const boost::asio::const_buffer> plaintext,
                     boost::beast::error_code& ec);
  // Sends what seal_and_send left, as far as the socket takes it now; true and false as there.
  bool flush(boost::beast::error_code& ec);

 private:
  // OpenSSL's transport, made once: reads what the socket received, writes into sealed_.
  static const bio_method_st* method();
  static int bio_read(bio_st* bio, char* out, std::size_t size, std::size_t* read);
  static int bio_write(bio_st* bio, const char* data, std::size_t size, std::size_t* written);
  static long bio_ctrl(bio_st* bio, int command, long number, void* pointer);

  // True if plaintext may be had without reading the socket.
  bool buffered() const;
  // Opens received records into `into`; 0 (without an error) if no whole record is there.
  std::size_t open(boost::asio::mutable_buffer into, boost::beast::error_code& ec);

  RawSocket socket_;
  ssl_st* ssl_;
  std::vector<char> received_;  // ciphertext from the socket; OpenSSL has read [0, read_at_)
  std::size_t received_size_ = 0;
  std::size_t read_at_ = 0;
  bool filled_ = false;                // the socket's last read filled received_
  boost::beast::error_code deferred_;  // an error found after plaintext that went out first
  std::vector<char> plain_;            // the frames of one record, gathered
  std::vector<char> sealed_;           // records OpenSSL wrote, the socket has taken [0, sent_)
  std::size_t sent_ = 0;
};

}  // namespace tilerace::server
