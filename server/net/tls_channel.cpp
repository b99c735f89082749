#include "server/net/tls_channel.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <boost/asio/ssl/error.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;

namespace {

// Ciphertext read from the socket at a time: a burst of client messages (moves are ~40 bytes,
// ~62 sealed). A larger record is read in pieces, which OpenSSL gathers.
constexpr std::size_t kReceiveSize = 4096;

// The last OpenSSL error on this thread, as the error code asio::ssl would give.
beast::error_code ssl_error() {
  const unsigned long e = ERR_get_error();
  if (e == 0) return asio::ssl::error::unexpected_result;
  return {static_cast<int>(e), asio::error::get_ssl_category()};
}

}  // namespace

const bio_method_st* TlsChannel::method() {
  static BIO_METHOD* const made = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "tilerace channel");
    if (m == nullptr || BIO_meth_set_read_ex(m, &bio_read) != 1 ||
        BIO_meth_set_write_ex(m, &bio_write) != 1 || BIO_meth_set_ctrl(m, &bio_ctrl) != 1) {
      throw std::runtime_error("OpenSSL: cannot make the TLS channel's BIO method");
    }
    return m;
  }();
  return made;
}

TlsChannel::TlsChannel(TlsStream&& stream) : socket_(stream.next_layer().release_socket()) {
  SSL* ssl = stream.native_handle();
  // What the handshake's engine still holds would be lost: the BIO pair's unread input, a record
  // OpenSSL has not opened, or output not sent (the engine completes a write only once sent).
  if (SSL_has_pending(ssl) == 1 || BIO_ctrl_pending(SSL_get_rbio(ssl)) > 0 ||
      BIO_ctrl_wpending(SSL_get_wbio(ssl)) > 0) {
    throw std::runtime_error("sent data before its upgrade was answered");
  }
  BIO* bio = BIO_new(method());
  if (bio == nullptr) throw std::runtime_error("OpenSSL: cannot make the TLS channel's BIO");
  BIO_set_data(bio, this);
  BIO_set_init(bio, 1);
  SSL_up_ref(ssl);  // the stream frees its reference when it goes
  ssl_ = ssl;
  SSL_set_bio(ssl_, bio, bio);  // frees the engine's half of its BIO pair
  received_.resize(kReceiveSize);
}

TlsChannel::~TlsChannel() { SSL_free(ssl_); }

int TlsChannel::bio_read(BIO* bio, char* out, std::size_t size, std::size_t* read) {
  auto& self = *static_cast<TlsChannel*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  const std::size_t n = std::min(size, self.received_size_ - self.read_at_);
  *read = n;
  if (n == 0) {
    BIO_set_retry_read(bio);  // more when the socket has it
    return 0;
  }
  std::memcpy(out, self.received_.data() + self.read_at_, n);
  self.read_at_ += n;
  return 1;
}

int TlsChannel::bio_write(BIO* bio, const char* data, std::size_t size, std::size_t* written) {
  auto& self = *static_cast<TlsChannel*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  self.sealed_.insert(self.sealed_.end(), data, data + size);
  *written = size;
  return 1;
}

long TlsChannel::bio_ctrl(BIO*, int command, long, void*) {
  return command == BIO_CTRL_FLUSH ? 1 : 0;  // sealed_ is flushed by seal_and_send
}

std::size_t TlsChannel::read_some(asio::mutable_buffer into, beast::error_code& ec) {
  for (;;) {
    if (buffered()) {
      const std::size_t opened = open(into, ec);
      if (opened > 0 || ec) return opened;  // else a record's start, waiting for its rest
    }
    const std::size_t bytes = socket_.read_some(asio::buffer(received_), ec);
    if (ec) return 0;
    received_size_ = bytes;
    read_at_ = 0;
    filled_ = bytes == received_.size();
  }
}

bool TlsChannel::more() const {
  return filled_ || deferred_ || read_at_ < received_size_ || SSL_pending(ssl_) > 0;
}

bool TlsChannel::buffered() const {
  return deferred_ || read_at_ < received_size_ || SSL_has_pending(ssl_) == 1;
}

std::size_t TlsChannel::open(asio::mutable_buffer into, beast::error_code& ec) {
  if (deferred_) {
    ec = std::exchange(deferred_, {});
    return 0;
  }
  if (ERR_peek_error() != 0) ERR_clear_error();  // SSL_get_error reads the queue
  auto* out = static_cast<char*>(into.data());
  std::size_t total = 0;
  while (total < into.size()) {
    std::size_t n = 0;
    const int result = SSL_read_ex(ssl_, out + total, into.size() - total, &n);
    if (result == 1) {
      total += n;
      continue;
    }
    beast::error_code error;
    switch (SSL_get_error(ssl_, result)) {
      case SSL_ERROR_WANT_READ: return total;                       // all received is opened
      case SSL_ERROR_ZERO_RETURN: error = asio::error::eof; break;  // close_notify
      default: error = ssl_error(); break;
    }
    // The plaintext before the error is delivered first.
    (total > 0 ? deferred_ : ec) = error;
    return total;
  }
  return total;
}

bool TlsChannel::seal_and_send(std::span<const asio::const_buffer> plaintext,
                               beast::error_code& ec) {
  plain_.clear();
  for (const asio::const_buffer& b : plaintext) {
    const auto* p = static_cast<const char*>(b.data());
    plain_.insert(plain_.end(), p, p + b.size());
  }
  if (ERR_peek_error() != 0) ERR_clear_error();  // SSL_get_error reads the queue
  // The BIO takes every write; with the partial writes the handshake's engine enabled, each
  // call seals one record (16 KiB at most).
  for (std::size_t done = 0; done < plain_.size();) {
    std::size_t written = 0;
    if (SSL_write_ex(ssl_, plain_.data() + done, plain_.size() - done, &written) != 1) {
      ec = ssl_error();
      return true;
    }
    done += written;
  }
  return flush(ec);
}

bool TlsChannel::flush(beast::error_code& ec) {
  const asio::const_buffer rest(sealed_.data() + sent_, sealed_.size() - sent_);
  sent_ += socket_.write_some(std::span(&rest, 1), ec);
  if (ec == asio::error::would_block) {
    ec = {};
  } else if (ec) {
    return true;
  }
  if (sent_ < sealed_.size()) return false;
  sealed_.clear();
  sent_ = 0;
  return true;
}

}  // namespace tilerace::server
