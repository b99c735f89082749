#pragma once
// How promising a 4×4 bitboard position is, for the computer opponent's search: a sum over
// the four rows and the four columns of a 65,536-entry table of line scores. A line scores
// for its empty cells, its equal neighbours (merges to come) and its largest tile at an end
// (big tiles kept on the edge), and loses for being out of order (a line that rises and
// falls traps small tiles between big ones) and for steps between neighbours (rough lines
// merge late). The weights were tuned by playing seeded games with bench/bot_bench
// (docs/performance.md).
#include "engine/bitboard.hpp"

namespace tilerace::engine::bitboard {

// The position's score; higher is better. Finite, and above -1e8 for any board.
float evaluate(Board board) noexcept;

}  // namespace tilerace::engine::bitboard
