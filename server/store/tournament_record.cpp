#include "server/rules/tournament_record.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace tilerace::server {

using nlohmann::json;

namespace {

protocol::TournamentFormat format_from(std::string_view name) {
  for (const auto f : {protocol::TournamentFormat::single_elimination,
                       protocol::TournamentFormat::swiss, protocol::TournamentFormat::arena}) {
    if (protocol::to_string(f) == name) return f;
  }
  throw std::runtime_error("unknown tournament format " + std::string(name));
}

}  // namespace

// The document's field list is its own, not the wire's (protocol/tournament.cpp lists the
// same options for the snapshot): a stored tournament must read back after the protocol
// changes.
std::string encode_tournament(const TournamentRecord& r) {
  const protocol::TournamentOptions& o = r.options;
  json options = {{"format", protocol::to_string(o.format)},
                  {"mode", engine::to_string(o.mode)},
                  {"size", o.size},
                  {"target", o.target},
                  {"time_limit", o.time_limit},
                  {"max_players", o.max_players},
                  {"public", o.is_public},
                  {"rounds", o.rounds},
                  {"third_place", o.third_place},
                  {"duration", o.duration},
                  {"room_size", o.room_size},
                  {"bots", o.bots}};
  if (o.starts) options["starts"] = *o.starts;
  json members = json::array();
  for (const TournamentMemberRecord& m : r.members) {
    json member{{"id", m.id}, {"name", m.name}, {"rating", m.rating}, {"left", m.left}};
    if (m.bot) member["bot"] = true;
    members.push_back(std::move(member));
  }
  json matches = json::array();
  for (const TournamentMatchRecord& m : r.matches) {
    matches.push_back({{"round", m.round},
                       {"index", m.index},
                       {"players", m.players},
                       {"state", m.state},
                       {"room", m.room},
                       {"opened_at", m.opened_at},
                       {"winner", m.winner},
                       {"draw", m.draw},
                       {"results", m.results}});
  }
  json byes = json::array();
  for (const auto& [round, member] : r.byes) byes.push_back({round, member});
  return json{{"options", std::move(options)}, {"host", r.host},
              {"started_at", r.started_at},    {"members", std::move(members)},
              {"matches", std::move(matches)}, {"byes", std::move(byes)}}
      .dump();
}

void decode_tournament(std::string_view document, TournamentRecord& r) {
  const json j = json::parse(document);
  const json& o = j.at("options");
  r.options.format = format_from(o.at("format").get<std::string>());
  const auto mode = engine::mode_from_string(o.at("mode").get<std::string>());
  if (!mode) throw std::runtime_error("unknown mode in a journaled tournament");
  r.options.mode = *mode;
  r.options.size = o.at("size").get<int>();
  r.options.target = o.at("target").get<std::int64_t>();
  r.options.time_limit = o.at("time_limit").get<int>();
  r.options.max_players = o.at("max_players").get<int>();
  r.options.is_public = o.at("public").get<bool>();
  r.options.rounds = o.at("rounds").get<int>();
  r.options.third_place = o.at("third_place").get<bool>();
  r.options.duration = o.at("duration").get<int>();
  r.options.room_size = o.value("room_size", 2);  // written before rooms of more than two
  r.options.bots = o.value("bots", false);        // written before bot accounts
  if (o.contains("starts")) r.options.starts = o.at("starts").get<std::int64_t>();
  r.host = j.at("host").get<std::string>();
  r.started_at = j.at("started_at").get<std::int64_t>();
  for (const json& m : j.at("members")) {
    r.members.push_back({m.at("id").get<std::string>(), m.at("name").get<std::string>(),
                         m.at("rating").get<int>(), m.at("left").get<bool>(),
                         m.value("bot", false)});
  }
  const auto member = [&r](const json& v) {
    const int i = v.get<int>();
    if (i < 0 || i >= static_cast<int>(r.members.size())) {
      throw std::runtime_error("a journaled tournament names no such member");
    }
    return i;
  };
  for (const json& m : j.at("matches")) {
    TournamentMatchRecord match{.round = m.at("round").get<int>(),
                                .index = m.at("index").get<int>(),
                                .players = {},
                                .state = m.at("state").get<std::string>(),
                                .room = m.at("room").get<std::string>(),
                                .opened_at = m.at("opened_at").get<std::int64_t>(),
                                .winner = m.at("winner").get<int>(),
                                .draw = m.at("draw").get<bool>()};
    if (match.winner != -1) member(m.at("winner"));
    if (m.contains("players")) {
      for (const json& p : m.at("players")) match.players.push_back(member(p));
    } else {  // written before rooms of more than two
      match.players = {member(m.at("a")), member(m.at("b"))};
    }
    if (m.contains("results")) match.results = m.at("results").get<std::vector<std::string>>();
    if (match.players.size() < 2 || match.players.size() > 4 ||
        (!match.results.empty() && match.results.size() != match.players.size())) {
      throw std::runtime_error("a journaled tournament's match of no shape");
    }
    r.matches.push_back(std::move(match));
  }
  for (const json& b : j.at("byes")) r.byes.emplace_back(b.at(0).get<int>(), member(b.at(1)));
}

}  // namespace tilerace::server
