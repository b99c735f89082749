#pragma once
// Quick match by rating: how far from their own rating a waiting player may be paired. A
// player's window is ±(100 + RD) when they join the queue and widens by 50 every 5 s they wait,
// up to ±600. Two players may race when each one's rating is within the other's window; of
// those a player may race, the closest rating first (then whoever waited longest). After
// --quick-match-bot-after the computer races whoever is still alone.
#include <algorithm>
#include <chrono>
#include <cmath>

namespace tilerace::server {

struct MatchWindow {
  double base = 100;  // + RD: the window at the start
  double step = 50;   // added every `every`
  std::chrono::milliseconds every{5000};
  double max = 600;

  // The window (± rating points) of a player with deviation rd after waiting `waited`.
  double at(double rd, std::chrono::milliseconds waited) const {
    const auto steps = std::max<std::chrono::milliseconds::rep>(0, waited / every);
    return std::min(max, base + rd + step * static_cast<double>(steps));
  }
};

inline constexpr MatchWindow kMatchWindow{};

// Whether two waiting players may race: the gap within both windows.
inline bool within_reach(double rating_a, double window_a, double rating_b, double window_b) {
  return std::abs(rating_a - rating_b) <= std::min(window_a, window_b);
}

}  // namespace tilerace::server
