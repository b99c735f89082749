#include "server/net/security_headers.hpp"

#include <algorithm>
#include <cctype>

namespace tilerace::server {

namespace http = boost::beast::http;

namespace {

// A Host header that can go into a header value as it is: letters, digits, . - : [ ].
bool plain_host(std::string_view host) {
  return !host.empty() && host.size() <= 255 &&
         std::all_of(host.begin(), host.end(), [](unsigned char c) {
           return std::isalnum(c) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
         });
}

// host ("name", "name:port", "[v6]", "[v6]:port") without its port.
std::string without_port(std::string host) {
  const auto colon = host.rfind(':');
  if (colon != std::string::npos && host.find(']', colon) == std::string::npos &&
      (host.front() == '[' || host.find(':') == colon)) {
    host.erase(colon);
  }
  return host;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string normal_origin(std::string_view origin) {
  const std::string o = lower(origin);
  for (std::string_view scheme : {"http://", "https://"}) {
    if (o.starts_with(scheme) && plain_host(std::string_view(o).substr(scheme.size()))) return o;
  }
  return {};
}

std::string origin_of_socket_url(std::string_view url) {
  for (const auto& [socket, page] : {std::pair{"ws://", "http://"}, {"wss://", "https://"}}) {
    if (!url.starts_with(socket)) continue;
    const std::string_view rest = url.substr(std::string_view(socket).size());
    return normal_origin(std::string(page) + std::string(rest.substr(0, rest.find('/'))));
  }
  return {};
}

std::vector<std::string> SecurityHeaders::origins() const {
  std::vector<std::string> out = allowed;
  if (node_urls) {
    for (const std::string& url : node_urls()) {
      std::string origin = origin_of_socket_url(url);
      if (!origin.empty() && std::find(out.begin(), out.end(), origin) == out.end()) {
        out.push_back(std::move(origin));
      }
    }
  }
  return out;
}

void SecurityHeaders::apply(http::fields& h, std::string_view host, bool plain) const {
  std::string connect = "'self'";
  if (plain_host(host)) {
    const std::string own = without_port(lower(host));
    connect += " ws://" + own + ":* wss://" + own + ":*";
  }
  for (const std::string& origin : origins()) {
    const auto at = origin.find("://");
    const bool secure = origin.starts_with("https");
    connect += " " + origin + (secure ? " wss" : " ws") + origin.substr(at);
  }
  h.set("Content-Security-Policy", "default-src 'self'; connect-src " + connect +
                                       "; object-src 'none'; base-uri 'none'; form-action 'self'; "
                                       "frame-ancestors 'none'");
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "no-referrer");
  if (tls && !plain) h.set(http::field::strict_transport_security, "max-age=31536000");
}

bool SecurityHeaders::origin_allowed(std::string_view origin, std::string_view host) const {
  if (origin.empty()) return true;  // not a browser: no page to protect
  const std::string o = normal_origin(origin);
  if (o.empty()) return false;
  // The site's own host on any port: another node of a cluster on the same host, say.
  const std::string own = without_port(lower(host));
  for (std::string_view scheme : {"http://", "https://"}) {
    if (o.starts_with(scheme) && without_port(o.substr(scheme.size())) == own) return true;
  }
  const std::vector<std::string> others = origins();
  return std::find(others.begin(), others.end(), o) != others.end();
}

}  // namespace tilerace::server
