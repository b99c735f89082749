#pragma once
// The store's leaderboards: score boards per mode, size and period, and the rating board.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/types.hpp"
#include "protocol/period.hpp"
#include "server/store/rank_cache.hpp"

namespace tilerace::server {

enum class BoardKind : std::uint8_t { score, rating, daily };

struct LeaderboardQuery {
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  BoardKind kind = BoardKind::score;
  int limit = 10;
  std::string player_id;    // whose own entry to return as `me`; may be empty
  protocol::Period period;  // score boards only: the rating board is all-time
  // rating boards: the variant; whether provisional ratings are listed; the time of asking
  // (Unix ms: deviations grow idle, so who is listed depends on it)
  protocol::Variant variant = protocol::kDefaultVariant;
  bool provisional = false;
  std::int64_t now = 0;
  bool bots = false;  // rating boards: the bots' board (docs/bots.md), not the people's
};

// The board a leaderboard query asks for.
inline BoardId board_of(const LeaderboardQuery& q) {
  return q.kind == BoardKind::rating ? kRatingBoard : BoardId{q.mode, q.size, false, q.period};
}

// The periods besides all time whose score boards a result ended at ended_at (Unix ms) is on.
inline std::array<protocol::Period, 2> periods_of(std::int64_t ended_at) {
  return {protocol::period_containing(protocol::PeriodKind::day, ended_at),
          protocol::period_containing(protocol::PeriodKind::week, ended_at)};
}

struct Leaderboard {
  std::vector<BoardEntry> entries;
  std::optional<BoardEntry> me;
};

class BoardStore {
 public:
  virtual Leaderboard leaderboard(const LeaderboardQuery& query) = 0;

 protected:
  ~BoardStore() = default;
};

}  // namespace tilerace::server
