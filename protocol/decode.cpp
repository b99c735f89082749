#include "protocol/decode.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "protocol/daily.hpp"
#include "protocol/moderation.hpp"
#include "protocol/names.hpp"
#include "protocol/passwords.hpp"
#include "protocol/utf8.hpp"

namespace tilerace::protocol {

namespace {

using json = nlohmann::json;

// Thrown inside this file only, turned into a ProtocolError by decode_client.
struct Reject {
  ProtocolError error;
};

[[noreturn]] void reject_field(std::string_view field, std::string message) {
  throw Reject{{ErrorCode::bad_field, std::move(message), std::string(field)}};
}

// One pass over the raw text outside string literals: refuses nesting deeper than kMaxDepth
// (before any recursive parser sees it) and rewrites number tokens that overflow a double to
// 1e308, so that such a field is reported as out of range rather than as broken JSON.
struct Prescan {
  bool too_deep = false;
  std::vector<std::pair<std::size_t, std::size_t>> overflows;  // offset, length
};

Prescan prescan(std::string_view text) {
  Prescan out;
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth) {
        out.too_deep = true;
        return out;
      }
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i + 1;
      while (end < text.size() &&
             std::string_view("0123456789eE.+-").find(text[end]) != std::string_view::npos) {
        ++end;
      }
      const std::string token(text.substr(i, end - i));
      if (std::isinf(std::strtod(token.c_str(), nullptr))) out.overflows.emplace_back(i, end - i);
      i = end - 1;
    }
  }
  return out;
}

const json* find(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

template <class Int>
std::optional<Int> optional_int(const json& object, std::string_view key, Int min, Int max) {
  const json* v = find(object, key);
  if (v == nullptr) return std::nullopt;
  const std::string range =
      " must be an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (!v->is_number_integer()) reject_field(key, std::string(key) + range);
  if (v->is_number_unsigned()) {
    const auto u = v->get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(max) || (min > 0 && u < static_cast<std::uint64_t>(min))) {
      reject_field(key, std::string(key) + range);
    }
    return static_cast<Int>(u);
  }
  const auto s = v->get<std::int64_t>();
  if (s < static_cast<std::int64_t>(min) || s > static_cast<std::int64_t>(max)) {
    reject_field(key, std::string(key) + range);
  }
  return static_cast<Int>(s);
}

const std::string* optional_string(const json& object, std::string_view key) {
  const json* v = find(object, key);
  if (v == nullptr) return nullptr;
  if (!v->is_string()) reject_field(key, std::string(key) + " must be a string");
  return v->get_ptr<const std::string*>();
}

const std::string& required_string(const json& object, std::string_view key) {
  const std::string* s = optional_string(object, key);
  if (s == nullptr) reject_field(key, std::string(key) + " is required");
  return *s;
}

// Trims ASCII white space; the rest must be a name (protocol/names.hpp).
std::string parse_name(const std::string& raw) {
  std::string name = trim_name(raw);
  if (const auto problem = name_problem(name)) throw Reject{name_error(*problem)};
  return name;
}

std::optional<engine::Direction> parse_dir(const json& object) {
  const std::string& s = required_string(object, "dir");
  const auto d = engine::direction_from_string(s);
  if (!d) reject_field("dir", "dir must be up, down, left or right");
  return d;
}

std::optional<std::int32_t> parse_at_move(const json& object) {
  return optional_int<std::int32_t>(object, "at_move", 0, std::numeric_limits<std::int32_t>::max());
}

engine::Mode parse_mode(const json& object) {
  const std::string* mode = optional_string(object, "mode");
  if (mode == nullptr) return engine::Mode::classic;
  const auto m = engine::mode_from_string(*mode);
  if (!m) reject_field("mode", "mode must be classic, fixed-obstacle, moving-obstacle or fifteen");
  return *m;
}

int parse_size(const json& object, engine::Mode mode) {
  return optional_int<int>(
             object, "size", engine::kMinSize,
             mode == engine::Mode::fifteen ? engine::kMaxFifteenSize : engine::kMaxSize)
      .value_or(4);
}

std::int64_t parse_target(const json& object, engine::Mode mode) {
  if (mode == engine::Mode::fifteen) return 0;
  const auto target =
      optional_int<std::int64_t>(object, "target", engine::kMinTarget, engine::kMaxTarget);
  if (target && !std::has_single_bit(static_cast<std::uint64_t>(*target))) {
    reject_field("target", "target must be a power of two from 8 to 131072");
  }
  return target.value_or(2048);
}

