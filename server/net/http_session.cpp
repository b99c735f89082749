#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream_base.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "server/net/admin_api.hpp"
#include "server/net/expected_close.hpp"
#include "server/net/http_api.hpp"
#include "server/net/ws_session.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::as_tuple;
using asio::use_awaitable;

namespace {

constexpr auto kRequestTimeout = std::chrono::seconds(10);
constexpr auto kHandshakeTimeout = std::chrono::seconds(10);

void fail(beast::error_code ec, const char* what) {
  if (expected_close(ec)) return;
  spdlog::debug("http {}: {}", what, ec.message());
}

}  // namespace

template <class Stream>
BasicHttpSession<Stream>::BasicHttpSession(Stream&& stream, ServerContext& context,
                                           AddressLimits::Slot slot)
    : stream_(std::move(stream)),
      executor_(stream_.get_executor()),
      context_(context),
      slot_(std::move(slot)) {
  beast::error_code ignored;
  peer_ = socket_of(stream_).remote_endpoint(ignored);
}

template <class Stream>
void BasicHttpSession<Stream>::start() {
  // In the set before any handler can run (so it is never removed before it is added), and
  // owned by the coroutine's frame from its creation (add may post a shutdown onto its thread,
  // and then the coroutine starts after it, not inline).
  auto session = run(this->shared_from_this());
  context_.sessions.add(this->shared_from_this());
  asio::co_spawn(executor_, std::move(session), asio::detached);
}

template <class Stream>
void BasicHttpSession<Stream>::abort() {
  asio::post(executor_, [self = this->shared_from_this()] {
    if (self->handed_over_) return;
    beast::error_code ignored;
    socket_of(self->stream_).close(ignored);
  });
}

template <class Stream>
asio::awaitable<void> BasicHttpSession<Stream>::run(
    [[maybe_unused]] std::shared_ptr<BasicHttpSession> self) {
  struct Leave {
    BasicHttpSession& session;
    ~Leave() { session.context_.sessions.remove(&session); }
  } leave{*this};
  if constexpr (std::is_same_v<Stream, TlsStream>) {
    beast::get_lowest_layer(stream_).expires_after(kHandshakeTimeout);
    auto [ec] =
        co_await stream_.async_handshake(asio::ssl::stream_base::server, as_tuple(use_awaitable));
    if (ec) co_return fail(ec, "TLS handshake");
  }
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHttpHeaderLimit);
    parser.body_limit(kHttpBodyLimit);
    beast::get_lowest_layer(stream_).expires_after(kRequestTimeout);
    auto [ec, bytes] = co_await http::async_read(stream_, buffer, parser, as_tuple(use_awaitable));
    if (ec) co_return fail(ec, "read");
    HttpRequest req = parser.release();
    if (beast::websocket::is_upgrade(req) && req.target() == "/ws") {
      co_return co_await upgrade(std::move(req));
    }
    context_.metrics.http_requests_total.fetch_add(1, std::memory_order_relaxed);
    // No co_await inside ?: here: GCC 12 miscompiles it (the response came out empty).
    std::optional<http::message_generator> response;
    if (is_admin_request(req)) {
      try {
        response.emplace(co_await answer_admin(req, context_, client_address(req)));
      } catch (const std::exception& e) {
        spdlog::error("http {}: {}", req.target(), e.what());
        response.emplace(store_unavailable(req, context_));
      }
    } else if (needs_store(req)) {
      try {
        response.emplace(co_await answer_from_store(req, context_));
      } catch (const std::exception& e) {
        spdlog::error("http {}: {}", req.target(), e.what());
        response.emplace(store_unavailable(req, context_));
      }
    } else {
      response.emplace(answer(req, context_));
    }
    const bool keep_alive = response->keep_alive();
    auto [wec, written] =
        co_await beast::async_write(stream_, std::move(*response), as_tuple(use_awaitable));
    if (wec) co_return fail(wec, "write");
    if (!keep_alive) {
      beast::error_code ignored;
      socket_of(stream_).shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
      co_return;
    }
  }
}

template <class Stream>
std::string BasicHttpSession<Stream>::client_address(const HttpRequest& req) const {
  if (!context_.proxies.trusts(peer_.address())) return peer_.address().to_string();
  return context_.proxies.client(req, peer_.address()).to_string();
}

template <class Stream>
asio::awaitable<void> BasicHttpSession<Stream>::upgrade(HttpRequest req) {
  if (!context_.headers.origin_allowed(req[http::field::origin], req[http::field::host])) {
    context_.metrics.http_requests_total.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("refused a WebSocket from the page of another site: {}",
                 std::string_view(req[http::field::origin]).substr(0, 100));
    co_await beast::async_write(stream_, forbidden_origin(req, context_), as_tuple(use_awaitable));
    co_return;
  }
  // Through a proxy of ours the client is the one its headers name, counted now.
  std::optional<AddressLimits::Slot> counted;
  std::string remote = peer_.address().to_string() + ":" + std::to_string(peer_.port());
  if (context_.proxies.trusts(peer_.address())) {
    const asio::ip::address client = context_.proxies.client(req, peer_.address());
    bool admitted = false;
    counted.emplace(context_.limits.connect(client, admitted));
    if (!admitted) {
      context_.metrics.connections_refused_total.fetch_add(1, std::memory_order_relaxed);
      co_await beast::async_write(stream_, too_many_connections(req, context_),
                                  as_tuple(use_awaitable));
      co_return;
    }
    remote = client.to_string() + " via " + remote;
  }
  AddressLimits::Slot slot(counted ? std::move(*counted) : std::move(slot_));
  handed_over_ = true;
  if constexpr (std::is_same_v<Stream, TlsStream>) {
    beast::get_lowest_layer(stream_).expires_never();  // the WebSocket keeps its own time
    std::make_shared<TlsWsSession>(std::move(stream_), context_.ws, std::move(slot),
                                   std::move(remote))
        ->start(std::move(req));
  } else {
    std::make_shared<WsSession>(stream_.release_socket(), context_.ws, std::move(slot),
                                std::move(remote))
        ->start(std::move(req));
  }
}

template class BasicHttpSession<HttpStream>;
template class BasicHttpSession<TlsStream>;

}  // namespace tilerace::server
