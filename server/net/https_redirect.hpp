#pragma once
// --redirect-http-port: plain HTTP on a second port, where every request is answered with a
// 308 to the same path over https on the TLS port. One request per connection, headers up to
// 8 KiB, within 10 s. Runs on the acceptor's context until the acceptor is closed.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>

#include "server/net/server_context.hpp"

namespace tilerace::server {

boost::asio::awaitable<void> redirect_to_https(boost::asio::ip::tcp::acceptor& acceptor,
                                               std::uint16_t https_port,
                                               const ServerContext& context);

// Where a request for target on host (its Host header) goes over https on https_port; empty
// when host is not a host name or address.
std::string https_location(std::string_view host, std::string_view target,
                           std::uint16_t https_port);

}  // namespace tilerace::server