bool optional_bool(const json& object, std::string_view key, bool fallback) {
  const json* v = find(object, key);
  if (v == nullptr) return fallback;
  if (!v->is_boolean()) reject_field(key, std::string(key) + " must be true or false");
  return v->get<bool>();
}

NewGame parse_new_game(const json& object) {
  NewGame g;
  g.config.mode = parse_mode(object);
  g.config.size = parse_size(object, g.config.mode);
  g.config.target = parse_target(object, g.config.mode);
  if (const std::string* seed = optional_string(object, "seed")) {
    std::uint64_t value = 0;
    const char* end = seed->data() + seed->size();
    const auto [ptr, ec] = std::from_chars(seed->data(), end, value);
    if (seed->empty() || ec != std::errc() || ptr != end) {
      reject_field("seed", "seed must be a decimal string from 0 to 18446744073709551615");
    }
    g.config.seed = value;
    g.explicit_seed = true;
  }
  g.daily = optional_bool(object, "daily", false);
  if (g.daily) {
    if (daily_mode(g.config.mode, g.config.size) == nullptr || g.config.target != 2048) {
      reject_field("daily", "the daily challenge is classic 4x4 or 5x5 to 2048");
    }
    if (g.explicit_seed) reject_field("seed", "a daily game has the day's seed");
  }
  return g;
}

// Whether id is 1 to kMaxPlayerIdChars characters of [0-9A-Za-z_-]: the shape of player and
// game ids.
bool id_shaped(const std::string& id) {
  return !id.empty() && id.size() <= kMaxPlayerIdChars &&
         std::all_of(id.begin(), id.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c == '-'; });
}

// A player's id.
std::string parse_player_id(const json& object) {
  const std::string& id = required_string(object, "player");
  if (!id_shaped(id)) reject_field("player", "player must be a player id");
  return id;
}

CreateRoom parse_create_room(const json& object) {
  RoomOptions o;
  o.mode = parse_mode(object);
  o.size = parse_size(object, o.mode);
  o.target = parse_target(object, o.mode);
  o.time_limit =
      optional_int<int>(object, "time_limit", kMinTimeLimit, kMaxTimeLimit).value_or(300);
  o.max_players = optional_int<int>(object, "max_players", kMinPlayers, kMaxPlayers).value_or(2);
  o.is_public = optional_bool(object, "public", false);
  o.max_moves_per_second =
      optional_int<int>(object, "max_moves_per_second", 0, kMaxMovesPerSecondCap).value_or(0);
  o.bot_pace = optional_int<int>(object, "bot_pace", 0, kMaxMovesPerSecondCap).value_or(0);
  if (const std::string* bot = optional_string(object, "bot")) {
    o.bot = engine::bot_strength_from_string(*bot);
    if (!o.bot) reject_field("bot", "bot must be easy, medium or hard");
    if (o.mode != engine::Mode::classic || o.size != 4) {
      reject_field("bot", "the computer races classic 4x4 games only");
    }
  }
  if (const std::string* ghost = optional_string(object, "ghost")) {
    if (!id_shaped(*ghost)) reject_field("ghost", "ghost must be a game id");
    if (o.bot) reject_field("ghost", "a room races either the computer or a ghost");
    o.ghost = *ghost;  // the run's mode, size and target replace the room's (the server's part)
  }
  return {o};
}

CreateTournament parse_create_tournament(const json& object) {
  TournamentOptions o;
  const std::string& format = required_string(object, "format");
  if (format == "swiss") {
    o.format = TournamentFormat::swiss;
  } else if (format == "arena") {
    o.format = TournamentFormat::arena;
  } else if (format != "single_elimination") {
    reject_field("format", "format must be single_elimination, swiss or arena");
  }
  o.mode = parse_mode(object);
  o.size = parse_size(object, o.mode);
  o.target = parse_target(object, o.mode);
  o.time_limit =
      optional_int<int>(object, "time_limit", kMinTimeLimit, kMaxTimeLimit).value_or(180);
  o.max_players =
      optional_int<int>(object, "max_players", kMinPlayers, kMaxTournamentPlayers).value_or(16);
  o.is_public = optional_bool(object, "public", false);
  if (const json* starts = find(object, "starts"); starts != nullptr && *starts != "manual") {
    o.starts =
        optional_int<std::int64_t>(object, "starts", 0, std::numeric_limits<std::int64_t>::max());
  }
  o.rounds = optional_int<int>(object, "rounds", 1, kMaxSwissRounds).value_or(5);
  o.third_place = optional_bool(object, "third_place", false);
  o.bots = optional_bool(object, "bots", false);
  o.duration =
      optional_int<int>(object, "duration", kMinArenaSeconds, kMaxArenaSeconds).value_or(1800);
  o.room_size = optional_int<int>(object, "room_size", 2, kMaxTournamentRoom).value_or(2);
  if (o.room_size != 2 && o.format == TournamentFormat::single_elimination) {
    reject_field("room_size", "an elimination's matches are 1-on-1");
  }
  return {o};
}

