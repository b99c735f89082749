#include "server/base/address_limits.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

using boost::asio::ip::make_address;
using namespace std::chrono_literals;

TEST(AddressLimits, CapsConnectionsPerAddressAndReleasesOnDestruction) {
  AddressLimits limits(2, 0);
  bool ok = false;
  auto a1 = std::make_unique<AddressLimits::Slot>(limits.connect(make_address("10.0.0.1"), ok));
  EXPECT_TRUE(ok);
  AddressLimits::Slot a2 = limits.connect(make_address("10.0.0.1"), ok);
  EXPECT_TRUE(ok);
  AddressLimits::Slot a3 = limits.connect(make_address("10.0.0.1"), ok);
  EXPECT_FALSE(ok);
  AddressLimits::Slot b1 = limits.connect(make_address("10.0.0.2"), ok);
  EXPECT_TRUE(ok) << "another address has its own count";
  a1.reset();
  AddressLimits::Slot a4 = limits.connect(make_address("10.0.0.1"), ok);
  EXPECT_TRUE(ok) << "a released slot can be taken again";
  EXPECT_EQ(a4.key(), "10.0.0.1");
}

TEST(AddressLimits, Ipv6CountsBySlash64AndMappedV4AsV4) {
  AddressLimits limits(1, 0);
  bool ok = false;
  AddressLimits::Slot a = limits.connect(make_address("2001:db8:1:2::1"), ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(a.key(), "2001:db8:1:2::/64");
  AddressLimits::Slot b = limits.connect(make_address("2001:db8:1:2:ffff::9"), ok);
  EXPECT_FALSE(ok) << "same /64";
  AddressLimits::Slot c = limits.connect(make_address("2001:db8:1:3::1"), ok);
  EXPECT_TRUE(ok);
  AddressLimits::Slot d = limits.connect(make_address("::ffff:10.1.2.3"), ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(d.key(), "10.1.2.3");
}

TEST(AddressLimits, ZeroMeansNoConnectionLimit) {
  AddressLimits limits(0, 0);
  std::vector<AddressLimits::Slot> slots;
  for (int i = 0; i < 1000; ++i) {
    bool ok = false;
    slots.push_back(limits.connect(make_address("127.0.0.1"), ok));
    ASSERT_TRUE(ok);
  }
  EXPECT_TRUE(limits.create_room("127.0.0.1", AddressLimits::clock::now()));
}

TEST(AddressLimits, RoomQuotaRefillsOverAMinute) {
  AddressLimits limits(0, 3);
  const auto t0 = AddressLimits::clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limits.create_room("a", t0));
  EXPECT_FALSE(limits.create_room("a", t0));
  EXPECT_TRUE(limits.create_room("b", t0)) << "per address";
  EXPECT_FALSE(limits.create_room("a", t0 + 10s)) << "a third of a room back after 10 s";
  EXPECT_TRUE(limits.create_room("a", t0 + 21s)) << "one room back after 20 s";
  EXPECT_FALSE(limits.create_room("a", t0 + 22s));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limits.create_room("a", t0 + 200s)) << "full again";
}

}  // namespace
}  // namespace tilerace::server
