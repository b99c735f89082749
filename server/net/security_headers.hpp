#pragma once
// What every HTTP answer says about how browsers may use it, and which pages may open a
// WebSocket here (docs/operations.md). The site's own origins are its Host's host on any port,
// over http or https (a TLS-terminating proxy in front keeps the Host; a cluster's nodes on
// one host differ by port only); `allowed`
// adds the other origins of the same site, and so, in cluster mode, do the public URLs of the
// other nodes as the directory last heard them: their pages may open sockets here, and pages
// from here may connect to them.
#include <boost/beast/http/fields.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tilerace::server {

struct SecurityHeaders {
  bool tls = false;                  // served over TLS: Strict-Transport-Security too
  std::vector<std::string> allowed;  // origins, lower case: "https://play.example.com"
  // Cluster mode: the other nodes' public URLs (wss://node2.example.com/ws), asked each time.
  std::function<std::vector<std::string>()> node_urls;

  // Sets the headers on an answer to a request for host (its Host header). plain: an answer
  // over plain HTTP although the server speaks TLS (the redirect port), which must not carry
  // Strict-Transport-Security (RFC 6797 §7.2).
  void apply(boost::beast::http::fields& headers, std::string_view host, bool plain = false) const;
  // Whether a WebSocket upgrade that came with origin (its Origin header, empty when absent:
  // not a browser) for host may proceed.
  bool origin_allowed(std::string_view origin, std::string_view host) const;

 private:
  // allowed, and the origins of the other nodes' URLs.
  std::vector<std::string> origins() const;
};

// origin ("scheme://host[:port]") in the form allowed lists it, or empty if it is none.
std::string normal_origin(std::string_view origin);
// The origin of the pages that open a WebSocket URL ("wss://h:p/ws" → "https://h:p"), or
// empty for a URL without a host (a path: the same origin).
std::string origin_of_socket_url(std::string_view url);

}  // namespace tilerace::server
