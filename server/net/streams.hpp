#pragma once
// The streams a connection may ride on: the plain TCP socket (HTTP and ws://), and TLS over a
// Beast stream (HTTPS and wss://), each bound to the network thread's executor. The socket
// under either is reached with socket_of.
#include <boost/beast/ssl/ssl_stream.hpp>

#include "server/net/network_threads.hpp"

namespace tilerace::server {

using TlsStream = boost::beast::ssl_stream<HttpStream>;

inline TcpSocket& socket_of(TcpSocket& s) { return s; }
inline TcpSocket& socket_of(HttpStream& s) { return s.socket(); }
inline TcpSocket& socket_of(TlsStream& s) { return s.next_layer().socket(); }

}  // namespace tilerace::server
