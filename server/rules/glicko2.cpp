#include "server/rules/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tilerace::server::glicko2 {

namespace {

constexpr double kScale = 173.7178;    // Glicko to Glicko-2: (r − 1500) / kScale
constexpr double kEpsilon = 0.000001;  // the volatility iteration's tolerance (step 5)

double g(double phi) {
  return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

// The new volatility (step 5: the Illinois algorithm on f).
double volatility(double sigma, double phi, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  const double phi2 = phi * phi;
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi2 + v + ex;
    return ex * (delta * delta - phi2 - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double A = a;
  double B = 0;
  if (delta * delta > phi2 + v) {
    B = std::log(delta * delta - phi2 - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    B = a - k * tau;
  }
  double fA = f(A);
  double fB = f(B);
  while (std::abs(B - A) > kEpsilon) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2);
}

}  // namespace

Rating update(const Rating& player, std::span<const Result> results, double tau) {
  const double mu = (player.rating - 1500) / kScale;
  const double phi = player.rd / kScale;
  if (results.empty()) {
    const double grown = std::sqrt(phi * phi + player.volatility * player.volatility);
    return {player.rating, std::min(kMaxRd, grown * kScale), player.volatility};
  }
  double inverse_v = 0;  // steps 3 and 4
  double sum = 0;
  for (const Result& r : results) {
    const double mu_j = (r.opponent.rating - 1500) / kScale;
    const double g_j = g(r.opponent.rd / kScale);
    const double e = 1 / (1 + std::exp(-g_j * (mu - mu_j)));
    inverse_v += g_j * g_j * e * (1 - e);
    sum += g_j * (r.score - e);
  }
  const double v = 1 / inverse_v;
  const double sigma = volatility(player.volatility, phi, v, v * sum, tau);
  const double phi_star = std::sqrt(phi * phi + sigma * sigma);             // step 6
  const double phi_new = 1 / std::sqrt(1 / (phi_star * phi_star) + 1 / v);  // step 7
  const double mu_new = mu + phi_new * phi_new * sum;
  return {mu_new * kScale + 1500, std::min(kMaxRd, phi_new * kScale), sigma};
}

Rating idle(const Rating& r, double days) {
  const double grown = std::sqrt(r.rd * r.rd + kIdleGrowth * kIdleGrowth * std::max(0.0, days));
  return {r.rating, std::min(kMaxRd, grown), r.volatility};
}

double settled_rd(int races) {
  const double q = std::numbers::ln10 / 400;
  const double precision = 1 / (kMaxRd * kMaxRd) + std::max(0, races) * q * q / 4;
  return std::max(kSettledRd, 1 / std::sqrt(precision));
}

std::vector<Rating> race(std::span<const Rating> racers, std::span<const int> place, double tau) {
  std::vector<Rating> after;
  after.reserve(racers.size());
  std::vector<Result> results;
  for (std::size_t i = 0; i < racers.size(); ++i) {
    results.clear();
    for (std::size_t j = 0; j < racers.size(); ++j) {
      if (j == i) continue;
      const double score = place[i] < place[j] ? 1 : place[i] == place[j] ? 0.5 : 0;
      results.push_back({racers[j], score});  // everyone as they were before the race
    }
    after.push_back(update(racers[i], results, tau));
  }
  return after;
}

}  // namespace tilerace::server::glicko2
