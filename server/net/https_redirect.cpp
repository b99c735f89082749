#include "server/net/https_redirect.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cctype>

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::as_tuple;
using asio::use_awaitable;
using tcp = asio::ip::tcp;

namespace {

asio::awaitable<void> answer_one(beast::tcp_stream stream, std::uint16_t https_port,
                                 const ServerContext& context) {
  beast::flat_buffer buffer;
  http::request_parser<http::empty_body> parser;
  parser.header_limit(8 * 1024);
  stream.expires_after(std::chrono::seconds(10));
  auto [ec, n] = co_await http::async_read(stream, buffer, parser, as_tuple(use_awaitable));
  if (ec) co_return;
  const auto& req = parser.get();
  const std::string location = https_location(req[http::field::host], req.target(), https_port);
  http::response<http::string_body> res{
      location.empty() ? http::status::bad_request : http::status::permanent_redirect,
      req.version()};
  res.set(http::field::server, "tilerace");
  context.headers.apply(res, {}, /*plain=*/true);
  if (!location.empty()) res.set(http::field::location, location);
  res.keep_alive(false);
  res.prepare_payload();
  std::tie(ec, n) = co_await http::async_write(stream, res, as_tuple(use_awaitable));
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

}  // namespace

std::string https_location(std::string_view host, std::string_view target,
                           std::uint16_t https_port) {
  // The host without its port: a name, an IPv4 address or a bracketed IPv6 one.
  if (host.starts_with('[')) {
    host = host.substr(0, host.find(']') == std::string_view::npos ? 0 : host.find(']') + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  const bool plain =
      !host.empty() && host.size() <= 255 &&
      std::all_of(host.begin(), host.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '.' || c == '-' || c == '[' || c == ']' || c == ':';
      });
  if (!plain || !target.starts_with('/')) return {};
  std::string location = "https://" + std::string(host);
  if (https_port != 443) location += ":" + std::to_string(https_port);
  return location + std::string(target);
}

asio::awaitable<void> redirect_to_https(tcp::acceptor& acceptor, std::uint16_t https_port,
                                        const ServerContext& context) {
  asio::steady_timer pause(acceptor.get_executor());
  for (;;) {
    auto [ec, socket] = co_await acceptor.async_accept(as_tuple(use_awaitable));
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (ec) {  // e.g. out of file descriptors: do not spin on an accept that fails at once
      spdlog::warn("redirect accept: {}", ec.message());
      pause.expires_after(std::chrono::milliseconds(50));
      co_await pause.async_wait(as_tuple(use_awaitable));
      continue;
    }
    asio::co_spawn(acceptor.get_executor(),
                   answer_one(beast::tcp_stream(std::move(socket)), https_port, context),
                   asio::detached);
  }
}

}  // namespace tilerace::server
