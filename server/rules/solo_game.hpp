#pragma once
// A player's solo game as the solo rules play it (server/rules/solo_rules.hpp) and SoloGames
// keeps it: the game, where it came from (its seed given or drawn, a daily challenge's day),
// when each letter was played, and how much of it the journal holds.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.hpp"

namespace tilerace::server {

struct SoloGame {
  std::string id;
  engine::Game game;
  bool explicit_seed = false;
  std::int64_t started_at = 0;  // Unix milliseconds
  // How much of the history the journal holds already (the next pass adds the rest); 0: the
  // next pass writes the whole entry. Reset to 0 whenever the history is rewritten.
  std::size_t journaled = 0;
  // A daily challenge game (rules/daily.hpp): its day; daily_ranked for the player's first
  // attempt that day, the only one that ranks (on the day's daily board only).
  std::string daily;
  bool daily_ranked = false;
  bool day_over = false;  // a daily game its day's end ended (solo_day_over)
  // When each letter of the history was played (ms from started_at); nullopt once unknown
  // (restored from a journal entry without them).
  std::optional<std::vector<std::int32_t>> times = std::vector<std::int32_t>{};
  // A shared store: the epoch this node holds the game's journal entry under
  // (ActiveGameRecord::epoch): 1 for a game started here, the store's for one resumed here.
  std::int64_t epoch = 1;

  bool ranked() const noexcept {
    return daily.empty() ? !explicit_seed && game.undos() == 0 : daily_ranked;
  }
};

}  // namespace tilerace::server
