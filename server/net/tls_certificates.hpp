#pragma once
// The server's TLS certificate and key (--tls-cert, --tls-key: PEM, the certificate file may
// hold the chain), as an OpenSSL context for new handshakes: TLS 1.2 and 1.3 only, Mozilla's
// "intermediate" ciphers, HTTP/1.1 by ALPN. reload() reads the files again and swaps in the
// new pair for the handshakes that follow; open connections keep theirs. A pair that is
// unreadable, mismatched or expired is refused: at start-up that is an error (the
// constructor throws), afterwards it is logged and the old pair kept. Thread-safe.
#include <boost/asio/ssl/context.hpp>

#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace tilerace::server {

class TlsCertificates {
 public:
  // Throws std::runtime_error saying what is wrong with the pair.
  TlsCertificates(std::filesystem::path cert, std::filesystem::path key);

  // The context for the next handshake.
  std::shared_ptr<boost::asio::ssl::context> current() const;
  // The current certificate's serial number (hex), for logs and tests.
  std::string serial() const;

  // Reads the pair again; true if a new one was put in place. A bad pair changes nothing.
  bool reload();
  // reload() if either file changed since the pair in place was read (polled).
  bool reload_if_changed();

 private:
  struct Loaded {
    std::shared_ptr<boost::asio::ssl::context> context;
    std::string serial;
    std::string stamp;  // the files' sizes and modification times when read
  };
  // Reads the pair; stamp_before is stamp() from before reading it.
  Loaded load(std::string stamp_before) const;
  std::string stamp() const;

  const std::filesystem::path cert_, key_;
  mutable std::mutex mutex_;
  Loaded loaded_;
};

}  // namespace tilerace::server
