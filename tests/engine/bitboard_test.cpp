#include "engine/bitboard.hpp"

#include <gtest/gtest.h>

#include <array>

#include "engine/game.hpp"
#include "engine/splitmix64.hpp"

namespace tilerace::engine {
namespace {

// The 16 cell values of a bitboard or a game, row by row.
std::array<std::int64_t, 16> to_values(bitboard::Board b) {
  std::array<std::int64_t, 16> v{};
  for (int i = 0; i < 16; ++i) {
    const auto e = (b >> (4 * i)) & 0xF;
    v[i] = e == 0 ? 0 : std::int64_t{1} << e;
  }
  return v;
}
std::array<std::int64_t, 16> to_values(const Game& g) {
  std::array<std::int64_t, 16> v{};
  for (int i = 0; i < 16; ++i) v[i] = g.cell(i / 4, i % 4);
  return v;
}

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
      ASSERT_EQ(bitboard::slide_board(b, d), got.board) << "position " << n << " dir " << int(d);
    }
    ASSERT_EQ(bitboard::can_move(b), can_move(g, ObstacleRule::fixed)) << "position " << n;
    ASSERT_EQ(bitboard::count_empty(b), count_empty(g)) << "position " << n;
  }
}

// Whole games: the bitboard's step (slide, SplitMix spawn, over) and the generic engine's
// classic 4×4 game agree move by move — board, points and the end — from the same seed.
TEST(Bitboard, StepPlaysSeededGamesExactlyAsTheGenericEngine) {
  SplitMix64 dirs(4);
  const int games = kPositions / 1000;
  for (int n = 0; n < games; ++n) {
    const auto seed = static_cast<std::uint64_t>(n) * 7919;
    Game game({Mode::classic, 4, 1 << 15, seed}, /*undo=*/false);
    SplitMix64 rng(seed);
    bitboard::Board b = bitboard::spawn(bitboard::spawn(0, rng), rng);
    ASSERT_EQ(to_values(b), to_values(game)) << "seed " << seed;
    while (game.state() == GameState::playing) {
      const auto d = static_cast<Direction>(dirs.below(4));
      const std::int64_t before = game.score();
      const MoveOutcome out = game.move(d);
      const bitboard::Stepped s = bitboard::step(b, d, rng);
      ASSERT_EQ(s.changed, out.changed) << "seed " << seed << " move " << game.moves();
      ASSERT_EQ(s.gained, game.score() - before) << "seed " << seed;
      ASSERT_EQ(to_values(s.board), to_values(game)) << "seed " << seed << " move " << game.moves();
      ASSERT_EQ(s.over, game.state() == GameState::over) << "seed " << seed;
      b = s.board;
    }
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
