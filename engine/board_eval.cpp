#include "engine/board_eval.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace tilerace::engine::bitboard {

namespace {

// Tuned with bench/bot_bench (docs/performance.md): each weight per unit of its feature.
struct Weights {
  float empty = 500.0F;   // per empty cell
  float merge = 1000.0F;  // per pair of equal neighbours (empty cells between them ignored)
  float order = 20.0F;    // per unit of disorder, on exponents raised to kOrderPower
  float rough = 15.0F;    // per unit of |exponent step| between neighbours, times the larger
  float edge = 6.0F;      // per unit of the largest exponent squared, when it sits at an end
};
constexpr float kOrderPower = 3.0F;

constexpr Weights kWeights;

struct LineTable {
  std::array<float, 65536> score{};

  LineTable() {
    const Weights& w = kWeights;
    for (std::uint32_t line = 0; line < 65536; ++line) {
      std::array<int, 4> e{};
      for (int i = 0; i < 4; ++i) e[i] = static_cast<int>((line >> (4 * i)) & 0xF);
      int empty = 0;
      int merges = 0;
      float rough = 0;
      int previous = 0;
      for (const int x : e) {
        if (x == 0) {
          ++empty;
          continue;
        }
        if (previous != 0) {
          if (x == previous) ++merges;
          rough += static_cast<float>(std::abs(x - previous) * std::max(x, previous));
        }
        previous = x;
      }
      float rising = 0;
      float falling = 0;
      for (int i = 1; i < 4; ++i) {
        const float a = std::pow(static_cast<float>(e[i - 1]), kOrderPower);
        const float b = std::pow(static_cast<float>(e[i]), kOrderPower);
        if (a > b)
          falling += a - b;
        else
          rising += b - a;
      }
      const int top = *std::max_element(e.begin(), e.end());
      const bool at_end = top > 0 && (e[0] == top || e[3] == top);
      score[line] = w.empty * static_cast<float>(empty) + w.merge * static_cast<float>(merges) -
                    w.order * std::min(rising, falling) - w.rough * rough +
                    (at_end ? w.edge * static_cast<float>(top * top) : 0.0F);
    }
  }
};

const LineTable& lines() {
  static const LineTable t;
  return t;
}

float rows(const LineTable& t, Board b) noexcept {
  return t.score[b & 0xFFFF] + t.score[(b >> 16) & 0xFFFF] + t.score[(b >> 32) & 0xFFFF] +
         t.score[(b >> 48) & 0xFFFF];
}

}  // namespace

float evaluate(Board board) noexcept {
  const LineTable& t = lines();
  return rows(t, board) + rows(t, transpose(board));
}

}  // namespace tilerace::engine::bitboard
