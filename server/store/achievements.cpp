#include "server/store/achievements.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "server/store/store.hpp"

namespace tilerace::server {

namespace {

using engine::Mode;

bool tiles(const GameRecord& g) { return g.config.mode != Mode::fifteen; }
// Reached a target of at least 2048 (a small target earns nothing here).
bool won_big(const GameRecord& g) {
  return tiles(g) && g.config.target >= 2048 && g.max_tile >= g.config.target;
}

constexpr std::array kAchievements{
    Achievement{"tile_2048", "2048", "Make a 2048 tile",
                [](const Feat& f) { return tiles(f.game) && f.game.max_tile >= 2048; }},
    Achievement{"tile_4096", "4096", "Make a 4096 tile",
                [](const Feat& f) { return tiles(f.game) && f.game.max_tile >= 4096; }},
    Achievement{"wide_open", "Wide open", "Win a 5×5 game (a target of 2048 or more)",
                [](const Feat& f) { return f.game.config.size == 5 && won_big(f.game); }},
    Achievement{
        "no_regrets", "No regrets", "Win a ranked solo game to 2048 or more without undo",
        [](const Feat& f) { return f.game.ranked && f.game.room.empty() && won_big(f.game); }},
    Achievement{"quick_fingers", "Quick fingers", "Solve the 4×4 Fifteen in under 200 moves",
                [](const Feat& f) {
                  return f.game.config.mode == Mode::fifteen && f.game.config.size == 4 &&
                         f.game.state == engine::GameState::solved && f.game.move_count < 200;
                }},
    Achievement{"first_race_win", "First win", "Win a race against a person",
                [](const Feat& f) { return f.won_race; }},
    Achievement{"on_a_roll", "On a roll", "Win five races against people in a row",
                [](const Feat& f) { return f.won_race && f.win_streak >= 5; }},
    Achievement{"machine_breaker", "Machine breaker", "Beat the computer on hard",
                [](const Feat& f) { return f.beat_bot == engine::BotStrength::hard; }},
};

}  // namespace

std::span<const Achievement> achievements() { return kAchievements; }

const Achievement* find_achievement(std::string_view id) {
  for (const Achievement& a : kAchievements) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

std::vector<std::string_view> earned_by(const Feat& feat) {
  std::vector<std::string_view> ids;
  for (const Achievement& a : kAchievements) {
    if (a.earned(feat)) ids.push_back(a.id);
  }
  return ids;
}

void order_grants(std::vector<Grant>& grants) {
  const auto position = [](const Grant& g) {
    const Achievement* a = find_achievement(g.achievement);
    return a == nullptr ? kAchievements.size() : static_cast<std::size_t>(a - kAchievements.data());
  };
  std::stable_sort(grants.begin(), grants.end(), [&](const Grant& x, const Grant& y) {
    return std::pair(x.at, position(x)) < std::pair(y.at, position(y));
  });
}

std::vector<Earned> earned_in(const RaceRecord& race, const std::vector<int>& streaks) {
  std::vector<Earned> out;
  for (const GameRecord& g : race.games) {
    // In a race with the computer the people are the ones with an outcome; the computer
    // earns nothing.
    const bool person =
        race.against_bots.empty() ||
        std::any_of(race.against_bots.begin(), race.against_bots.end(),
                    [&](const BotOutcome& o) { return o.player_id == g.player_id; });
    if (!person) continue;
    Feat feat{g};
    for (std::size_t i = 0; i < race.ratings.size(); ++i) {
      if (race.ratings[i].player_id != g.player_id) continue;
      feat.won_race = race.ratings[i].won;
      feat.win_streak = i < streaks.size() ? streaks[i] : 0;
    }
    for (const BotOutcome& o : race.against_bots) {
      if (o.player_id == g.player_id && o.won) feat.beat_bot = o.strength;
    }
    for (const std::string_view id : earned_by(feat)) out.push_back({&g, id});
  }
  return out;
}

}  // namespace tilerace::server
