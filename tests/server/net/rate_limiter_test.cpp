#include "server/net/rate_limiter.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;
using Verdict = RateLimiter::Verdict;

TEST(RateLimiter, AllowsABurstOfTwiceTheRateThenRejects) {
  const auto t0 = RateLimiter::clock::time_point{} + 1h;
  RateLimiter limiter(60, t0);
  for (int i = 0; i < 120; ++i) ASSERT_EQ(limiter.admit(t0), Verdict::allow) << i;
  EXPECT_EQ(limiter.admit(t0), Verdict::reject);
}

TEST(RateLimiter, RefillsAtTheRate) {
  const auto t0 = RateLimiter::clock::time_point{} + 1h;
  RateLimiter limiter(10, t0);
  for (int i = 0; i < 20; ++i) limiter.admit(t0);
  EXPECT_EQ(limiter.admit(t0), Verdict::reject);
  EXPECT_EQ(limiter.admit(t0 + 100ms), Verdict::allow);  // one token back after 1/rate
  EXPECT_EQ(limiter.admit(t0 + 100ms), Verdict::drop);   // answered 100 ms ago already
  EXPECT_EQ(limiter.admit(t0 + 250ms), Verdict::allow);
  EXPECT_EQ(limiter.admit(t0 + 250ms), Verdict::reject);
}

TEST(RateLimiter, AFloodIsAnsweredAtMostOnceAQuarterSecond) {
  const auto t0 = RateLimiter::clock::time_point{} + 1h;
  RateLimiter limiter(20, t0);
  int answered = 0, dropped = 0;
  auto t = t0;
  for (int i = 0; i < 4000; ++i, t += 1ms) {  // 1000 messages a second for 4 s
    const Verdict v = limiter.admit(t);
    ASSERT_NE(v, Verdict::disconnect);
    answered += v == Verdict::reject;
    dropped += v == Verdict::drop;
  }
  EXPECT_GE(answered, 15);  // ~3.96 s over the limit, one answer per 250 ms
  EXPECT_LE(answered, 17);
  EXPECT_GT(dropped, 3500);
}

TEST(RateLimiter, ASustainedFloodIsDisconnectedAfterFiveSeconds) {
  const auto t0 = RateLimiter::clock::time_point{} + 1h;
  RateLimiter limiter(20, t0);
  Verdict last = Verdict::allow;
  auto t = t0;
  // 1000 messages a second; tokens trickle back but the client stays over the limit.
  for (int i = 0; i < 10000 && last != Verdict::disconnect; ++i, t += 1ms) last = limiter.admit(t);
  EXPECT_EQ(last, Verdict::disconnect);
  EXPECT_GE(t - t0, 5s);
  EXPECT_LT(t - t0, 5s + 100ms + 2s);  // burst drains in ~40 ms, then 5 s of patience
}

TEST(RateLimiter, CalmingDownForgivesThePast) {
  const auto t0 = RateLimiter::clock::time_point{} + 1h;
  RateLimiter limiter(10, t0);
  auto t = t0;
  for (int i = 0; i < 4000; ++i, t += 1ms) ASSERT_NE(limiter.admit(t), Verdict::disconnect);
  t += 2s;  // quiet: back under the limit
  for (int i = 0; i < 4000; ++i, t += 1ms) ASSERT_NE(limiter.admit(t), Verdict::disconnect);
}

}  // namespace
}  // namespace tilerace::server
