#include "engine/bitboard.hpp"

#include <gtest/gtest.h>

#include "engine/splitmix64.hpp"

namespace tilerace::engine {
namespace {

// A random 4×4 position: each cell empty with probability 1/4, else an exponent 1..14 (so
// that every merge stays within the bitboard's tiles). Small exponents are likelier, so that
// equal neighbours, the interesting case, are common.
Grid random_position(SplitMix64& rng) {
  Grid g;
  g.size = 4;
  for (int i = 0; i < 16; ++i) {
    const std::uint64_t r = rng.next();
    g.cells[i] =
        (r & 3) == 0 ? kEmpty : static_cast<std::uint8_t>(1 + (r >> 8) % ((r >> 2) & 1 ? 4 : 14));
  }
  return g;
}

TEST(Bitboard, GridRoundTripAndTranspose) {
  SplitMix64 rng(1);
  for (int n = 0; n < 10000; ++n) {
    const Grid g = random_position(rng);
    const bitboard::Board b = bitboard::from_grid(g);
    EXPECT_EQ(bitboard::to_grid(b), g);
    const Grid t = bitboard::to_grid(bitboard::transpose(b));
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) ASSERT_EQ(t.at(r, c), g.at(c, r));
    }
    EXPECT_EQ(bitboard::transpose(bitboard::transpose(b)), b);
  }
}

// The bitboard and the generic engine agree on every slide of a million random positions:
// the board after it, the points it gained, whether it changed anything, and whether any
// move is left.
#ifdef TILERACE_SANITIZED
constexpr int kPositions = 100'000;
#else
constexpr int kPositions = 1'000'000;
#endif

TEST(Bitboard, SlidesExactlyAsTheGenericEngineOnAMillionPositions) {
  SplitMix64 rng(2048);
  for (int n = 0; n < kPositions; ++n) {
    const Grid g = random_position(rng);
    const bitboard::Board b = bitboard::from_grid(g);
    for (const Direction d : {Direction::up, Direction::down, Direction::left, Direction::right}) {
      Grid expected = g;
      SlideResult result;
      slide(expected, d, ObstacleRule::fixed, result, nullptr);
      const bitboard::Slid got = bitboard::slide(b, d);
      ASSERT_EQ(bitboard::to_grid(got.board), expected) << "position " << n << " dir " << int(d);
      ASSERT_EQ(got.gained, result.gained) << "position " << n << " dir " << int(d);
      ASSERT_EQ(got.board != b, result.changed) << "position " << n << " dir " << int(d);
    }
    ASSERT_EQ(bitboard::can_move(b), can_move(g, ObstacleRule::fixed)) << "position " << n;
    ASSERT_EQ(bitboard::count_empty(b), count_empty(g)) << "position " << n;
  }
}

TEST(Bitboard, TheLargestTilesDoNotMerge) {
  Grid g;
  g.size = 4;
  g.at(0, 0) = bitboard::kMaxExponent;
  g.at(0, 1) = bitboard::kMaxExponent;
  const bitboard::Board b = bitboard::from_grid(g);
  EXPECT_EQ(bitboard::slide(b, Direction::left).board, b);
  EXPECT_EQ(bitboard::slide(b, Direction::left).gained, 0);
}

}  // namespace
}  // namespace tilerace::engine
