#include "server/play/sign_in_limits.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;

struct FakeClock {
  std::chrono::steady_clock::time_point now{std::chrono::hours(1000)};
  SignInLimits::Clock clock() {
    return [this] { return now; };
  }
};

TEST(SignInLimits, AnAddressMayTryTwentyTimesAMinute) {
  FakeClock t;
  SignInLimits limits(t.clock());
  for (std::size_t i = 0; i < SignInLimits::kPerAddress; ++i) {
    EXPECT_EQ(limits.admit_address("10.0.0.1"), 0);
  }
  EXPECT_EQ(limits.admit_address("10.0.0.1"), 60'000);
  EXPECT_EQ(limits.admit_address("10.0.0.2"), 0) << "another address";
  t.now += 1min;
  EXPECT_EQ(limits.admit_address("10.0.0.1"), 0);
}

TEST(SignInLimits, UnknownDevicesAreLockedOutForLongerEachTimeAKnownDeviceNever) {
  FakeClock t;
  SignInLimits limits(t.clock());
  const auto fail_unknown = [&](int n) {
    SignInLimits::Failure last;
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(limits.admit("alice", ""), 0) << i;
      last = limits.failed("alice", "");
    }
    return last;
  };
  EXPECT_EQ(fail_unknown(9).lockout_ms, 0);
  const SignInLimits::Failure first = fail_unknown(1);
  EXPECT_TRUE(first.unknown_device);
  EXPECT_EQ(first.lockout_ms, 60'000);
  EXPECT_EQ(limits.admit("alice", ""), 60'000);
  EXPECT_EQ(limits.admit("alice", "phone"), 0) << "a known device is never locked with them";
  EXPECT_EQ(limits.admit("bob", ""), 0) << "another account";
  // Each lockout twice the last, up to an hour.
  std::int64_t expected = 60'000;
  for (int lockout = 2; lockout <= 8; ++lockout) {
    t.now += std::chrono::milliseconds(expected);
    EXPECT_EQ(limits.admit("alice", ""), 0);
    expected = std::min<std::int64_t>(expected * 2, 3'600'000);
    EXPECT_EQ(fail_unknown(10).lockout_ms, expected) << lockout;
  }
  EXPECT_EQ(expected, 3'600'000);
  // A day after the last lockout ends, the doubling is forgotten.
  t.now += std::chrono::milliseconds(expected) + 24h;
  EXPECT_EQ(fail_unknown(10).lockout_ms, 60'000);
  // Failures spread wider than the window never lock.
  t.now += 1min;
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(limits.failed("alice", "").lockout_ms, 0) << i;
    t.now += 2min;
  }
}

TEST(SignInLimits, AKnownDeviceHasTenFailuresAnHourOfItsOwn) {
  FakeClock t;
  SignInLimits limits(t.clock());
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(limits.admit("alice", "phone"), 0);
    EXPECT_EQ(limits.failed("alice", "phone").lockout_ms, 0);
    t.now += 1min;
  }
  const SignInLimits::Failure tenth = limits.failed("alice", "phone");
  EXPECT_FALSE(tenth.unknown_device);
  EXPECT_EQ(tenth.lockout_ms, 51 * 60'000);  // until the first failure is an hour old
  EXPECT_EQ(limits.admit("alice", "phone"), 51 * 60'000);
  EXPECT_EQ(limits.admit("alice", "laptop"), 0) << "another device";
  EXPECT_EQ(limits.admit("alice", ""), 0) << "nor the unknown devices";
  EXPECT_EQ(limits.admit("bob", "phone"), 0) << "the device on another account";
  t.now += 51min;
  EXPECT_EQ(limits.admit("alice", "phone"), 0);
}

}  // namespace
}  // namespace tilerace::server