LeaderboardRequest parse_leaderboard(const json& object) {
  LeaderboardRequest r;
  r.mode = parse_mode(object);
  r.size = parse_size(object, r.mode);
  const std::string* board = optional_string(object, "board");
  if (board != nullptr && *board == "bots") {
    r.kind = LeaderboardKind::rating;  // the bots' rating board
    r.bots = true;
    board = nullptr;
  }
  if (board != nullptr) {
    if (*board != "daily") reject_field("board", "board must be daily or bots (or left out)");
    if (daily_mode(r.mode, r.size) == nullptr) {
      reject_field("board", "the daily challenge is classic 4x4 or 5x5");
    }
    r.kind = LeaderboardKind::daily;
    r.period.kind = PeriodKind::day;  // today unless a day is named
    r.current = true;
  }
  if (const std::string* kind = optional_string(object, "kind");
      kind != nullptr && r.kind != LeaderboardKind::daily && !r.bots) {
    if (*kind == "rating") {
      r.kind = LeaderboardKind::rating;
    } else if (*kind != "score") {
      reject_field("kind", "kind must be score or rating");
    }
  }
  r.limit = optional_int<int>(object, "limit", 1, kMaxLeaderboardLimit).value_or(10);
  r.variant = variant_of(r.mode, r.size);
  if (const std::string* variant = optional_string(object, "variant")) {
    const std::optional<Variant> named = variant_from_string(*variant);
    if (!named) {
      reject_field("variant",
                   "variant must be classic-4, classic-3, classic-5, classic-large, obstacles or "
                   "fifteen");
    }
    if (r.kind != LeaderboardKind::rating) reject_field("variant", "only rating boards have one");
    r.variant = *named;
  }
  r.provisional = optional_bool(object, "provisional", false);
  if (r.provisional && r.kind != LeaderboardKind::rating) {
    reject_field("provisional", "only rating boards leave provisional ratings out");
  }
  if (const std::string* period = optional_string(object, "period")) {
    if (*period == "day" || *period == "week") {
      r.period.kind = *period == "day" ? PeriodKind::day : PeriodKind::week;
      r.current = true;
    } else if (const auto named = period_from_string(*period)) {
      r.period = *named;
      r.current = false;
    } else {
      reject_field("period",
                   "period must be all-time, day, week, a day like 2026-11-23 or an ISO week "
                   "like 2026-W47");
    }
    if (r.kind == LeaderboardKind::rating && r.period.kind != PeriodKind::all_time) {
      reject_field("period", "the rating leaderboard is all-time only");
    }
    if (r.kind == LeaderboardKind::daily && r.period.kind != PeriodKind::day) {
      reject_field("period", "a daily board is a day's: day, or a day like 2026-11-24");
    }
  }
  return r;
}

// A code in the room-code alphabet (case-insensitive), length characters: a room's (code) or
// a link code (link_code).
std::string check_code(std::string code, std::string_view key, std::size_t length) {
  for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (code.size() != length || code.find_first_not_of(kRoomCodeAlphabet) != std::string::npos) {
    reject_field(key, std::string(key)
                          .append(" must be ")
                          .append(std::to_string(length))
                          .append(" characters from ")
                          .append(kRoomCodeAlphabet));
  }
  return code;
}

// A room code: 6 characters of the room alphabet, accepted in either case.
std::string parse_code(const json& object) {
  return check_code(required_string(object, "code"), "code", kRoomCodeLength);
}

