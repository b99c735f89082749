#pragma once
// Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012 revision), each race its
// own rating period: a racer's new rating, deviation and volatility from the racers they
// finished against. Pure arithmetic: the caller gives the time idle and the results.
#include <span>
#include <vector>

namespace tilerace::server::glicko2 {

// A rating as players see it (the Glicko scale): rating, rating deviation (RD), volatility.
struct Rating {
  double rating = 1500;
  double rd = 350;
  double volatility = 0.06;
  bool operator==(const Rating&) const = default;
};

inline constexpr Rating kStart{};              // a player's first rating in a variant
inline constexpr double kTau = 0.5;            // the system constant: how fast volatility moves
inline constexpr double kMaxRd = 350;          // the deviation of someone never seen
inline constexpr double kProvisionalRd = 110;  // at or above: shown with "?"
// Idle growth: RD² grows by kIdleGrowth² a day, so that a settled RD of 50 is back at 350
// after a year without a race: sqrt((350² − 50²) / 365).
inline constexpr double kIdleGrowth = 18.1;
// Leaderboards list a rating whose deviation is at most this (the rest on request).
inline constexpr double kListedRd = 75;
// The floor of a migrated deviation (settled_rd).
inline constexpr double kSettledRd = 50;

// One result of a period: the opponent's rating and the score against them (1 a win, ½ a
// tie, 0 a loss).
struct Result {
  Rating opponent;
  double score = 0;
};

// The rating after one period with these results (none: only the deviation grows, by the
// volatility).
Rating update(const Rating& player, std::span<const Result> results, double tau = kTau);

// r's deviation after days without a race, capped at kMaxRd.
Rating idle(const Rating& r, double days);

// The deviation an Elo rating earned over `races` rated races is given when it becomes a
// Glicko-2 rating (the migration): what Glicko's deviation would be after that many even
// results against opponents of known rating, 1/RD² = 1/350² + races·q²/4 with
// q = ln 10 / 400, never below kSettledRd (350 for none, 246 after one, 105 after ten, 62
// after thirty, 50 from forty-eight on).
double settled_rd(int races);

// A race as rating periods: each racer's new rating from their place against every other
// racer (a better place a win, an equal one ½). place[i] is racer i's (0 first).
std::vector<Rating> race(std::span<const Rating> racers, std::span<const int> place,
                         double tau = kTau);

}  // namespace tilerace::server::glicko2
