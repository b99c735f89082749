#include "engine/splitmix64.hpp"

#include <gtest/gtest.h>

namespace tilerace::engine {
namespace {

TEST(SplitMix64, SeedZeroMatchesReferenceSequence) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(rng.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(rng.next(), 0x06c45d188009454fULL);
}

TEST(SplitMix64, SeedFortyTwoMatchesReferenceSequence) {
  SplitMix64 rng(42);
  EXPECT_EQ(rng.next(), 0xbdd732262feb6e95ULL);
  EXPECT_EQ(rng.next(), 0x28efe333b266f103ULL);
  EXPECT_EQ(rng.next(), 0x47526757130f9f52ULL);
}

TEST(SplitMix64, CopiedStateRepeatsTheSequence) {
  SplitMix64 a(7);
  a.next();
  SplitMix64 b = a;
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next(), b.next());
}

TEST(SplitMix64, BelowStaysUnderItsBound) {
  SplitMix64 rng(3);
  for (int i = 0; i < 1000; ++i) ASSERT_LT(rng.below(7), 7u);
}

}  // namespace
}  // namespace tilerace::engine
