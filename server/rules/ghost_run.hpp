#pragma once
// Ghost races (docs/protocol.md, "Ghost races"): a recorded game raced again. The ghost is a
// racer whose moves are the recorded letters, each played when its recorded time since the
// start comes round in the new race (RaceState plays them on its clock), on the recorded
// game's seed. A recording without times is played at a steady kGhostPace. Which games may be
// raced, and what the ghost racer is called, are decided here.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types.hpp"
#include "protocol/messages.hpp"
#include "server/rules/play_records.hpp"
#include "server/rules/standings.hpp"
#include "server/rules/variant_rating.hpp"

namespace tilerace::server {

// A recording without times: one letter every kGhostPace from the start (three a second).
inline constexpr std::chrono::milliseconds kGhostPace{333};

struct GhostRun {
  std::string game_id;
  std::string player_id;      // whose run it is
  std::string name;           // their name when the room was made
  VariantRating rating;       // theirs in the run's variant, when the room was made
  engine::GameConfig config;  // its seed is every race's in the room
  std::string moves;
  std::vector<std::int32_t> times;  // one per letter of moves, or none

  // When letter k (< moves.size()) is due, from the race's start.
  std::chrono::milliseconds due(std::size_t k) const;
};

// The ghost racer's player id and name for run: "ghost-<game id>", "<name> (ghost)".
std::string ghost_player_id(std::string_view game_id);
std::string ghost_player_name(std::string_view owner_name);
// The game id a ghost racer's player id names, or nullopt for anyone else.
std::optional<std::string> ghost_of_player_id(std::string_view id);

// Why game may not be raced as a ghost on the day `today`, or nullopt when it may: a daily
// game of a day that is not over (its seed is the day's), or a game with undos (a race has
// none, so its letters cannot be replayed as moves).
struct GhostRefusal {
  protocol::ErrorCode code;
  std::string_view message;
};
std::optional<GhostRefusal> ghost_refusal(const GameRecord& game, std::string_view today);

// The run of game, played by its player, called owner_name and rated owner_ratings now (the
// run keeps the one of the game's variant).
GhostRun ghost_run_of(const GameRecord& game, std::string owner_name,
                      const PlayerRatings& owner_ratings);

}  // namespace tilerace::server
