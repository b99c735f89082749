#include "protocol/daily.hpp"

#include <nlohmann/json.hpp>

#include "protocol/json_out.hpp"

namespace tilerace::protocol {

std::string encode_daily_results(const DailyResultsView& view) {
  using json = nlohmann::json;
  json modes = json::array();
  for (const DailyResultsView::Mode& m : view.modes) {
    json attempts = json::array();
    for (const DailyResultsView::Attempt& a : m.attempts) {
      attempts.push_back({{"rank", a.rank},
                          {"player", {{"id", a.player_id}, {"name", a.name}}},
                          {"game", a.game_id},
                          {"score", a.score},
                          {"max_tile", a.max_tile},
                          {"moves", a.moves},
                          {"at", a.at}});
    }
    modes.push_back({{"mode", engine::to_string(m.mode->mode)},
                     {"size", m.mode->size},
                     {"target", m.mode->target},
                     {"seed", std::to_string(m.seed)},
                     {"attempts", std::move(attempts)}});
  }
  return dump({{"day", view.day}, {"modes", std::move(modes)}});
}

}  // namespace tilerace::protocol