// A free text of at most kMaxNoteChars characters (a report's note, a moderation reason);
// required ones must not be empty.
std::string parse_note(const json& object, std::string_view key, bool required) {
  const std::string* s = required ? &required_string(object, key) : optional_string(object, key);
  if (s == nullptr) return {};
  if ((required && s->empty()) || count_chars(*s) > kMaxNoteChars) {
    reject_field(
        key, std::string(key) + " must be 1 to " + std::to_string(kMaxNoteChars) + " characters");
  }
  return *s;
}

Report parse_report(const json& object) {
  Report r{parse_player_id(object), ReportReason::abuse, parse_note(object, "note", false)};
  const std::string& reason = required_string(object, "reason");
  if (reason == "name") {
    r.reason = ReportReason::name;
  } else if (reason == "cheating") {
    r.reason = ReportReason::cheating;
  } else if (reason != "abuse") {
    reject_field("reason", "reason must be name, cheating or abuse");
  }
  return r;
}

// An operator action's body (POST /admin/api/<action>).
AdminAction parse_admin(std::string_view action, const json& object) {
  const auto reason = [&object](bool required) { return parse_note(object, "reason", required); };
  if (action == "ban") {
    const auto until =
        optional_int<std::int64_t>(object, "until", 0, std::numeric_limits<std::int64_t>::max());
    return AdminBan{parse_player_id(object), reason(true), until.value_or(0)};
  }
  if (action == "unban") return AdminUnban{parse_player_id(object), reason(false)};
  if (action == "rename") {
    std::string player = parse_player_id(object);
    return AdminRename{std::move(player), parse_name(required_string(object, "name")),
                       reason(true)};
  }
  if (action == "reset_password") return AdminResetPassword{parse_player_id(object), reason(false)};
  if (action == "hide_game" || action == "show_game") {
    const std::string& game = required_string(object, "game");
    if (!id_shaped(game)) reject_field("game", "game must be a game id");
    return AdminHideGame{game, action == "hide_game", reason(action == "hide_game")};
  }
  if (action == "close_room") {
    std::string code = parse_code(object);
    return AdminCloseRoom{std::move(code), reason(true)};
  }
  if (action == "resolve_report") {
    const auto id =
        optional_int<std::int64_t>(object, "id", 1, std::numeric_limits<std::int64_t>::max());
    if (!id) reject_field("id", "id is required");
    return AdminResolveReport{*id, parse_note(object, "resolution", true)};
  }
  throw Reject{{ErrorCode::unknown_type, "unknown action", ""}};
}

// A friendship change: player, or (request and block) a name instead.
FriendChange parse_friend_change(const json& object, FriendVerb verb) {
  FriendChange change{verb, "", ""};
  const bool by_name = verb == FriendVerb::request || verb == FriendVerb::block;
  if (by_name && find(object, "player") == nullptr && find(object, "name") != nullptr) {
    change.name = parse_name(required_string(object, "name"));
  } else {
    change.player = parse_player_id(object);
  }
  return change;
}

// challenge: a friend and the settings of the private room for the two of them.
Challenge parse_challenge(const json& object) {
  Challenge c;
  c.player = parse_player_id(object);
  c.options.mode = parse_mode(object);
  c.options.size = parse_size(object, c.options.mode);
  c.options.target = parse_target(object, c.options.mode);
  c.options.time_limit =
      optional_int<int>(object, "time_limit", kMinTimeLimit, kMaxTimeLimit).value_or(300);
  return c;
}

ChallengeAnswer parse_challenge_answer(const json& object, bool accept) {
  const std::string& id = required_string(object, "id");
  if (id.size() != kChallengeIdLength ||
      id.find_first_not_of("0123456789abcdef") != std::string::npos) {
    reject_field("id", "id must be a challenge id");
  }
  ChallengeAnswer answer{id, accept, std::nullopt};
  if (const std::string* reason = optional_string(object, "reason")) {
    if (accept) reject_field("reason", "only a decline has a reason");
    for (int r = 0; r <= static_cast<int>(DeclineReason::settings); ++r) {
      if (to_string(static_cast<DeclineReason>(r)) == *reason) {
        answer.reason = static_cast<DeclineReason>(r);
      }
    }
    if (!answer.reason) {
      reject_field("reason", "reason must be generic, later, no_bots, only_bots or settings");
    }
  }
  return answer;
}

std::string parse_device(const json& object) {
  const std::string* device = optional_string(object, "device");
  if (device == nullptr) return "";
  std::string label = trim_name(*device);
  if (count_chars(label) > kMaxDeviceChars || !visible_text(label)) {
    reject_field("device", "device must be up to 40 visible characters");
  }
  return label;
}

