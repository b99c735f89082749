#pragma once
// The store's records as the protocol shows them, and back: the one place where the store's
// own types (server/store/store.hpp) meet the wire's (protocol/messages.hpp, encode.hpp).
#include <optional>
#include <string>
#include <vector>

#include "protocol/encode.hpp"
#include "protocol/messages.hpp"
#include "server/store/board_store.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

// The store's question for a leaderboard request already answered at a period (period_at),
// asked by player_id (empty: nobody's own entry).
LeaderboardQuery query_of(const protocol::LeaderboardRequest& request, std::string player_id);
protocol::LeaderboardEntry view_of(const BoardEntry& entry);
std::vector<protocol::LeaderboardEntry> views_of(const std::vector<BoardEntry>& entries);

// A held achievement as clients see it (it refers to grant); nullopt for one this server no
// longer defines.
std::optional<protocol::AchievementView> view_of(const Grant& grant);
// The `achievement` message of each grant.
std::vector<std::string> announcements_of(const std::vector<Grant>& grants);

}  // namespace tilerace::server
