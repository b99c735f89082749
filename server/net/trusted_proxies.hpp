#pragma once
// Which peers are our own proxies (--trusted-proxy CIDR…), and so whose forwarding headers
// name the client: only from a trusted peer does the client's address come from `Forwarded`
// (its `for=`) or `X-Forwarded-For`, read from the right and skipping trusted addresses, so a
// client cannot choose its address by sending the header itself. From any other peer those
// headers are ignored. Immutable after construction: safe from any thread.
#include <boost/asio/ip/address.hpp>
#include <boost/beast/http/fields.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace tilerace::server {

class TrustedProxies {
 public:
  // Each network as "address/prefix" or a single address; nullopt names the first bad one
  // through bad.
  static std::optional<TrustedProxies> parse(const std::vector<std::string>& networks,
                                             std::string& bad);
  TrustedProxies() = default;

  bool empty() const { return networks_.empty(); }
  bool trusts(const boost::asio::ip::address& address) const;
  // The client behind a request that came from peer.
  boost::asio::ip::address client(const boost::beast::http::fields& headers,
                                  const boost::asio::ip::address& peer) const;

 private:
  struct Network {
    boost::asio::ip::address base;
    int prefix = 0;
  };
  // The addresses a header lists, left to right (unparsable entries as nullopt).
  std::optional<boost::asio::ip::address> rightmost_untrusted(
      const std::vector<std::optional<boost::asio::ip::address>>& chain) const;

  std::vector<Network> networks_;
};

}  // namespace tilerace::server
