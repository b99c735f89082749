#include "tests/e2e/wss_client.hpp"

#include <openssl/bn.h>
#include <openssl/ssl.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <stdexcept>

namespace tilerace::e2e {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = asio::ssl;
using json = nlohmann::json;

ssl::context client_context(const std::filesystem::path& ca_file) {
  ssl::context context(ssl::context::tls_client);
  context.load_verify_file(ca_file.string());
  context.set_verify_mode(ssl::verify_peer);
  return context;
}

WssClient::WssClient(std::uint16_t port, const std::filesystem::path& ca_file,
                     const std::string& name, const std::string& target)
    : context_(client_context(ca_file)), ws_(ioc_, context_) {
  auto& stream = ws_.next_layer();
  SSL_set1_host(stream.native_handle(), name.c_str());
  boost::system::error_code not_an_address;
  asio::ip::make_address(name, not_an_address);
  if (not_an_address) SSL_set_tlsext_host_name(stream.native_handle(), name.c_str());
  auto& tcp = beast::get_lowest_layer(ws_);
  tcp.expires_after(std::chrono::seconds(10));
  tcp.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  stream.handshake(ssl::stream_base::client);
  ws_.handshake(name + ":" + std::to_string(port), target);
  tcp.expires_never();
}

std::string WssClient::serial() {
  X509* cert = SSL_get1_peer_certificate(ws_.next_layer().native_handle());
  std::string out;
  if (BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), nullptr)) {
    char* hex = BN_bn2hex(bn);
    out = hex;
    OPENSSL_free(hex);
    BN_free(bn);
  }
  X509_free(cert);
  return out;
}

void WssClient::send(const json& message) {
  ws_.text(true);
  ws_.write(asio::buffer(message.dump()));
}

std::optional<json> WssClient::next(std::chrono::milliseconds deadline) {
  buffer_.clear();
  beast::error_code ec;
  beast::get_lowest_layer(ws_).expires_after(deadline);
  ws_.async_read(buffer_, [&](beast::error_code e, std::size_t) { ec = e; });
  ioc_.restart();
  ioc_.run();
  beast::get_lowest_layer(ws_).expires_never();
  if (ec) return std::nullopt;
  return json::parse(beast::buffers_to_string(buffer_.cdata()));
}

json WssClient::request(const json& message) {
  send(message);
  auto reply = next();
  if (!reply) throw std::runtime_error("no answer to " + message.dump());
  return *reply;
}

}  // namespace tilerace::e2e
