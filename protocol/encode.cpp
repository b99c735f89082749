#include "protocol/encode.hpp"

#include <nlohmann/json.hpp>

#include "protocol/json_out.hpp"
#include "protocol/json_writer.hpp"

namespace tilerace::protocol {

namespace {

using json = nlohmann::json;

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

// The fields moved and race_update share, written straight out (they go with every move).
void write_move_fields(JsonWriter& w, const engine::Game& g, const engine::MoveOutcome& outcome) {
  const auto cell = [&w](engine::Cell c) { w.begin_array().value(c.row).value(c.col).end_array(); };
  w.key("board").begin_array();
  for (int r = 0; r < g.size(); ++r) {
    w.begin_array();
    for (int c = 0; c < g.size(); ++c) w.value(g.cell(r, c));
    w.end_array();
  }
  w.end_array();
  w.key("score").value(g.score());
  w.key("moves").value(g.moves());
  w.key("max_tile").value(g.max_tile());
  w.key("state").value(engine::to_string(g.state()));
  w.key("won").value(g.won());
  w.key("motions").begin_array();
  for (const auto& m : outcome.motions) {
    w.begin_object();
    w.key("from");
    cell(m.from);
    w.key("to");
    cell(m.to);
    w.key("value").value(m.value);
    w.key("merged").value(m.merged);
    w.end_object();
  }
  w.end_array();
  w.key("spawned").begin_array();
  for (const auto& sp : outcome.spawned) {
    w.begin_object().key("at");
    cell(sp.at);
    w.key("value").value(sp.value).end_object();
  }
  w.end_array();
  w.key("vanished").begin_array();
  for (const auto& c : outcome.vanished) cell(c);
  w.end_array();
}

void write_rid(JsonWriter& w, const Rid& rid) {
  if (const auto* s = std::get_if<std::string>(&rid)) w.key("rid").value(*s);
  if (const auto* n = std::get_if<std::int64_t>(&rid)) w.key("rid").value(*n);
}

json player_json(PlayerInfo player) {
  json j{{"id", player.id}, {"name", player.name}};
  if (player.bot) j["bot"] = true;
  return j;
}

json games_json(const std::vector<RacerGame>& games) {
  json out = json::object();
  for (const auto& g : games) out[std::string(g.player)] = game_json(g.game);
  return out;
}

json room_json(const RoomView& room) {
  json players = json::array();
  for (const auto& p : room.players) {
    json player{{"id", p.id}, {"name", p.name}, {"ready", p.ready}, {"connected", p.connected}};
    if (p.ghost) player["ghost"] = true;
    if (p.slow) player["slow"] = true;
    if (p.bot) player["bot"] = true;
    players.push_back(std::move(player));
  }
  const RoomOptions& o = room.options;
  json view{{"code", room.code},
            {"host", room.host},
            {"mode", engine::to_string(o.mode)},
            {"size", o.size},
            {"target", o.target},
            {"time_limit", o.time_limit},
            {"max_players", o.max_players},
            {"public", o.is_public},
            {"max_moves_per_second", o.max_moves_per_second},
            {"bot_pace", o.bot_pace},
            {"state", room.state},
            {"players", std::move(players)},
            {"spectators", room.spectators}};
  if (room.grace > 0) view["grace"] = room.grace;
  if (o.ghost) view["ghost"] = *o.ghost;
  if (!o.tournament.empty()) view["tournament"] = o.tournament;
  return view;
}

}  // namespace

std::string encode_welcome(PlayerInfo player, std::string_view token, bool resumed, bool registered,
                           std::string_view device_mark, std::string_view name_released,
                           const Rid& rid) {
  json j{{"type", "welcome"},  {"player", player_json(player)}, {"token", token},
         {"resumed", resumed}, {"registered", registered},      {"protocol", 1}};
  if (!device_mark.empty()) j["device_mark"] = device_mark;
  if (!name_released.empty()) j["name_released"] = name_released;
  put_rid(j, rid);
  return dump(j);
}

namespace {

// {"type":type,"player":{"id","name"}}: the account answers that name the player.
std::string player_message(std::string_view type, PlayerInfo player, const Rid& rid) {
  json j{{"type", type}, {"player", player_json(player)}};
  put_rid(j, rid);
  return dump(j);
}

}  // namespace

std::string encode_registered(PlayerInfo player, const Rid& rid) {
  return player_message("registered", player, rid);
}

std::string encode_renamed(PlayerInfo player, const Rid& rid) {
  return player_message("renamed", player, rid);
}

std::string encode_sessions(const std::vector<SessionView>& sessions, const Rid& rid) {
  json list = json::array();
  for (const SessionView& s : sessions) {
    list.push_back({{"id", s.id},
                    {"created_at", s.created_at},
                    {"last_seen", s.last_seen},
                    {"device", s.device},
                    {"current", s.current}});
  }
  json j{{"type", "sessions"}, {"sessions", std::move(list)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_logged_out(const Rid& rid) {
  json j{{"type", "logged_out"}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_link_code(std::string_view code, std::int64_t expires_at, const Rid& rid) {
  json j{{"type", "link_code"}, {"code", code}, {"expires_at", expires_at}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_upgraded(PlayerInfo player, const Rid& rid) {
  return player_message("upgraded", player, rid);
}

std::string encode_bot_token(std::string_view token, std::string_view id, const Rid& rid) {
  json j{{"type", "bot_token"}, {"token", token}, {"id", id}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_bot_tokens(const std::vector<BotTokenView>& tokens, const Rid& rid) {
  json list = json::array();
  for (const BotTokenView& t : tokens) {
    list.push_back({{"id", t.id}, {"created_at", t.created_at}, {"last_used", t.last_used}});
  }
  json j{{"type", "bot_tokens"}, {"tokens", std::move(list)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_bot_token_revoked(std::string_view id, const Rid& rid) {
  json j{{"type", "bot_token_revoked"}, {"id", id}};
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
  if (!game.daily.empty()) j["game"]["daily"] = game.daily;
  if (game.day_over) j["game"]["day_over"] = true;
  put_rid(j, rid);
  return dump(j);
}

std::string encode_moved(const GameView& view, std::optional<engine::Direction> dir,
                         const engine::MoveOutcome& outcome, const Rid& rid, std::string buffer) {
  const engine::Game& g = view.game;
  JsonWriter w;
  w.begin_object();
  w.key("type").value("moved");
  w.key("game").value(view.id);
  if (dir) w.key("dir").value(engine::to_string(*dir));
  w.key("changed").value(outcome.changed);
  w.key("gained").value(outcome.gained);
  write_move_fields(w, g, outcome);
  write_rid(w, rid);
  w.end_object();
  return w.take(std::move(buffer));
}

std::string encode_error(const ProtocolError& error, const Rid& rid) {
  json j{{"type", "error"}, {"code", to_string(error.code)}, {"message", error.message}};
  if (!error.field.empty()) j["field"] = error.field;
  if (!error.reason.empty()) j["reason"] = error.reason;
  if (error.retry_after_ms > 0) j["retry_after_ms"] = error.retry_after_ms;
  put_rid(j, rid);
  return dump(j);
}

std::string encode_error(ErrorCode code, std::string_view message, const Rid& rid) {
  return encode_error(ProtocolError{code, std::string(message), ""}, rid);
}

std::string encode_kicked(std::string_view code) {
  return dump({{"type", "kicked"}, {"code", code}});
}

std::string encode_room_closed(std::string_view code, std::string_view reason) {
  return dump({{"type", "room_closed"}, {"code", code}, {"reason", reason}});
}

std::string encode_room(const RoomView& room, const Rid& rid) {
  json j{{"type", "room"}, {"room", room_json(room)}};
  put_rid(j, rid);
  return dump(j);
}

namespace {

json room_list(const std::vector<RoomView>& rooms) {
  json list = json::array();
  for (const auto& room : rooms) {
    json players = json::array();
    for (const auto& p : room.players) {
      json player{{"id", p.id}, {"name", p.name}, {"score", p.score}};
      if (!p.cells.empty()) {
        json rows = json::array();
        const int size = room.options.size;
        for (int r = 0; r < size; ++r) {
          rows.push_back(std::vector<std::int64_t>(p.cells.begin() + r * size,
                                                   p.cells.begin() + (r + 1) * size));
        }
        player["board"] = std::move(rows);
      }
      players.push_back(std::move(player));
    }
    list.push_back({{"code", room.code},
                    {"mode", engine::to_string(room.options.mode)},
                    {"size", room.options.size},
                    {"target", room.options.target},
                    {"state", room.state},
                    {"players", std::move(players)},
                    {"spectators", room.spectators}});
  }
  return list;
}

}  // namespace

std::string encode_rooms(const std::vector<RoomView>& rooms, const Rid& rid) {
  return encode_rooms(rooms, {}, rid);
}

std::string encode_room_list(const std::vector<RoomView>& rooms) { return dump(room_list(rooms)); }

std::string encode_rooms(const std::vector<RoomView>& local, const std::vector<std::string>& remote,
                         const Rid& rid) {
  json list = room_list(local);
  for (const auto& text : remote) {
    json other = json::parse(text, nullptr, false);
    if (!other.is_array()) continue;
    for (auto& entry : other) list.push_back(std::move(entry));
  }
  json j{{"type", "rooms"}, {"rooms", std::move(list)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_redirect(std::string_view url, std::string_view code, std::string_view reason,
                            const Rid& rid) {
  json j{{"type", "redirect"}, {"url", url}, {"code", code}, {"reason", reason}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_countdown(std::string_view code, int seconds) {
  return dump({{"type", "countdown"}, {"code", code}, {"seconds", seconds}});
}

std::string encode_race_start(std::string_view code, int time_limit,
                              const std::vector<RacerGame>& games) {
  return dump({{"type", "race_start"},
               {"code", code},
               {"time_limit", time_limit},
               {"games", games_json(games)}});
}

std::string encode_race_state(std::string_view code, std::int64_t remaining_ms,
                              const std::vector<RacerGame>& games, const Rid& rid) {
  json j{{"type", "race_state"},
         {"code", code},
         {"remaining_ms", remaining_ms},
         {"games", games_json(games)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_race_update(std::string_view code, std::string_view player, bool bot,
                               const engine::Game& game, const engine::MoveOutcome& outcome,
                               std::string buffer) {
  JsonWriter w;
  w.begin_object();
  w.key("type").value("race_update");
  w.key("code").value(code);
  w.key("player").value(player);
  if (bot) w.key("bot").value(true);
  write_move_fields(w, game, outcome);
  w.end_object();
  return w.take(std::move(buffer));
}

std::string encode_race_over(const RaceOverView& r) {
  json standings = json::array();
  for (const auto& s : r.standings) {
    standings.push_back({{"player", s.player},
                         {"name", s.name},
                         {"score", s.score},
                         {"max_tile", s.max_tile},
                         {"moves", s.moves},
                         {"state", engine::to_string(s.state)},
                         {"place", s.place + 1}});
    if (s.bot) standings.back()["bot"] = true;
  }
  json ratings = json::object();
  for (const auto& c : r.ratings)
    ratings[std::string(c.player)] = {{"before", c.before},
                                      {"after", c.after},
                                      {"rd_before", c.rd_before},
                                      {"rd", c.rd_after},
                                      {"provisional", c.provisional}};
  json replays = json::object();
  for (const auto& l : r.replays) replays[std::string(l.player)] = l.game;
  json over{{"type", "race_over"},
            {"code", r.code},
            {"reason", r.reason},
            {"winner", r.winner ? json(*r.winner) : json(nullptr)},
            {"standings", std::move(standings)},
            {"ratings", std::move(ratings)},
            {"variant", r.variant},
            {"replays", std::move(replays)}};
  if (r.ghost) {
    json margins = json::object();
    for (const auto& [player, margin] : r.ghost->margins) margins[std::string(player)] = margin;
    over["ghost"] = {{"game", r.ghost->game},
                     {"player", r.ghost->player},
                     {"name", r.ghost->name},
                     {"score", r.ghost->score},
                     {"margins", std::move(margins)}};
  }
  return dump(over);
}

std::string encode_leaderboard(const LeaderboardRequest& request,
                               const std::vector<LeaderboardEntry>& entries,
                               const std::optional<LeaderboardEntry>& me, const Rid& rid) {
  const bool rating = request.kind == LeaderboardKind::rating;
  const bool daily = request.kind == LeaderboardKind::daily;
  auto entry_json = [rating](const LeaderboardEntry& e) -> json {
    if (rating) {
      json entry{
          {"rank", e.rank}, {"player", e.player_id},        {"name", e.name}, {"rating", e.rating},
          {"rd", e.rd},     {"provisional", e.provisional}, {"wins", e.wins}, {"losses", e.losses}};
      if (e.bot) entry["bot"] = true;
      return entry;
    }
    return {
        {"rank", e.rank},         {"player", e.player_id}, {"name", e.name},    {"score", e.score},
        {"max_tile", e.max_tile}, {"moves", e.moves},      {"game", e.game_id}, {"at", e.at}};
  };
  json list = json::array();
  for (const auto& e : entries) list.push_back(entry_json(e));
  json j{{"type", "leaderboard"},
         {"mode", engine::to_string(request.mode)},
         {"size", request.size},
         {"kind", rating  ? "rating"
                  : daily ? "daily"
                          : "score"},
         {"period", to_string(request.period)},
         {"entries", std::move(list)},
         {"me", me ? entry_json(*me) : json(nullptr)}};
  if (daily) j["board"] = "daily";
  if (request.bots) j["board"] = "bots";
  if (rating) {
    j["variant"] = to_string(request.variant);
    j["provisional"] = request.provisional;
    if (me) j["me"]["listed"] = me->listed;
  }
  put_rid(j, rid);
  return dump(j);
}

std::string encode_replay(const ReplayView& r) {
  json j{{"id", r.id},
         {"mode", engine::to_string(r.config.mode)},
         {"size", r.config.size},
         {"target", r.config.target},
         {"seed", std::to_string(r.config.seed)},
         {"moves", r.moves},
         {"score", r.score},
         {"max_tile", r.max_tile},
         {"state", engine::to_string(r.state)},
         {"player", {{"id", r.player.id}, {"name", r.player.name}}},
         {"ended_at", r.ended_at}};
  if (!r.times.empty()) j["times"] = std::vector<std::int32_t>(r.times.begin(), r.times.end());
  return dump(j);
}

namespace {

json achievement_json(const AchievementView& a) {
  return {{"id", a.id},
          {"title", a.title},
          {"description", a.description},
          {"game", a.game_id},
          {"at", a.at}};
}

}  // namespace

std::string encode_achievement(const AchievementView& achievement) {
  return dump({{"type", "achievement"}, {"achievement", achievement_json(achievement)}});
}

std::string encode_profile(const ProfileView& p) {
  const auto result = [](const ProfileView::Result& r, bool race) {
    json j{{"game", r.game_id},
           {"mode", engine::to_string(r.mode)},
           {"size", r.size},
           {"score", r.score},
           {"max_tile", r.max_tile},
           {"moves", r.moves},
           {"at", r.at}};
    if (race) {
      j["room"] = r.room;
      j["state"] = engine::to_string(r.state);
      if (!r.outcome.empty()) j["outcome"] = r.outcome;
    }
    return j;
  };
  json bests = json::array();
  for (const auto& b : p.bests) bests.push_back(result(b, false));
  json races = json::array();
  for (const auto& r : p.races) races.push_back(result(r, true));
  const auto history_json = [](const std::vector<ProfileView::RatingPoint>& points) {
    json history = json::array();
    for (const auto& h : points)
      history.push_back({{"at", h.at}, {"rating", h.rating}, {"rd", h.rd}});
    return history;
  };
  json ratings = json::array();
  ProfileView::VariantRating shown;  // the default variant's
  for (const auto& v : p.ratings) {
    if (v.variant == kDefaultVariant) shown = v;
    ratings.push_back({{"variant", to_string(v.variant)},
                       {"rating", v.rating},
                       {"rd", v.rd},
                       {"provisional", v.provisional},
                       {"races", v.races},
                       {"wins", v.wins},
                       {"losses", v.losses},
                       {"history", history_json(v.history)}});
  }
  json achievements = json::array();
  for (const auto& a : p.achievements) achievements.push_back(achievement_json(a));
  json profile{{"id", p.player.id},
               {"name", p.player.name},
               {"rating", shown.rating},
               {"rd", shown.rd},
               {"provisional", shown.provisional},
               {"variant", to_string(kDefaultVariant)},
               {"ratings", std::move(ratings)},
               {"wins", p.wins},
               {"losses", p.losses},
               {"created_at", p.created_at},
               {"games", p.games},
               {"bests", std::move(bests)},
               {"rating_history", history_json(shown.history)},
               {"races", std::move(races)},
               {"achievements", std::move(achievements)},
               {"daily", {{"streak", p.daily_streak}, {"longest", p.longest_daily_streak}}}};
  if (p.player.bot) profile["bot"] = true;
  return dump(profile);
}

std::string encode_queued(const QueuedView& q, const Rid& rid) {
  json j{{"type", "queued"},
         {"variant", to_string(q.variant)},
         {"rating", q.rating},
         {"rd", q.rd},
         {"window", q.window},
         {"window_step", q.window_step},
         {"window_every_ms", q.window_every_ms},
         {"window_max", q.window_max}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_bare(std::string_view type, const Rid& rid) {
  json j{{"type", type}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_left(std::string_view code, const Rid& rid) {
  json j{{"type", "left"}, {"code", code}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_emote(std::string_view code, std::string_view player, Emote emote,
                         const Rid& rid) {
  json j{{"type", "emote"}, {"code", code}, {"player", player}, {"emote", to_string(emote)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_bot_record(const std::vector<BotRecordView>& records, const Rid& rid) {
  json by_strength = json::object();
  for (const auto s :
       {engine::BotStrength::easy, engine::BotStrength::medium, engine::BotStrength::hard}) {
    by_strength[std::string(engine::to_string(s))] = {{"wins", 0}, {"losses", 0}, {"draws", 0}};
  }
  for (const BotRecordView& r : records) {
    by_strength[std::string(engine::to_string(r.strength))] = {
        {"wins", r.wins}, {"losses", r.losses}, {"draws", r.draws}};
  }
  json j{{"type", "bot_record"}, {"records", std::move(by_strength)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_shutdown() { return R"({"type":"shutdown"})"; }

}  // namespace tilerace::protocol
