#include "server/net/trusted_proxies.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/range/iterator_range.hpp>

#include <algorithm>
#include <charconv>
#include <string>

#include "server/base/split.hpp"

namespace tilerace::server {

namespace http = boost::beast::http;
using boost::asio::ip::address;

namespace {

// Whether the first prefix bits of a and b agree (both of one family).
bool same_prefix(const address& a, const address& b, int prefix) {
  const auto bytes = [](const address& x) {
    if (x.is_v4()) {
      const auto v4 = x.to_v4().to_bytes();
      return std::vector<unsigned char>(v4.begin(), v4.end());
    }
    const auto v6 = x.to_v6().to_bytes();
    return std::vector<unsigned char>(v6.begin(), v6.end());
  };
  const auto x = bytes(a), y = bytes(b);
  for (int bit = 0; bit < prefix; ++bit) {
    const int i = bit / 8, shift = 7 - bit % 8;
    if (((x[i] >> shift) & 1) != ((y[i] >> shift) & 1)) return false;
  }
  return true;
}

// An IPv4-mapped IPv6 address as the IPv4 address it is.
address unmapped(const address& a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) {
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, a.to_v6());
  }
  return a;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// An address as a forwarding header writes it: 1.2.3.4, 1.2.3.4:5678, [::1], "[::1]:80".
std::optional<address> address_in(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  if (s.starts_with('[')) {
    const auto close = s.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    s = s.substr(1, close - 1);
  } else if (std::count(s.begin(), s.end(), ':') == 1) {
    s = s.substr(0, s.find(':'));  // IPv4 with a port
  }
  boost::system::error_code ec;
  const address a = boost::asio::ip::make_address(std::string(s), ec);
  if (ec) return std::nullopt;
  return unmapped(a);
}

}  // namespace

std::optional<TrustedProxies> TrustedProxies::parse(const std::vector<std::string>& networks,
                                                    std::string& bad) {
  TrustedProxies proxies;
  for (const std::string& text : networks) {
    const auto slash = text.find('/');
    const auto base = address_in(std::string_view(text).substr(0, slash));
    int prefix = base && base->is_v4() ? 32 : 128;
    if (base && slash != std::string::npos) {
      const std::string_view digits = std::string_view(text).substr(slash + 1);
      int value = -1;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      prefix = ec == std::errc() && end == digits.data() + digits.size() && value >= 0 &&
                       value <= (base->is_v4() ? 32 : 128)
                   ? value
                   : -1;
    }
    if (!base || prefix < 0) {
      bad = text;
      return std::nullopt;
    }
    proxies.networks_.push_back({*base, prefix});
  }
  return proxies;
}

bool TrustedProxies::trusts(const address& raw) const {
  const address a = unmapped(raw);
  return std::any_of(networks_.begin(), networks_.end(), [&](const Network& n) {
    return n.base.is_v4() == a.is_v4() && same_prefix(n.base, a, n.prefix);
  });
}

std::optional<address> TrustedProxies::rightmost_untrusted(
    const std::vector<std::optional<address>>& chain) const {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!*it) return std::nullopt;  // unreadable: believe nothing further left
    if (!trusts(**it)) return *it;
  }
  return std::nullopt;
}

address TrustedProxies::client(const http::fields& headers, const address& peer) const {
  if (!trusts(peer)) return peer;
  std::vector<std::optional<address>> chain;
  // Forwarded: for=1.2.3.4;proto=https, for="[2001:db8::1]:4711" (RFC 7239).
  for (const auto& field :
       boost::make_iterator_range(headers.equal_range(http::field::forwarded))) {
    for (std::string_view element : split(field.value(), ',')) {
      for (std::string_view pair : split(element, ';')) {
        pair = trim(pair);
        if (pair.size() > 4 && boost::beast::iequals(pair.substr(0, 4), "for=")) {
          chain.push_back(address_in(pair.substr(4)));
        }
      }
    }
  }
  if (chain.empty()) {
    for (const auto& field : boost::make_iterator_range(headers.equal_range("X-Forwarded-For"))) {
      for (std::string_view entry : split(field.value(), ',')) chain.push_back(address_in(entry));
    }
  }
  return rightmost_untrusted(chain).value_or(peer);
}

}  // namespace tilerace::server
