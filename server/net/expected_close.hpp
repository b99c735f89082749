#pragma once
// Errors that only mean a connection ended the ordinary way (peer gone, closed, timed out,
// or our own cancel): async error paths stay quiet on these and log the rest.
#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/websocket/error.hpp>

namespace tilerace::server {

inline bool expected_close(const boost::beast::error_code& ec) {
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  return ec == asio::error::operation_aborted || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == beast::error::timeout || ec == beast::http::error::end_of_stream ||
         ec == beast::websocket::error::closed || ec == asio::ssl::error::stream_truncated;
}

}  // namespace tilerace::server
