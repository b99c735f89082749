#include "server/net/trusted_proxies.hpp"

#include <gtest/gtest.h>

#include <boost/beast/http/fields.hpp>

namespace tilerace::server {
namespace {

namespace http = boost::beast::http;
using boost::asio::ip::make_address;

TrustedProxies proxies(const std::vector<std::string>& networks) {
  std::string bad;
  auto parsed = TrustedProxies::parse(networks, bad);
  EXPECT_TRUE(parsed.has_value()) << bad;
  return parsed.value_or(TrustedProxies());
}

TEST(TrustedProxies, NetworksAndSingleAddressesOfBothFamilies) {
  const TrustedProxies p = proxies({"10.0.0.0/8", "192.168.1.7", "fd00::/8"});
  EXPECT_TRUE(p.trusts(make_address("10.200.3.4")));
  EXPECT_TRUE(p.trusts(make_address("::ffff:10.1.2.3")));  // IPv4-mapped
  EXPECT_TRUE(p.trusts(make_address("192.168.1.7")));
  EXPECT_FALSE(p.trusts(make_address("192.168.1.8")));
  EXPECT_TRUE(p.trusts(make_address("fd12::1")));
  EXPECT_FALSE(p.trusts(make_address("fe80::1")));
  EXPECT_FALSE(p.trusts(make_address("11.0.0.1")));
  std::string bad;
  EXPECT_FALSE(TrustedProxies::parse({"10.0.0.0/33"}, bad).has_value());
  EXPECT_EQ(bad, "10.0.0.0/33");
  EXPECT_FALSE(TrustedProxies::parse({"proxy.example"}, bad).has_value());
  EXPECT_FALSE(TrustedProxies::parse({"10.0.0.0/x"}, bad).has_value());
}

TEST(TrustedProxies, OnlyATrustedPeersHeadersNameTheClient) {
  const TrustedProxies p = proxies({"10.0.0.0/8"});
  http::fields h;
  h.set("X-Forwarded-For", "203.0.113.9");
  EXPECT_EQ(p.client(h, make_address("10.0.0.2")), make_address("203.0.113.9"));
  EXPECT_EQ(p.client(h, make_address("198.51.100.1")), make_address("198.51.100.1"));  // ignored
  EXPECT_EQ(p.client({}, make_address("10.0.0.2")), make_address("10.0.0.2"));         // no header
}

TEST(TrustedProxies, TheRightmostUntrustedAddressWinsSoAClientCannotChooseIts) {
  const TrustedProxies p = proxies({"10.0.0.0/8"});
  http::fields h;
  // The client wrote "1.1.1.1" itself; our proxy appended the address it saw, 203.0.113.9,
  // and a second proxy of ours appended the first's.
  h.set("X-Forwarded-For", "1.1.1.1, 203.0.113.9, 10.0.0.5");
  EXPECT_EQ(p.client(h, make_address("10.0.0.2")), make_address("203.0.113.9"));
  // Several header lines read as one list, in order.
  http::fields two;
  two.insert("X-Forwarded-For", "1.1.1.1");
  two.insert("X-Forwarded-For", "203.0.113.9");
  EXPECT_EQ(p.client(two, make_address("10.0.0.2")), make_address("203.0.113.9"));
  // Garbage to the right of the client stops the walk: the peer is all that is known.
  h.set("X-Forwarded-For", "203.0.113.9, not-an-address");
  EXPECT_EQ(p.client(h, make_address("10.0.0.2")), make_address("10.0.0.2"));
}

TEST(TrustedProxies, ForwardedIsReadWithPortsQuotesAndIpv6) {
  const TrustedProxies p = proxies({"10.0.0.0/8"});
  http::fields h;
  h.set(http::field::forwarded, R"(for="[2001:db8:cafe::17]:4711";proto=https, For=10.1.1.1)");
  EXPECT_EQ(p.client(h, make_address("10.0.0.2")), make_address("2001:db8:cafe::17"));
  h.set(http::field::forwarded, "for=198.51.100.3:5555;by=10.0.0.2");
  h.set("X-Forwarded-For", "203.0.113.9");  // Forwarded, when present, is the one read
  EXPECT_EQ(p.client(h, make_address("10.0.0.2")), make_address("198.51.100.3"));
}

}  // namespace
}  // namespace tilerace::server
