#pragma once
// The accept loop: every connection to the port, bound to the network thread that serves it,
// counted against its address's limit (over it: a 429 on a plain port, a close on the TLS one)
// and handed to an HTTP or HTTPS session. Runs on the main context until the acceptor closes.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "server/net/network_threads.hpp"
#include "server/net/server_context.hpp"

namespace tilerace::server {

boost::asio::awaitable<void> accept_loop(NetworkThreads& threads,
                                         boost::asio::ip::tcp::acceptor& acceptor,
                                         ServerContext& context);

}  // namespace tilerace::server
