#include "server/rules/ghost_run.hpp"

namespace tilerace::server {

namespace {
constexpr std::string_view kGhostPrefix = "ghost-";
}  // namespace

std::chrono::milliseconds GhostRun::due(std::size_t k) const {
  if (times.size() == moves.size()) return std::chrono::milliseconds(times[k]);
  return kGhostPace * static_cast<std::int64_t>(k + 1);
}

std::string ghost_player_id(std::string_view game_id) {
  return std::string(kGhostPrefix).append(game_id);
}

std::string ghost_player_name(std::string_view owner_name) {
  return std::string(owner_name).append(" (ghost)");
}

std::optional<std::string> ghost_of_player_id(std::string_view id) {
  if (!id.starts_with(kGhostPrefix) || id.size() == kGhostPrefix.size()) return std::nullopt;
  return std::string(id.substr(kGhostPrefix.size()));
}

std::optional<GhostRefusal> ghost_refusal(const GameRecord& game, std::string_view today) {
  if (!game.daily.empty() && game.daily >= today) {
    return GhostRefusal{protocol::ErrorCode::not_allowed,
                        "a daily challenge game is raced once its day is over"};
  }
  if (game.moves.find('Z') != std::string::npos) {
    return GhostRefusal{protocol::ErrorCode::not_allowed,
                        "a game with undos cannot be raced: a race has none"};
  }
  return std::nullopt;
}

GhostRun ghost_run_of(const GameRecord& game, std::string owner_name,
                      const PlayerRatings& owner_ratings) {
  return {.game_id = game.id,
          .player_id = game.player_id,
          .name = std::move(owner_name),
          .rating = owner_ratings[protocol::index_of(
              protocol::variant_of(game.config.mode, game.config.size))],
          .config = game.config,
          .moves = game.moves,
          .times = game.times};
}

}  // namespace tilerace::server