// A device mark as given (the server checks it): a string of at most kMaxDeviceMarkBytes.
std::string parse_device_mark(const json& object) {
  const std::string* mark = optional_string(object, "device_mark");
  if (mark == nullptr) return "";
  if (mark->size() > kMaxDeviceMarkBytes) {
    reject_field("device_mark", "device_mark must be a welcome's device_mark");
  }
  return *mark;
}

// A password as sent, at most kMaxPasswordChars (a longer one is refused unread).
std::string parse_password(const json& object, std::string_view key) {
  const std::string& password = required_string(object, key);
  if (count_chars(password) > kMaxPasswordChars) {
    reject_field(key, std::string(key) + " must be at most 128 characters");
  }
  return password;
}

// A password being set: 8–128 characters, not one of the most common.
std::string parse_new_password(const json& object, std::string_view key) {
  std::string password = parse_password(object, key);
  if (const auto problem = password_problem(password)) reject_field(key, *problem);
  return password;
}

// The operator desk's actions (protocol/moderation.hpp).
DeskAction parse_desk(std::string_view action, const json& object) {
  const auto operator_id = [&object] {
    const std::string& id = required_string(object, "operator");
    if (!id_shaped(id)) reject_field("operator", "operator must be an operator's id");
    return id;
  };
  const auto name = [&object] {
    const std::string& name = required_string(object, "name");
    if (!operator_name_key(name)) {
      reject_field("name", "an operator's name is 1 to 32 of a-z, 0-9, '.', '_' and '-'");
    }
    return name;
  };
  if (action == "sign_in") {
    OperatorSignIn in{name(), parse_password(object, "password"), ""};
    if (const std::string* code = optional_string(object, "totp")) {
      if (code->size() != kTotpCodeChars ||
          code->find_first_not_of("0123456789") != std::string::npos) {
        reject_field("totp", "totp must be the authenticator's 6 digits");
      }
      in.totp = *code;
    }
    return in;
  }
  if (action == "create_operator") {
    OperatorCreate create{name(), parse_new_password(object, "password"),
                          required_string(object, "role")};
    if (create.role != "owner" && create.role != "moderator" && create.role != "viewer") {
      reject_field("role", "role must be owner, moderator or viewer");
    }
    return create;
  }
  if (action == "sign_out_operator") return OperatorSignOutEverywhere{operator_id()};
  if (action == "remove_operator") return OperatorRemove{operator_id()};
  if (action == "sign_out") return OperatorSignOut{};
  if (action == "totp_enrol") return TotpEnrol{};
  if (action == "totp_confirm") {
    const std::string& code = required_string(object, "code");
    if (code.size() != kTotpCodeChars ||
        code.find_first_not_of("0123456789") != std::string::npos) {
      reject_field("code", "code must be the authenticator's 6 digits");
    }
    return TotpConfirm{code};
  }
  throw Reject{{ErrorCode::unknown_type, "unknown action", ""}};
}

Hello parse_hello(const json& object) {
  Hello h;
  if (const std::string* name = optional_string(object, "name")) h.name = parse_name(*name);
  if (const std::string* token = optional_string(object, "token")) {
    if (token->size() > kMaxTokenBytes) reject_field("token", "token is too long");
    h.token = *token;
  }
  if (const std::string* code = optional_string(object, "link_code")) {
    h.link_code = check_code(*code, "link_code", kLinkCodeLength);
  }
  if (const std::string* token = optional_string(object, "bot_token")) {
    if (token->empty() || token->size() > kMaxTokenBytes) {
      reject_field("bot_token", "bot_token must be a bot's API token");
    }
    h.bot_token = *token;
  }
  h.device = parse_device(object);
  return h;
}

Slide parse_slide(const json& object) {
  const json* cell = find(object, "cell");
  const auto bad = [] { reject_field("cell", "cell must be [row, col] with integers 0 to 7"); };
  if (cell == nullptr || !cell->is_array() || cell->size() != 2) bad();
  std::array<int, 2> rc{};
  for (int i = 0; i < 2; ++i) {
    const json& v = (*cell)[i];
    if (!v.is_number_integer()) bad();
    if (v.is_number_unsigned()
            ? v.get<std::uint64_t>() >= engine::kMaxSize
            : (v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= engine::kMaxSize)) {
      bad();
    }
    rc[i] = v.get<int>();
  }
  return {{rc[0], rc[1]}, parse_at_move(object)};
}

