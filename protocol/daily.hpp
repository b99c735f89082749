#pragma once
// The daily challenge (our addition; docs/protocol.md, "The daily challenge"): the modes that
// have one seed a day. A daily game is one of these, to 2048, on the day's seed.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types.hpp"

namespace tilerace::protocol {

struct DailyMode {
  engine::Mode mode;
  int size;
  std::int64_t target;
  std::string_view key;  // names the mode in the seed and the store
};

inline constexpr std::array<DailyMode, 2> kDailyModes{{
    {engine::Mode::classic, 4, 2048, "classic-4"},
    {engine::Mode::classic, 5, 2048, "classic-5"},
}};

// The daily mode of mode and size, or nullptr when they have none.
inline const DailyMode* daily_mode(engine::Mode mode, int size) {
  for (const DailyMode& d : kDailyModes) {
    if (d.mode == mode && d.size == size) return &d;
  }
  return nullptr;
}

// GET /api/daily/<day> once the day is over: each mode's seed and ranked attempts, best first.
struct DailyResultsView {
  struct Attempt {
    int rank = 0;
    std::string player_id;
    std::string name;
    std::string game_id;
    std::int64_t score = 0;
    std::int64_t max_tile = 0;
    int moves = 0;
    std::int64_t at = 0;
  };
  struct Mode {
    const DailyMode* mode = nullptr;
    std::uint64_t seed = 0;
    std::vector<Attempt> attempts;
  };
  std::string day;
  std::vector<Mode> modes;
};
// {"day","modes":[{"mode","size","target","seed":"<decimal>","attempts":[{"rank","player":
// {"id","name"},"game","score","max_tile","moves","at"}]}]}
std::string encode_daily_results(const DailyResultsView& view);

}  // namespace tilerace::protocol
