// libFuzzer: the replay parser (engine::replay) on any config and move string. The first 11
// bytes choose mode, size, target and seed; the rest is the move string. A replay must
// never crash, must be deterministic, and a replay that succeeds must be consistent with
// the game it rebuilt (its history is the move string and replays to the same board).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "engine/game.hpp"

using namespace tilerace::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 11 || size > 4096) return 0;
  GameConfig config;
  config.mode = static_cast<Mode>(data[0] % 4);
  config.size = 2 + data[1] % 8;                      // 2 … 9: invalid sizes too
  config.target = std::int64_t{1} << (data[2] % 20);  // 1 … 2^19: invalid targets too
  std::memcpy(&config.seed, data + 3, sizeof config.seed);
  const std::string_view moves(reinterpret_cast<const char*>(data + 11), size - 11);
  if (!valid_config(config)) return 0;  // the server refuses these before replaying

  ReplayError error;
  const auto game = replay(config, moves, &error);
  const auto again = replay(config, moves);
  if (game.has_value() != again.has_value()) std::abort();
  if (!game) {
    if (error.position >= moves.size()) std::abort();  // must point at a letter
    return 0;
  }
  if (game->score() != again->score() || game->moves() != again->moves()) std::abort();
  if (game->history() != moves) std::abort();  // every letter was applied, in order
  const auto rebuilt = replay(config, game->history());
  if (!rebuilt || rebuilt->score() != game->score() || rebuilt->state() != game->state()) {
    std::abort();
  }
  for (int r = 0; r < game->size(); ++r) {
    for (int c = 0; c < game->size(); ++c) {
      if (rebuilt->cell(r, c) != game->cell(r, c)) std::abort();
    }
  }
  return 0;
}
