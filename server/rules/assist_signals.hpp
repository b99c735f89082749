#pragma once
// Signals of computer-assisted play (docs/operations.md, "Moderation"), worked out from a
// recorded game: how fast and how steadily its moves came (from their times), and — on classic
// 4×4, where the built-in computer plays — how often the player's move was the one expectimax
// chooses at a fixed strength (medium: two moves deep). They suggest; they prove nothing.
// Pure but for the Bot's search table: run it on a worker thread, never a network thread.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/bot.hpp"
#include "server/rules/play_records.hpp"

namespace tilerace::server {

// At most this many positions of a game are compared with expectimax (evenly spread).
inline constexpr int kMaxSampledMoves = 150;

// The signals of game (its moves replayed from its seed), as the store keeps them
// (SignalRecord: moves_per_second — 1000 / the median gap between two moves, 0 without times;
// spread — the gaps' interquartile range over their median, 0 a metronome; match_rate — the
// share of sampled positions where the move was expectimax's; suspicion — suspicion_of); bot
// does the comparisons.
SignalRecord assist_signals(const GameRecord& game, engine::Bot& bot);

// The suspicion score the console sorts by, 0–100: 75 × the match rate + 25 × the steadiness
// (1 − min(1, spread)); without a match rate (not classic 4×4) only the steadiness counts,
// and without times only the match rate.
double suspicion_of(const SignalRecord& s);

}  // namespace tilerace::server
