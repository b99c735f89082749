#include "protocol/encode.hpp"

#include <nlohmann/json.hpp>

namespace tilerace::protocol {

namespace {

using json = nlohmann::json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

void put_rid(json& j, const Rid& rid) {
  if (const auto* s = std::get_if<std::string>(&rid)) j["rid"] = *s;
  if (const auto* i = std::get_if<std::int64_t>(&rid)) j["rid"] = *i;
}

json cell_json(engine::Cell c) { return json::array({c.row, c.col}); }

json board_json(const engine::Game& game) {
  json rows = json::array();
  for (int r = 0; r < game.size(); ++r) {
    json row = json::array();
    for (int c = 0; c < game.size(); ++c) row.push_back(game.cell(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

json game_json(const GameView& view) {
  const engine::Game& g = view.game;
  const engine::GameConfig& config = g.config();
  return {{"id", view.id},
          {"mode", engine::to_string(config.mode)},
          {"size", config.size},
          {"target", config.target},
          {"board", board_json(g)},
          {"score", g.score()},
          {"moves", g.moves()},
          {"max_tile", g.max_tile()},
          {"state", engine::to_string(g.state())},
          {"won", g.won()},
          {"ranked", view.ranked},
          {"undos", g.undos()}};
}

}  // namespace

std::string encode_welcome(PlayerInfo player, std::string_view token, bool resumed,
                           const Rid& rid) {
  json j{{"type", "welcome"},
         {"player", {{"id", player.id}, {"name", player.name}}},
         {"token", token},
         {"resumed", resumed},
         {"protocol", 1}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_pong(const Rid& rid) {
  json j{{"type", "pong"}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_game(const GameView& game, const Rid& rid) {
  json j{{"type", "game"}, {"game", game_json(game)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_moved(const GameView& view, std::optional<engine::Direction> dir,
                         const engine::MoveOutcome& outcome, const Rid& rid) {
  const engine::Game& g = view.game;
  json motions = json::array();
  for (const auto& m : outcome.motions) {
    motions.push_back({{"from", cell_json(m.from)},
                       {"to", cell_json(m.to)},
                       {"value", m.value},
                       {"merged", m.merged}});
  }
  json spawned = json::array();
  for (const auto& s : outcome.spawned)
    spawned.push_back({{"at", cell_json(s.at)}, {"value", s.value}});
  json vanished = json::array();
  for (const auto& c : outcome.vanished) vanished.push_back(cell_json(c));
  json j{{"type", "moved"},
         {"game", view.id},
         {"changed", outcome.changed},
         {"gained", outcome.gained},
         {"score", g.score()},
         {"moves", g.moves()},
         {"board", board_json(g)},
         {"max_tile", g.max_tile()},
         {"state", engine::to_string(g.state())},
         {"won", g.won()},
         {"motions", std::move(motions)},
         {"spawned", std::move(spawned)},
         {"vanished", std::move(vanished)}};
  if (dir) j["dir"] = engine::to_string(*dir);
  put_rid(j, rid);
  return dump(j);
}

std::string encode_error(const ProtocolError& error, const Rid& rid) {
  json j{{"type", "error"}, {"code", to_string(error.code)}, {"message", error.message}};
  if (!error.field.empty()) j["field"] = error.field;
  put_rid(j, rid);
  return dump(j);
}

std::string encode_error(ErrorCode code, std::string_view message, const Rid& rid) {
  return encode_error(ProtocolError{code, std::string(message), ""}, rid);
}

std::string encode_shutdown() { return R"({"type":"shutdown"})"; }

}  // namespace tilerace::protocol
