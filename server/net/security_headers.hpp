#pragma once
// What every HTTP answer says about how browsers may use it, and which pages may open a
// WebSocket here (docs/operations.md). The site's own origins are its Host's host on any port,
// over http or https (a TLS-terminating proxy in front keeps the Host; a cluster's nodes on
// one host differ by port only); `allowed`
// adds the other origins of the same site (a cluster's other nodes on other hosts): their
// pages may open sockets here, and pages from here may connect to them.
#include <boost/beast/http/fields.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace tilerace::server {

struct SecurityHeaders {
  bool tls = false;                  // served over TLS: Strict-Transport-Security too
  std::vector<std::string> allowed;  // origins, lower case: "https://play.example.com"

  // Sets the headers on an answer to a request for host (its Host header).
  void apply(boost::beast::http::fields& headers, std::string_view host) const;
  // Whether a WebSocket upgrade that came with origin (its Origin header, empty when absent:
  // not a browser) for host may proceed.
  bool origin_allowed(std::string_view origin, std::string_view host) const;
};

// origin ("scheme://host[:port]") in the form allowed lists it, or empty if it is none.
std::string normal_origin(std::string_view origin);

}  // namespace tilerace::server