Rid parse_rid(const json& object) {
  const json* v = find(object, "rid");
  if (v == nullptr) return {};
  if (v->is_string()) {
    const auto& s = v->get_ref<const std::string&>();
    if (count_chars(s) <= kMaxRidChars) return s;
  } else if (v->is_number_integer() &&
             (!v->is_number_unsigned() ||
              v->get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX))) {
    return v->get<std::int64_t>();
  }
  reject_field("rid", "rid must be a string of at most 64 characters or an integer");
}

ClientMessage parse_message(const json& object) {
  const std::string& type = required_string(object, "type");
  if (type == "hello") return parse_hello(object);
  if (type == "register") return Register{parse_new_password(object, "password")};
  if (type == "login") {
    if (find(object, "bot_token") != nullptr) {
      reject_field("bot_token", "a bot signs in with hello and its bot_token, not with login");
    }
    return Login{std::string(required_string(object, "name")), parse_password(object, "password"),
                 parse_device(object), parse_device_mark(object)};
  }
  if (type == "sessions") return SessionsRequest{};
  if (type == "logout") return Logout{};
  if (type == "logout_all") return LogoutAll{};
  if (type == "change_password") {
    return ChangePassword{parse_password(object, "old_password"),
                          parse_new_password(object, "password")};
  }
  if (type == "link_code") return LinkCodeRequest{};
  if (type == "rename") return Rename{parse_name(required_string(object, "name"))};
  if (type == "upgrade_to_bot") return UpgradeToBot{parse_password(object, "password")};
  if (type == "bot_token") return BotTokenRequest{};
  if (type == "bot_tokens") return BotTokensRequest{};
  if (type == "revoke_bot_token") {
    const std::string& id = required_string(object, "id");
    if (id.size() != kBotTokenIdLength ||
        id.find_first_not_of("0123456789abcdef") != std::string::npos) {
      reject_field("id", "id must be a bot token's id");
    }
    return RevokeBotToken{id};
  }
  if (type == "ping") return Ping{optional_int<std::int32_t>(object, "rtt", 0, 600000)};
  if (type == "new_game") return parse_new_game(object);
  if (type == "move") return Move{*parse_dir(object), parse_at_move(object)};
  if (type == "slide") return parse_slide(object);
  if (type == "undo") return Undo{};
  if (type == "resign") return Resign{};
  if (type == "create_room") return parse_create_room(object);
  if (type == "join_room") return JoinRoom{parse_code(object)};
  if (type == "leave_room") return LeaveRoom{};
  if (type == "ready") return Ready{optional_bool(object, "ready", true)};
  if (type == "quick_match") {
    const engine::Mode mode = parse_mode(object);
    const int size = parse_size(object, mode);
    return QuickMatch{mode, size, optional_bool(object, "bots", false)};
  }
  if (type == "cancel_match") return CancelMatch{};
  if (type == "list_rooms") return ListRooms{};
  if (type == "bot_record") return BotRecordRequest{};
  if (type == "emote") {
    const auto emote = emote_from_string(required_string(object, "emote"));
    if (!emote) reject_field("emote", "emote must be one of hi, gl, gg, nice, wow, oops");
    return SendEmote{*emote};
  }
  if (type == "spectate") return Spectate{parse_code(object)};
  if (type == "stop_spectating") return StopSpectating{};
  if (type == "leaderboard") return parse_leaderboard(object);
  if (type == "friend_request") return parse_friend_change(object, FriendVerb::request);
  if (type == "friend_accept") return parse_friend_change(object, FriendVerb::accept);
  if (type == "friend_decline") return parse_friend_change(object, FriendVerb::decline);
  if (type == "friend_remove") return parse_friend_change(object, FriendVerb::remove);
  if (type == "block") return parse_friend_change(object, FriendVerb::block);
  if (type == "unblock") return parse_friend_change(object, FriendVerb::unblock);
  if (type == "friends") return FriendsRequest{};
  if (type == "challenge") return parse_challenge(object);
  if (type == "challenge_accept") return parse_challenge_answer(object, true);
  if (type == "challenge_decline") return parse_challenge_answer(object, false);
  if (type == "rematch") return Rematch{};
  if (type == "spectate_player") return SpectatePlayer{parse_player_id(object)};
  if (type == "report") return parse_report(object);
  if (type == "kick") return Kick{parse_player_id(object)};
  if (type == "create_tournament") return parse_create_tournament(object);
  if (type == "join_tournament") return JoinTournament{parse_code(object)};
  if (type == "leave_tournament") return LeaveTournament{};
  if (type == "start_tournament") return StartTournament{};
  if (type == "spectate_tournament") return SpectateTournament{parse_code(object)};
  throw Reject{{ErrorCode::unknown_type, "unknown message type", ""}};
}

