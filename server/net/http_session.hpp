#pragma once
// One HTTP connection, plain or over TLS: serves static files, /healthz, /metrics and /api/*,
// and hands a WebSocket upgrade of /ws to a WsSession (TlsWsSession). Over TLS the handshake
// comes first and must finish within 10 s. Headers are limited to 8 KiB and each request must
// arrive within 10 s. In the SessionSet from start() until it ends or hands over.
#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <memory>

#include "server/net/network_threads.hpp"
#include "server/net/server_context.hpp"
#include "server/net/streams.hpp"

namespace tilerace::server {

// The largest request head and body read (larger: the connection closes).
inline constexpr std::size_t kHttpHeaderLimit = 8 * 1024;
inline constexpr std::size_t kHttpBodyLimit = 8 * 1024;

// Stream: HttpStream (http://) or TlsStream (https://, its handshake not done yet).
template <class Stream>
class BasicHttpSession final : public Session,
                               public std::enable_shared_from_this<BasicHttpSession<Stream>> {
 public:
  // slot is the connection's hold on its address's connection count, kept until it closes.
  BasicHttpSession(Stream&& stream, ServerContext& context, AddressLimits::Slot slot);

  void start();
  // Either closes the socket: a request being answered is cut short.
  void shutdown() override { abort(); }
  void abort() override;

 private:
  // self keeps the session alive for as long as the coroutine exists, from its creation.
  boost::asio::awaitable<void> run(std::shared_ptr<BasicHttpSession> self);
  // A WebSocket upgrade of /ws: refused (a foreign Origin; a proxied client over its limit),
  // or the stream handed to a WsSession.
  boost::asio::awaitable<void> upgrade(
      boost::beast::http::request<boost::beast::http::string_body> req);
  // The client's address: the peer's, or through a proxy of ours the one its headers name.
  std::string client_address(
      const boost::beast::http::request<boost::beast::http::string_body>& req) const;

  Stream stream_;
  NetExecutor executor_;  // the stream's, kept for after a hand-over
  ServerContext& context_;
  AddressLimits::Slot slot_;  // empty for a proxy of ours: its clients are counted one by one
  boost::asio::ip::tcp::endpoint peer_;
  bool handed_over_ = false;  // the stream belongs to a WsSession now
};

extern template class BasicHttpSession<HttpStream>;
extern template class BasicHttpSession<TlsStream>;
using HttpSession = BasicHttpSession<HttpStream>;
using HttpsSession = BasicHttpSession<TlsStream>;

}  // namespace tilerace::server
