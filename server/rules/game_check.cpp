#include "server/rules/game_check.hpp"

#include <fmt/core.h>

#include <cstdint>

namespace tilerace::server {

std::string game_check(const engine::Game& game) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a over the cells' wire values
  for (int r = 0; r < game.size(); ++r) {
    for (int c = 0; c < game.size(); ++c) {
      auto v = static_cast<std::uint64_t>(game.cell(r, c));
      for (int b = 0; b < 8; ++b, v >>= 8) hash = (hash ^ (v & 0xff)) * 1099511628211ull;
    }
  }
  return fmt::format("{}:{}:{:016x}", game.history().size(), game.score(), hash);
}

}  // namespace tilerace::server