// The message sent with every key press, read without building a JSON tree: a flat object of
// "type":"move", "dir", and optionally "rid" and "at_move", plain ASCII strings (no escapes) and
// integers, each key once. Anything else — another shape, a value out of range, a key it does
// not know — returns nullopt and takes the full path, which gives the same answer for what this
// accepts and the exact error for the rest.
class MoveScanner {
 public:
  explicit MoveScanner(std::string_view text) : text_(text) {}

  std::optional<Decoded> scan() {
    skip_space();
    if (!eat('{')) return std::nullopt;
    std::optional<std::string_view> type, dir;
    std::optional<std::int64_t> at_move;
    bool have_rid = false;
    Rid rid;
    skip_space();
    if (eat('}')) return std::nullopt;  // {} has no type
    for (;;) {
      const auto key = plain_string();
      skip_space();
      if (!key || !eat(':')) return std::nullopt;
      skip_space();
      if (*key == "type" || *key == "dir") {
        auto& slot = *key == "type" ? type : dir;
        if (slot) return std::nullopt;
        slot = plain_string();
        if (!slot) return std::nullopt;
      } else if (*key == "at_move") {
        if (at_move) return std::nullopt;
        at_move = integer();
        if (!at_move || *at_move < 0 || *at_move > std::numeric_limits<std::int32_t>::max()) {
          return std::nullopt;
        }
      } else if (*key == "rid") {
        if (have_rid) return std::nullopt;
        have_rid = true;
        if (peek() == '"') {
          const auto s = plain_string();
          if (!s || s->size() > static_cast<std::size_t>(kMaxRidChars)) return std::nullopt;
          rid = std::string(*s);
        } else {
          const auto n = integer();
          if (!n) return std::nullopt;
          rid = *n;
        }
      } else {
        return std::nullopt;
      }
      skip_space();
      if (eat('}')) break;
      if (!eat(',')) return std::nullopt;
      skip_space();
    }
    skip_space();
    if (pos_ != text_.size() || type != "move" || !dir) return std::nullopt;
    const auto d = engine::direction_from_string(*dir);
    if (!d) return std::nullopt;
    std::optional<std::int32_t> at;
    if (at_move) at = static_cast<std::int32_t>(*at_move);
    return Decoded{ClientMessage{Move{*d, at}}, std::move(rid)};
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool eat(char c) {  // c is never '\0'
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  // A string of printable ASCII without escapes; its contents.
  std::optional<std::string_view> plain_string() {
    if (!eat('"')) return std::nullopt;
    const std::size_t start = pos_;
    while (pos_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') return text_.substr(start, pos_++ - start);
      if (c == '\\' || c < 0x20 || c >= 0x80) return std::nullopt;
      ++pos_;
    }
    return std::nullopt;
  }
  // A JSON integer (no fraction, no exponent, no leading zero) that fits in 64 bits.
  std::optional<std::int64_t> integer() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    const std::size_t digits = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    if (pos_ == digits || (text_[digits] == '0' && pos_ - digits > 1)) return std::nullopt;
    const char c = peek();
    if (c == '.' || c == 'e' || c == 'E') return std::nullopt;
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, n);
    if (ec != std::errc() || end != text_.data() + pos_) return std::nullopt;
    return n;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

bool valid_utf8(std::string_view text) noexcept {
  Utf8Validator check;
  return check.feed(text) && check.complete();
}

namespace {

// Calls f(key, raw value) for each pair of a URL query ("a=1&b=2"), in order, until f returns
// true.
template <class F>
void for_each_pair(std::string_view query, F f) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const auto eq = pair.find('=');
    if (f(pair.substr(0, eq), eq == std::string_view::npos ? "" : pair.substr(eq + 1))) return;
  }
}

}  // namespace

