// The operator API's edge: the Bearer scheme in any case, the bootstrap token compared whole,
// and an address's failures of the last minute.
#include "server/net/admin_guard.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

const std::string kToken = "an-owner-token-of-at-least-32-bytes-0123";

TEST(AdminGuard, TheBearerSchemeInAnyCaseThenTheCredential) {
  EXPECT_EQ(bearer_credential("Bearer abc"), "abc");
  EXPECT_EQ(bearer_credential("bearer abc"), "abc");
  EXPECT_EQ(bearer_credential("BEARER op.1"), "op.1");
  EXPECT_EQ(bearer_credential("Basic abc"), "");
  EXPECT_EQ(bearer_credential("Bearer"), "");
  EXPECT_EQ(bearer_credential(""), "");
}

TEST(AdminGuard, OnlyTheWholeTokenIsTheBootstrap) {
  const AdminGuard guard(kToken);
  EXPECT_TRUE(guard.is_bootstrap(kToken));
  EXPECT_FALSE(guard.is_bootstrap(kToken + "x"));
  EXPECT_FALSE(guard.is_bootstrap(kToken.substr(0, kToken.size() - 1)));
  EXPECT_FALSE(guard.is_bootstrap(""));
  std::string flipped = kToken;
  flipped.back() = 'x';
  EXPECT_FALSE(guard.is_bootstrap(flipped));
}

TEST(AdminGuard, TenFailuresAMinuteLimitAnAddressUntilTheMinuteIsOver) {
  AdminGuard guard(kToken);
  const auto t0 = AdminGuard::Clock::time_point{} + std::chrono::hours(1);
  for (int i = 0; i < AdminGuard::kMaxFailures; ++i) {
    EXPECT_FALSE(guard.limited("10.0.0.1", t0)) << i;
    guard.failed("10.0.0.1", t0 + std::chrono::seconds(i));
  }
  EXPECT_TRUE(guard.limited("10.0.0.1", t0 + std::chrono::seconds(30)));
  EXPECT_FALSE(guard.limited("10.0.0.2", t0 + std::chrono::seconds(30))) << "another address";
  // The first failure is a minute old: one left again.
  EXPECT_FALSE(guard.limited("10.0.0.1", t0 + std::chrono::seconds(60)));
  EXPECT_FALSE(guard.limited("10.0.0.1", t0 + std::chrono::seconds(70)));
}

}  // namespace
}  // namespace tilerace::server
