#include "protocol/tournament.hpp"

#include "protocol/json_out.hpp"

namespace tilerace::protocol {

using nlohmann::json;

std::string encode_tournament(const TournamentView& t, const Rid& rid) {
  const TournamentOptions& o = t.options;
  json players = json::array();
  for (const TournamentPlayerView& p : t.players) {
    json player{{"id", p.id},         {"name", p.name},          {"rating", p.rating},
                {"points", p.points}, {"wins", p.wins},          {"played", p.played},
                {"left", p.left},     {"connected", p.connected}};
    if (o.format == TournamentFormat::swiss) player["buchholz"] = p.buchholz;
    if (o.format == TournamentFormat::arena) player["streak"] = p.streak;
    if (o.format == TournamentFormat::single_elimination) player["out"] = p.out;
    if (p.bot) player["bot"] = true;
    players.push_back(std::move(player));
  }
  json matches = json::array();
  for (const TournamentMatchView& m : t.matches) {
    const auto id = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
    json match{{"round", m.round},       {"index", m.index},   {"a", id(m.a)},
               {"b", id(m.b)},           {"room", id(m.room)}, {"state", m.state},
               {"winner", id(m.winner)}, {"draw", m.draw}};
    if (m.third_place) match["third_place"] = true;
    if (o.format != TournamentFormat::single_elimination) {
      match["players"] = m.players;
      json results = json::object();
      for (std::size_t i = 0; i < m.results.size() && i < m.players.size(); ++i)
        results[m.players[i]] = m.results[i];
      match["results"] = std::move(results);
    }
    matches.push_back(std::move(match));
  }
  json view{{"code", t.code},
            {"format", to_string(o.format)},
            {"mode", engine::to_string(o.mode)},
            {"size", o.size},
            {"target", o.target},
            {"time_limit", o.time_limit},
            {"max_players", o.max_players},
            {"public", o.is_public},
            {"starts", o.starts ? json(*o.starts) : json(nullptr)},
            {"host", t.host},
            {"state", t.state},
            {"round", t.round},
            {"rounds", t.rounds},
            {"players", std::move(players)},
            {"matches", std::move(matches)},
            {"podium", t.podium},
            {"spectators", t.spectators}};
  if (o.format == TournamentFormat::single_elimination) view["third_place"] = o.third_place;
  view["bots"] = o.bots;
  if (o.format != TournamentFormat::single_elimination) view["room_size"] = o.room_size;
  if (o.format == TournamentFormat::arena) {
    view["duration"] = o.duration;
    view["ends_at"] = t.ends_at ? json(*t.ends_at) : json(nullptr);
  }
  json j{{"type", "tournament"}, {"tournament", std::move(view)}};
  put_rid(j, rid);
  return dump(j);
}

}  // namespace tilerace::protocol
