#pragma once
// The achievements, defined in one table: what each is called, what it asks, and the rule
// that decides it from a recorded game (and, for a race game, what the race recorded about
// its player). The stores apply the rules inside the transaction that records the game and
// keep each achievement once per player, so one is granted exactly once, from recorded games
// only, whatever restarts or retries happen.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types.hpp"

namespace tilerace::server {

struct GameRecord;
struct Grant;
struct RaceRecord;

// What a recorded game says about its player.
struct Feat {
  explicit Feat(const GameRecord& g) : game(g) {}
  const GameRecord& game;
  bool won_race = false;  // the game's race was won by its player, against people
  int win_streak = 0;     // their race wins against people in a row, this race included
  std::optional<engine::BotStrength> beat_bot;  // the computer they beat in this race
};

struct Achievement {
  std::string_view id;  // stable: stored, and sent to clients
  std::string_view title;
  std::string_view description;
  bool (*earned)(const Feat& feat);
};

// Every achievement, in the order a profile lists them.
std::span<const Achievement> achievements();
// The achievement named id, or nullptr.
const Achievement* find_achievement(std::string_view id);
// The ids of the achievements feat earns (whether or not its player has them already).
std::vector<std::string_view> earned_by(const Feat& feat);

// One game's achievement, to be granted unless its player has it.
struct Earned {
  const GameRecord* game;
  std::string_view achievement;
};
// What each game of race earns its player; streaks[i] is the race win streak of
// race.ratings[i]'s player after this race.
std::vector<Earned> earned_in(const RaceRecord& race, const std::vector<int>& streaks);

}  // namespace tilerace::server

namespace tilerace::server {

// Puts grants in the order they were granted: by time, then as the table lists them.
void order_grants(std::vector<Grant>& grants);

}  // namespace tilerace::server
