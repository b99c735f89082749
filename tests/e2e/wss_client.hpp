#pragma once
// A WebSocket client over TLS for the e2e tests and the smoke tool: it connects to a loopback
// port and verifies the server's certificate for a name against one CA file, as a browser
// would against its trust store.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace tilerace::e2e {

// A client context that trusts only the CA in ca_file and verifies peers.
boost::asio::ssl::context client_context(const std::filesystem::path& ca_file);

class WssClient {
 public:
  // Connects to 127.0.0.1:port, completes the TLS handshake verifying the certificate for name
  // (an IP address or a DNS name, which is also sent as SNI and as the Host header) and
  // upgrades on target. Throws when any step fails.
  WssClient(std::uint16_t port, const std::filesystem::path& ca_file,
            const std::string& name = "127.0.0.1", const std::string& target = "/ws");

  // The serial number (hex) of the certificate the server showed.
  std::string serial();
  void send(const nlohmann::json& message);
  // The next message, or nullopt once the connection has closed or the deadline passed.
  std::optional<nlohmann::json> next(std::chrono::milliseconds deadline = std::chrono::seconds(5));
  // Sends, then the next message (throws when none comes).
  nlohmann::json request(const nlohmann::json& message);

 private:
  boost::asio::io_context ioc_;
  boost::asio::ssl::context context_;
  boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>> ws_;
  boost::beast::flat_buffer buffer_;
};

}  // namespace tilerace::e2e
