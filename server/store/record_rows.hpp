#pragma once
// Reading the Recorder's results back into records (server/store/recorder*.cpp): the columns
// each statement's comment in sql.hpp lists, in that order.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/sql.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

inline engine::Mode mode_of(const std::string& name) {
  return engine::mode_from_string(name).value_or(engine::Mode::classic);
}

// A rating variant as stored (only kVariants' names are ever written).
inline protocol::Variant variant_from_column(const std::string& name) {
  return protocol::variant_from_string(name).value_or(protocol::kDefaultVariant);
}

// A game's config from four columns (mode, size, target, seed) starting at col.
inline engine::GameConfig config_from(const SqlResult& r, std::size_t row, std::size_t col) {
  return {mode_of(r.string(row, col)), r.integer(row, col + 1), r.int64(row, col + 2),
          std::stoull(r.string(row, col + 3))};
}

// The player in row i of a result with select_player's columns (their ratings: ratings_in).
inline PlayerRecord player_of(const SqlResult& r, std::size_t i = 0) {
  return PlayerRecord{.id = r.string(i, 0),
                      .name = r.string(i, 1),
                      .created_at = r.int64(i, 2),
                      .wins = r.integer(i, 3),
                      .losses = r.integer(i, 4),
                      .registered_at = r.int64(i, 5),
                      .renamed_at = r.int64(i, 6),
                      .bot = r.boolean(i, 7)};
}

// Every row of a result, each read with read.
template <class Read>
auto rows_of(const SqlResult& r, Read read) {
  std::vector<decltype(read(r, 0))> rows;
  rows.reserve(r.rows());
  for (std::size_t i = 0; i < r.rows(); ++i) rows.push_back(read(r, i));
  return rows;
}

// A game's move times as stored: comma-separated, '' for none.
inline std::vector<std::int32_t> times_from(std::string_view text) {
  std::vector<std::int32_t> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::int32_t t = 0;
    std::from_chars(text.data(), text.data() + std::min(comma, text.size()), t);
    out.push_back(t);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return out;
}

// The game in row i of a result with select_game's columns.
inline GameRecord game_of(const SqlResult& r, std::size_t i) {
  return GameRecord{.id = r.string(i, 0),
                    .player_id = r.string(i, 1),
                    .config = config_from(r, i, 2),
                    .moves = r.string(i, 6),
                    .score = r.int64(i, 7),
                    .max_tile = r.int64(i, 8),
                    .move_count = r.integer(i, 9),
                    .state = state_from_column(r.string(i, 10)),
                    .ranked = r.boolean(i, 11),
                    .started_at = r.int64(i, 12),
                    .ended_at = r.int64(i, 13),
                    .room = r.string(i, 14),
                    .daily = r.string(i, 15),
                    .times = times_from(r.string(i, 16))};
}

}  // namespace tilerace::server