std::variant<LeaderboardRequest, ProtocolError> decode_leaderboard_query(std::string_view query) {
  try {
    if (!valid_utf8(query)) reject_field("query", "the query is not valid UTF-8");
    json object = json::object();
    for_each_pair(query, [&object](std::string_view k, std::string_view v) {
      const std::string key(k), value(v);
      if (key != "mode" && key != "size" && key != "kind" && key != "limit" && key != "period" &&
          key != "board" && key != "variant" && key != "provisional") {
        return false;
      }
      if (key == "provisional" &&
          (value == "1" || value == "true" || value == "0" || value == "false")) {
        object[key] = value == "1" || value == "true";
        return false;
      }
      std::int64_t number = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
      if ((key == "size" || key == "limit") && ec == std::errc() &&
          ptr == value.data() + value.size()) {
        object[key] = number;
      } else {
        object[key] = value;
      }
      return false;
    });
    return parse_leaderboard(object);
  } catch (Reject& r) {
    return std::move(r.error);
  }
}

namespace {

// text as one JSON object, or Reject (bad_json): valid UTF-8, nested at most kMaxDepth deep,
// numbers too large for a double read as out of range.
json parse_object(std::string_view text) {
  if (!valid_utf8(text)) throw Reject{{ErrorCode::bad_json, "text is not valid UTF-8", ""}};
  const Prescan scan = prescan(text);
  if (scan.too_deep) throw Reject{{ErrorCode::bad_json, "JSON nested deeper than 8 levels", ""}};
  std::string patched;
  if (!scan.overflows.empty()) {
    patched.assign(text);
    for (auto it = scan.overflows.rbegin(); it != scan.overflows.rend(); ++it) {
      patched.replace(it->first, it->second, "1e308");
    }
    text = patched;
  }
  json object = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    throw Reject{{ErrorCode::bad_json, "expected one JSON object", ""}};
  }
  return object;
}

}  // namespace

std::optional<std::string> query_value(std::string_view query, std::string_view key) {
  std::optional<std::string_view> found;
  for_each_pair(query, [&](std::string_view k, std::string_view v) {
    if (k == key) found = v;
    return found.has_value();
  });
  if (!found) return std::nullopt;
  const std::string_view raw = *found;
  std::string value;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '+') {
      value += ' ';
    } else if (raw[i] != '%') {
      value += raw[i];
    } else {
      unsigned byte = 0;
      const char* digits = raw.data() + i + 1;
      if (i + 2 >= raw.size()) return std::nullopt;  // two hex digits must follow
      const auto [end, ec] = std::from_chars(digits, digits + 2, byte, 16);
      if (ec != std::errc() || end != digits + 2) return std::nullopt;
      value += static_cast<char>(byte);
      i += 2;
    }
  }
  if (!valid_utf8(value)) return std::nullopt;
  return value;
}

std::variant<AdminAction, ProtocolError> decode_admin(std::string_view action,
                                                      std::string_view body) {
  try {
    return parse_admin(action, parse_object(body));
  } catch (Reject& r) {
    return std::move(r.error);
  } catch (const std::exception&) {
    return ProtocolError{ErrorCode::bad_json, "malformed body", ""};
  }
}

bool is_desk_action(std::string_view action) {
  for (const std::string_view desk : {"sign_in", "sign_out", "totp_enrol", "totp_confirm",
                                      "create_operator", "sign_out_operator", "remove_operator"}) {
    if (action == desk) return true;
  }
  return false;
}

std::variant<DeskAction, ProtocolError> decode_desk(std::string_view action,
                                                    std::string_view body) {
  try {
    return parse_desk(action, parse_object(body.empty() ? std::string_view("{}") : body));
  } catch (Reject& r) {
    return std::move(r.error);
  } catch (const std::exception&) {
    return ProtocolError{ErrorCode::bad_json, "malformed body", ""};
  }
}

Decoded decode_client(std::string_view text) {
  if (auto move = MoveScanner(text).scan()) return std::move(*move);
  Decoded out{ProtocolError{}, {}};
  try {
    const json object = parse_object(text);
    out.rid = parse_rid(object);
    out.result = parse_message(object);
  } catch (Reject& r) {
    out.result = std::move(r.error);
  } catch (const std::exception&) {
    out.result = ProtocolError{ErrorCode::bad_json, "malformed message", ""};
  }
  return out;
}

}  // namespace tilerace::protocol
