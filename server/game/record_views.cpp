#include "server/game/record_views.hpp"

#include "server/base/unix_time.hpp"
#include "server/store/achievements.hpp"

namespace tilerace::server {

LeaderboardQuery query_of(const protocol::LeaderboardRequest& request, std::string player_id) {
  return {.mode = request.mode,
          .size = request.size,
          .kind = request.kind == protocol::LeaderboardKind::rating  ? BoardKind::rating
                  : request.kind == protocol::LeaderboardKind::daily ? BoardKind::daily
                                                                     : BoardKind::score,
          .limit = request.limit,
          .player_id = std::move(player_id),
          .period = request.period,
          .variant = request.variant,
          .provisional = request.provisional,
          .now = unix_ms(),
          .bots = request.bots};
}

protocol::LeaderboardEntry view_of(const BoardEntry& e) {
  return {.rank = e.rank,
          .player_id = e.player_id,
          .name = e.name,
          .score = e.score,
          .max_tile = e.max_tile,
          .moves = e.moves,
          .game_id = e.game_id,
          .at = e.at,
          .rating = e.rating,
          .rd = e.rd,
          .provisional = e.provisional,
          .listed = e.listed,
          .wins = e.wins,
          .losses = e.losses,
          .bot = e.bot};
}

std::vector<protocol::LeaderboardEntry> views_of(const std::vector<BoardEntry>& entries) {
  std::vector<protocol::LeaderboardEntry> views;
  views.reserve(entries.size());
  for (const BoardEntry& e : entries) views.push_back(view_of(e));
  return views;
}

std::optional<protocol::AchievementView> view_of(const Grant& grant) {
  const Achievement* a = find_achievement(grant.achievement);
  if (a == nullptr) return std::nullopt;
  return protocol::AchievementView{a->id, a->title, a->description, grant.game_id, grant.at};
}

std::vector<std::string> announcements_of(const std::vector<Grant>& grants) {
  std::vector<std::string> messages;
  for (const Grant& g : grants) {
    if (const auto view = view_of(g)) messages.push_back(protocol::encode_achievement(*view));
  }
  return messages;
}

}  // namespace tilerace::server
