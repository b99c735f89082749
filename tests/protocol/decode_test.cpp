#include "protocol/decode.hpp"
#include "protocol/utf8.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tilerace::protocol {
namespace {

template <class T>
const T& as(const Decoded& d) {
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
  return std::get<T>(d.message());
}

TEST(Decode, Hello) {
  const Decoded d = decode_client(R"({"type":"hello","name":"  alice  "})");
  EXPECT_EQ(as<Hello>(d).name, "alice");
  EXPECT_FALSE(as<Hello>(d).token.has_value());
  const Decoded t = decode_client(R"({"type":"hello","name":"bob","token":"abc.def"})");
  EXPECT_EQ(as<Hello>(t).token, "abc.def");
  const Decoded u = decode_client(R"({"type":"hello","name":"Zoë Ana"})");
  EXPECT_EQ(as<Hello>(u).name, "Zoë Ana");
  // A refused name says why: the field and a reason (protocol/names.hpp).
  const Decoded emoji = decode_client(R"({"type":"hello","name":"Zoë 🙂"})");
  ASSERT_FALSE(emoji.ok());
  EXPECT_EQ(emoji.error().field, "name");
  EXPECT_EQ(emoji.error().reason, "character");
  EXPECT_EQ(decode_client(R"({"type":"hello","name":"pаypal"})").error().reason, "script_mix");
  // No name: the server makes one up. A link code is upper-cased; a device label is kept.
  EXPECT_FALSE(as<Hello>(decode_client(R"({"type":"hello"})")).name);
  const Hello linked =
      as<Hello>(decode_client(R"({"type":"hello","link_code":"abcd2345","device":" Phone "})"));
  EXPECT_EQ(linked.link_code, "ABCD2345");
  EXPECT_EQ(linked.device, "Phone");
}

TEST(Decode, AccountMessages) {
  EXPECT_EQ(
      as<Register>(decode_client(R"({"type":"register","password":"a fine secret"})")).password,
      "a fine secret");
  const Login login =
      as<Login>(decode_client(R"({"type":"login","name":"ann","password":"x","device":"Laptop"})"));
  EXPECT_EQ(login.name, "ann");
  EXPECT_EQ(login.password, "x");  // an old password is not judged again
  EXPECT_EQ(login.device, "Laptop");
  const ChangePassword change = as<ChangePassword>(decode_client(
      R"({"type":"change_password","old_password":"old one","password":"new and long"})"));
  EXPECT_EQ(change.old_password, "old one");
  EXPECT_EQ(change.password, "new and long");
  for (const char* type : {"sessions", "logout", "logout_all", "link_code"}) {
    EXPECT_TRUE(decode_client(std::string(R"({"type":")") + type + "\"}").ok()) << type;
  }
}

TEST(Decode, WeakLongAndMalformedAccountFieldsAreRefused) {
  const auto field_error = [](const std::string& text) {
    const Decoded d = decode_client(text);
    return d.ok() ? std::string("accepted") : d.error().field + ": " + d.error().message;
  };
  EXPECT_EQ(field_error(R"({"type":"register","password":"seven77"})"),
            "password: password must be 8 to 128 characters");
  EXPECT_EQ(field_error(R"({"type":"register","password":")" + std::string(129, 'x') + "\"}"),
            "password: password must be at most 128 characters");
  EXPECT_EQ(field_error(R"({"type":"register","password":"Password1"})"),
            "password: this password is one of the most common: pick another");
  EXPECT_EQ(field_error(R"({"type":"register","password":")" + std::string(128, 'x') + "\"}"),
            "accepted");
  EXPECT_EQ(field_error(R"({"type":"hello","link_code":"ABC"})"),
            "link_code: link_code must be 8 characters from ABCDEFGHJKLMNPQRSTUVWXYZ23456789");
  EXPECT_EQ(field_error(R"({"type":"hello","name":"ad​min"})").substr(0, 42),
            "name: name must not contain invisible char");
  EXPECT_EQ(field_error(R"({"type":"login","name":"a"})"), "password: password is required");
}

TEST(Decode, FriendsMessages) {
  const FriendChange by_name =
      as<FriendChange>(decode_client(R"({"type":"friend_request","name":" bob "})"));
  EXPECT_EQ(by_name.verb, FriendVerb::request);
  EXPECT_EQ(by_name.name, "bob");
  EXPECT_TRUE(by_name.player.empty());
  const std::vector<std::pair<const char*, FriendVerb>> verbs{
      {"friend_request", FriendVerb::request},
      {"friend_accept", FriendVerb::accept},
      {"friend_decline", FriendVerb::decline},
      {"friend_remove", FriendVerb::remove},
      {"block", FriendVerb::block},
      {"unblock", FriendVerb::unblock}};
  for (const auto& [type, verb] : verbs) {
    const FriendChange c = as<FriendChange>(
        decode_client(std::string(R"({"type":")") + type + R"(","player":"a1b2-c_3"})"));
    EXPECT_EQ(c.verb, verb) << type;
    EXPECT_EQ(c.player, "a1b2-c_3") << type;
  }
  EXPECT_TRUE(
      std::holds_alternative<FriendsRequest>(decode_client(R"({"type":"friends"})").message()));
  const Challenge ch = as<Challenge>(decode_client(
      R"({"type":"challenge","player":"abc","mode":"classic","size":5,"target":512,"time_limit":60})"));
  EXPECT_EQ(ch.player, "abc");
  EXPECT_EQ(ch.options.size, 5);
  EXPECT_EQ(ch.options.target, 512);
  EXPECT_EQ(ch.options.time_limit, 60);
  const ChallengeAnswer no =
      as<ChallengeAnswer>(decode_client(R"({"type":"challenge_decline","id":"0123456789abcdef"})"));
  EXPECT_FALSE(no.accept);
  EXPECT_EQ(no.id, "0123456789abcdef");
  EXPECT_EQ(as<SpectatePlayer>(decode_client(R"({"type":"spectate_player","player":"p1"})")).player,
            "p1");
  EXPECT_TRUE(std::holds_alternative<Rematch>(decode_client(R"({"type":"rematch"})").message()));
}

TEST(Decode, MalformedFriendsFieldsAreRefused) {
  const auto field_error = [](const std::string& text) {
    const Decoded d = decode_client(text);
    return d.ok() ? std::string("accepted") : d.error().field + ": " + d.error().message;
  };
  EXPECT_EQ(field_error(R"({"type":"friend_accept","name":"bob"})"), "player: player is required");
  EXPECT_EQ(field_error(R"({"type":"friend_request"})"), "player: player is required");
  EXPECT_EQ(field_error(R"({"type":"block","player":"a b"})"),
            "player: player must be a player id");
  EXPECT_EQ(field_error(R"({"type":"unblock","player":")" + std::string(33, 'a') + "\"}"),
            "player: player must be a player id");
  EXPECT_EQ(field_error(R"({"type":"challenge","player":"p","size":9})"),
            "size: size must be an integer from 3 to 8");
  EXPECT_EQ(field_error(R"({"type":"challenge_accept","id":"XYZ"})"),
            "id: id must be a challenge id");
  EXPECT_EQ(field_error(R"({"type":"spectate_player","player":5})"),
            "player: player must be a string");
}

TEST(Decode, TheDailyChallenge) {
  const NewGame daily =
      as<NewGame>(decode_client(R"({"type":"new_game","daily":true,"mode":"classic","size":5})"));
  EXPECT_TRUE(daily.daily);
  EXPECT_EQ(daily.config.size, 5);
  EXPECT_EQ(daily.config.target, 2048);
  const auto field_error = [](const std::string& text) {
    const Decoded d = decode_client(text);
    return d.ok() ? std::string("accepted") : d.error().field;
  };
  EXPECT_EQ(field_error(R"({"type":"new_game","daily":true,"size":6})"), "daily");
  EXPECT_EQ(field_error(R"({"type":"new_game","daily":true,"size":4,"target":512})"), "daily");
  EXPECT_EQ(field_error(R"({"type":"new_game","daily":true,"size":4,"seed":"7"})"), "seed");
  const LeaderboardRequest board = as<LeaderboardRequest>(
      decode_client(R"({"type":"leaderboard","board":"daily","mode":"classic","size":4})"));
  EXPECT_EQ(board.kind, LeaderboardKind::daily);
  EXPECT_EQ(board.period.kind, PeriodKind::day);
  EXPECT_TRUE(board.current);
  const LeaderboardRequest past = as<LeaderboardRequest>(
      decode_client(R"({"type":"leaderboard","board":"daily","size":4,"period":"2026-11-24"})"));
  EXPECT_FALSE(past.current);
  EXPECT_EQ(to_string(past.period), "2026-11-24");
  EXPECT_EQ(field_error(R"({"type":"leaderboard","board":"daily","size":4,"period":"week"})"),
            "period");
  EXPECT_EQ(field_error(R"({"type":"leaderboard","board":"weekly","size":4})"), "board");
  const auto query = decode_leaderboard_query("board=daily&mode=classic&size=5&period=2026-11-24");
  ASSERT_TRUE(std::holds_alternative<LeaderboardRequest>(query));
  EXPECT_EQ(std::get<LeaderboardRequest>(query).kind, LeaderboardKind::daily);
}

TEST(Decode, EmotesAndTheComputerOption) {
  for (const auto e : {Emote::hi, Emote::gl, Emote::gg, Emote::nice, Emote::wow, Emote::oops}) {
    const Decoded d =
        decode_client(R"({"type":"emote","emote":")" + std::string(to_string(e)) + "\"}");
    EXPECT_EQ(as<SendEmote>(d).emote, e);
  }
  const Decoded c = decode_client(R"({"type":"create_room","bot":"hard"})");
  EXPECT_EQ(as<CreateRoom>(c).options.bot, engine::BotStrength::hard);
  EXPECT_FALSE(as<CreateRoom>(decode_client(R"({"type":"create_room"})")).options.bot);
  EXPECT_TRUE(std::holds_alternative<BotRecordRequest>(
      decode_client(R"({"type":"bot_record"})").message()));
}

TEST(Decode, AGhostRoomNamesItsRun) {
  const Decoded g = decode_client(R"({"type":"create_room","ghost":"0123abcd"})");
  EXPECT_EQ(as<CreateRoom>(g).options.ghost, "0123abcd");
  EXPECT_FALSE(as<CreateRoom>(decode_client(R"({"type":"create_room"})")).options.ghost);
}

TEST(Decode, TournamentsTheirOptionsAndDefaults) {
  const TournamentOptions o =
      as<CreateTournament>(
          decode_client(R"({"type":"create_tournament","format":"swiss","size":5,"target":1024,)"
                        R"("time_limit":60,"max_players":256,"public":true,"starts":1900000000000,)"
                        R"("rounds":7,"room_size":4})"))
          .options;
  EXPECT_EQ(o.format, TournamentFormat::swiss);
  EXPECT_EQ(o.room_size, 4);
  EXPECT_EQ(o.size, 5);
  EXPECT_EQ(o.target, 1024);
  EXPECT_EQ(o.time_limit, 60);
  EXPECT_EQ(o.max_players, 256);
  EXPECT_TRUE(o.is_public);
  EXPECT_EQ(o.starts, 1900000000000);
  EXPECT_EQ(o.rounds, 7);
  const TournamentOptions d =
      as<CreateTournament>(
          decode_client(R"({"type":"create_tournament","format":"arena","starts":"manual"})"))
          .options;
  EXPECT_EQ(d.format, TournamentFormat::arena);
  EXPECT_FALSE(d.starts.has_value());
  EXPECT_EQ(d.duration, 1800);
  EXPECT_EQ(d.time_limit, 180);
  EXPECT_EQ(d.max_players, 16);
  EXPECT_EQ(d.room_size, 2) << "1-on-1 unless asked";
  EXPECT_EQ(as<JoinTournament>(decode_client(R"({"type":"join_tournament","code":"q4rtz8"})")).code,
            "Q4RTZ8");
  for (const char* type : {"leave_tournament", "start_tournament"}) {
    EXPECT_TRUE(decode_client(std::string(R"({"type":")") + type + "\"}").ok()) << type;
  }
  EXPECT_EQ(
      as<SpectateTournament>(decode_client(R"({"type":"spectate_tournament","code":"Q4RTZ8"})"))
          .code,
      "Q4RTZ8");
  const auto field_of = [](const std::string& text) {
    const Decoded e = decode_client(text);
    return e.ok() ? std::string("accepted") : e.error().field;
  };
  EXPECT_EQ(field_of(R"({"type":"create_tournament"})"), "format");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"ladder"})"), "format");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"swiss","rounds":21})"), "rounds");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"arena","duration":59})"), "duration");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"arena","max_players":1})"),
            "max_players");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"arena","starts":"soon"})"), "starts");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"arena","room_size":5})"),
            "room_size");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"swiss","room_size":1})"),
            "room_size");
  EXPECT_EQ(field_of(R"({"type":"create_tournament","format":"single_elimination","room_size":3})"),
            "room_size")
      << "an elimination is 1-on-1";
  EXPECT_EQ(field_of(R"({"type":"join_tournament","code":"Q4RTZ"})"), "code");
}

TEST(Decode, ReportsAndKicks) {
  const Report r = as<Report>(
      decode_client(R"({"type":"report","player":"p1","reason":"cheating","note":"too fast"})"));
  EXPECT_EQ(r.player, "p1");
  EXPECT_EQ(r.reason, ReportReason::cheating);
  EXPECT_EQ(r.note, "too fast");
  EXPECT_EQ(as<Kick>(decode_client(R"({"type":"kick","player":"p2"})")).player, "p2");
}

TEST(Decode, OperatorActions) {
  const auto ban = decode_admin("ban", R"({"player":"p1","reason":"abuse","until":1800000000000})");
  ASSERT_EQ(ban.index(), 0u);
  const auto& b = std::get<AdminBan>(std::get<AdminAction>(ban));
  EXPECT_EQ(b.player, "p1");
  EXPECT_EQ(b.reason, "abuse");
  EXPECT_EQ(b.until, 1800000000000);
  const auto show = decode_admin("show_game", R"({"game":"abc"})");
  ASSERT_EQ(show.index(), 0u);
  EXPECT_FALSE(std::get<AdminHideGame>(std::get<AdminAction>(show)).hidden);
  const auto rename = decode_admin("rename", R"({"player":"p1","name":"  Neat  ","reason":"x"})");
  EXPECT_EQ(std::get<AdminRename>(std::get<AdminAction>(rename)).name, "Neat");
  const auto field = [](std::string_view action, std::string_view body) {
    const auto d = decode_admin(action, body);
    return d.index() == 1 ? std::get<ProtocolError>(d).field : std::string("accepted");
  };
  EXPECT_EQ(field("ban", R"({"player":"p1"})"), "reason") << "a ban says why";
  EXPECT_EQ(field("ban", R"({"player":"p1","reason":""})"), "reason");
  EXPECT_EQ(field("ban", R"({"player":"p1","reason":"x","until":-5})"), "until");
  EXPECT_EQ(field("unban", R"({"player":"p1"})"), "accepted");
  EXPECT_EQ(field("rename", R"({"player":"p1","name":"a\u202Eb","reason":"x"})"), "name");
  EXPECT_EQ(field("close_room", R"({"code":"nope!!","reason":"x"})"), "code");
  EXPECT_EQ(field("resolve_report", R"({"id":0,"resolution":"x"})"), "id");
  EXPECT_EQ(field("hide_game", R"({"game":"g","reason":")" + std::string(201, 'x') + "\"}"),
            "reason");
  EXPECT_EQ(std::get<ProtocolError>(decode_admin("format_disk", "{}")).code,
            ErrorCode::unknown_type);
  EXPECT_EQ(std::get<ProtocolError>(decode_admin("ban", "[1]")).code, ErrorCode::bad_json);
}

TEST(Decode, OperatorDeskActions) {
  const auto in =
      decode_desk("sign_in", R"({"name":"Ada","password":"pass-phrase-1","totp":"012345"})");
  ASSERT_EQ(in.index(), 0u);
  const auto& i = std::get<OperatorSignIn>(std::get<DeskAction>(in));
  EXPECT_EQ(i.name, "Ada");
  EXPECT_EQ(i.totp, "012345");
  EXPECT_EQ(decode_desk("sign_out", "").index(), 0u) << "an empty body is {}";
  const auto field = [](std::string_view action, std::string_view body) {
    const auto d = decode_desk(action, body);
    return d.index() == 1 ? std::get<ProtocolError>(d).field : std::string("accepted");
  };
  EXPECT_EQ(field("sign_in", R"({"name":"ada","password":"x","totp":"12345"})"), "totp");
  EXPECT_EQ(field("sign_in", R"({"name":"ada","password":"x","totp":"12345a"})"), "totp");
  EXPECT_EQ(field("sign_in", R"({"name":"аda","password":"x"})"), "name") << "Cyrillic а";
  EXPECT_EQ(field("sign_in", R"({"name":"a da","password":"x"})"), "name");
  EXPECT_EQ(field("sign_in", R"({"name":")" + std::string(33, 'a') + R"(","password":"x"})"),
            "name");
  EXPECT_EQ(field("create_operator", R"({"name":"ada","password":"pass-phrase-1","role":"god"})"),
            "role");
  EXPECT_EQ(field("create_operator", R"({"name":"ada","password":"password","role":"viewer"})"),
            "password")
      << "the players' password rules";
  EXPECT_EQ(field("create_operator", R"({"name":"a.d_a-1","password":"pass-phrase-1",)"
                                     R"("role":"owner"})"),
            "accepted");
  EXPECT_EQ(field("remove_operator", R"({"operator":"a b"})"), "operator");
  EXPECT_EQ(field("totp_confirm", R"({"code":"1234567"})"), "code");
  EXPECT_EQ(std::get<ProtocolError>(decode_desk("ban", "{}")).code, ErrorCode::unknown_type);
  EXPECT_TRUE(is_desk_action("totp_confirm"));
  EXPECT_FALSE(is_desk_action("ban"));
  EXPECT_EQ(operator_name_key("Ada.B"), "ada.b");
  EXPECT_FALSE(operator_name_key(""));
}

TEST(Decode, LeaderboardPeriods) {
  const auto request = [](const std::string& text) {
    return as<LeaderboardRequest>(decode_client(text));
  };
  const LeaderboardRequest all = request(R"({"type":"leaderboard"})");
  EXPECT_EQ(all.period.kind, PeriodKind::all_time);
  EXPECT_FALSE(all.current);
  EXPECT_EQ(request(R"({"type":"leaderboard","period":"all-time"})").period, Period{});
  const LeaderboardRequest day = request(R"({"type":"leaderboard","period":"day"})");
  EXPECT_TRUE(day.current);
  EXPECT_EQ(day.period.kind, PeriodKind::day);
  // 1,795,391,999,999 ms is 2026-11-22 23:59:59.999 UTC, a Sunday.
  EXPECT_EQ(to_string(period_at(day, 1'795'391'999'999)), "2026-11-22");
  EXPECT_EQ(to_string(period_at(day, 1'795'392'000'000)), "2026-11-23");
  const LeaderboardRequest week = request(R"({"type":"leaderboard","period":"week"})");
  EXPECT_EQ(to_string(period_at(week, 1'795'391'999'999)), "2026-W47");
  EXPECT_EQ(to_string(period_at(week, 1'795'392'000'000)), "2026-W48");
  const LeaderboardRequest past = request(R"({"type":"leaderboard","period":"2026-W47"})");
  EXPECT_FALSE(past.current);
  EXPECT_EQ(to_string(period_at(past, 1'795'392'000'000)), "2026-W47");

  for (const char* text :
       {R"({"type":"leaderboard","period":"2025-W53"})",
        R"({"type":"leaderboard","period":"yesterday"})", R"({"type":"leaderboard","period":7})",
        R"({"type":"leaderboard","kind":"rating","period":"week"})"}) {
    const Decoded d = decode_client(text);
    ASSERT_FALSE(d.ok()) << text;
    EXPECT_EQ(d.error().code, ErrorCode::bad_field) << text;
    EXPECT_EQ(d.error().field, "period") << text;
  }
  EXPECT_EQ(request(R"({"type":"leaderboard","kind":"rating","period":"all-time"})").kind,
            LeaderboardKind::rating);
  const auto query = decode_leaderboard_query("mode=classic&period=2026-11-23");
  ASSERT_TRUE(std::holds_alternative<LeaderboardRequest>(query));
  EXPECT_EQ(to_string(std::get<LeaderboardRequest>(query).period), "2026-11-23");
  const auto bad = decode_leaderboard_query("period=2026-11-31");
  ASSERT_TRUE(std::holds_alternative<ProtocolError>(bad));
  EXPECT_EQ(std::get<ProtocolError>(bad).field, "period");
}

TEST(Decode, PingUndoResign) {
  EXPECT_TRUE(std::holds_alternative<Ping>(decode_client(R"({"type":"ping"})").message()));
  EXPECT_TRUE(std::holds_alternative<Undo>(decode_client(R"({"type":"undo"})").message()));
  EXPECT_TRUE(std::holds_alternative<Resign>(decode_client(R"({"type":"resign"})").message()));
}

TEST(Decode, NewGameDefaultsAndFields) {
  const Decoded plain = decode_client(R"({"type":"new_game"})");
  const auto& d = as<NewGame>(plain);
  EXPECT_EQ(d.config.mode, engine::Mode::classic);
  EXPECT_EQ(d.config.size, 4);
  EXPECT_EQ(d.config.target, 2048);
  EXPECT_FALSE(d.explicit_seed);
  const Decoded full = decode_client(
      R"({"type":"new_game","mode":"moving-obstacle","size":8,"target":131072,"seed":"18446744073709551615"})");
  const auto& f = as<NewGame>(full);
  EXPECT_EQ(f.config.mode, engine::Mode::moving_obstacle);
  EXPECT_EQ(f.config.size, 8);
  EXPECT_EQ(f.config.target, 131072);
  EXPECT_EQ(f.config.seed, 18446744073709551615ULL);
  EXPECT_TRUE(f.explicit_seed);
  const Decoded fifteen =
      decode_client(R"({"type":"new_game","mode":"fifteen","size":6,"target":5})");
  const auto& q = as<NewGame>(fifteen);
  EXPECT_EQ(q.config.mode, engine::Mode::fifteen);  // target is ignored for fifteen
  EXPECT_EQ(q.config.size, 6);
}

TEST(Decode, MoveAndSlide) {
  const Decoded move = decode_client(R"({"type":"move","dir":"left","at_move":12})");
  const auto& m = as<Move>(move);
  EXPECT_EQ(m.dir, engine::Direction::left);
  EXPECT_EQ(m.at_move, 12);
  const Decoded slide = decode_client(R"({"type":"slide","cell":[2,3]})");
  const auto& s = as<Slide>(slide);
  EXPECT_EQ(s.cell, (engine::Cell{2, 3}));
  EXPECT_FALSE(s.at_move.has_value());
}

TEST(Decode, RidIsKeptForRepliesAndErrors) {
  EXPECT_EQ(std::get<std::string>(decode_client(R"({"type":"ping","rid":"r-1"})").rid), "r-1");
  EXPECT_EQ(std::get<std::int64_t>(decode_client(R"({"type":"ping","rid":-7})").rid), -7);
  const auto bad = decode_client(R"({"type":"nope","rid":9})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::unknown_type);
  EXPECT_EQ(std::get<std::int64_t>(bad.rid), 9);
  const auto field = decode_client(R"({"type":"move","dir":"north","rid":"x"})");
  EXPECT_EQ(field.error().field, "dir");
  EXPECT_EQ(std::get<std::string>(field.rid), "x");
}

TEST(Decode, UnknownFieldsAreIgnored) {
  EXPECT_TRUE(decode_client(R"({"type":"ping","extra":{"a":[1,2,{"b":null}]},"n":1.5})").ok());
}

struct Malformed {
  std::string text;
  ErrorCode code;
  std::string field;
};

// depth levels of nested arrays around a 1.
std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') + "1" +
         std::string(static_cast<std::size_t>(depth), ']');
}

TEST(Decode, EightLevelsOfNestingAreAllowed) {
  EXPECT_TRUE(decode_client(R"({"type":"ping","a":)" + nested(7) + "}").ok());
  EXPECT_FALSE(decode_client(R"({"type":"ping","a":)" + nested(8) + "}").ok());
}

TEST(Decode, MalformedInputsGetTheirExactError) {
  const std::string huge(100000, 'a');
  const std::vector<Malformed> table = {
      // Not one JSON object.
      {"", ErrorCode::bad_json, ""},
      {" ", ErrorCode::bad_json, ""},
      {"{", ErrorCode::bad_json, ""},
      {"}", ErrorCode::bad_json, ""},
      {"null", ErrorCode::bad_json, ""},
      {"42", ErrorCode::bad_json, ""},
      {"\"ping\"", ErrorCode::bad_json, ""},
      {"[]", ErrorCode::bad_json, ""},
      {R"([{"type":"ping"}])", ErrorCode::bad_json, ""},
      {R"({"type":"ping"} {"type":"ping"})", ErrorCode::bad_json, ""},
      {R"({"type":"ping",})", ErrorCode::bad_json, ""},
      {R"({'type':'ping'})", ErrorCode::bad_json, ""},
      {R"({type:"ping"})", ErrorCode::bad_json, ""},
      {R"({"type":"ping")", ErrorCode::bad_json, ""},
      {"{\"type\":\"pi\ng\"}", ErrorCode::bad_json, ""},  // raw newline in a string
      {R"({"type":"\u12"})", ErrorCode::bad_json, ""},
      {R"({"type":NaN})", ErrorCode::bad_json, ""},
      {R"({"type":Infinity})", ErrorCode::bad_json, ""},
      {R"({"type":"ping"}garbage)", ErrorCode::bad_json, ""},
      {std::string("{\"type\":\"ping\"\0}", 16), ErrorCode::bad_json, ""},
      // Nesting: the object is level 1; 8 levels are fine, 9 are not.
      {R"({"type":"ping","a":)" + nested(8) + "}", ErrorCode::bad_json, ""},
      {R"({"type":"ping","a":)" + nested(5000) + "}", ErrorCode::bad_json, ""},
      {std::string(100000, '['), ErrorCode::bad_json, ""},
      {std::string(100000, '{'), ErrorCode::bad_json, ""},
      // Invalid UTF-8 anywhere.
      {"{\"type\":\"hello\",\"name\":\"\xff\"}", ErrorCode::bad_json, ""},
      {"{\"type\":\"hello\",\"name\":\"\xc3\x28\"}", ErrorCode::bad_json, ""},
      {"{\"type\":\"hello\",\"name\":\"\xc0\xaf\"}", ErrorCode::bad_json, ""},      // overlong
      {"{\"type\":\"hello\",\"name\":\"\xed\xa0\x80\"}", ErrorCode::bad_json, ""},  // surrogate
      {"{\"type\":\"hello\",\"name\":\"\xf4\x90\x80\x80\"}", ErrorCode::bad_json, ""},
      {"{\"type\":\"ping\"}\xe2\x82", ErrorCode::bad_json, ""},
      // type.
      {R"({})", ErrorCode::bad_field, "type"},
      {R"({"type":1})", ErrorCode::bad_field, "type"},
      {R"({"type":null})", ErrorCode::bad_field, "type"},
      {R"({"type":["ping"]})", ErrorCode::bad_field, "type"},
      {R"({"type":"PING"})", ErrorCode::unknown_type, ""},
      {R"({"type":"launch_missiles"})", ErrorCode::unknown_type, ""},
      {R"({"type":""})", ErrorCode::unknown_type, ""},
      // rid.
      {R"({"type":"ping","rid":1.5})", ErrorCode::bad_field, "rid"},
      {R"({"type":"ping","rid":true})", ErrorCode::bad_field, "rid"},
      {R"({"type":"ping","rid":{}})", ErrorCode::bad_field, "rid"},
      {R"({"type":"ping","rid":9223372036854775808})", ErrorCode::bad_field, "rid"},
      {R"({"type":"ping","rid":")" + std::string(65, 'r') + "\"}", ErrorCode::bad_field, "rid"},
      // hello.
      {R"({"type":"hello","name":5})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":""})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":"   "})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":"abcdefghijklmnopqrstu"})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":"a\u0007b"})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":"a\nb"})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":"a\u0085b"})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":"a\u007fb"})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":42})", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":")" + huge + "\"}", ErrorCode::bad_field, "name"},
      {R"({"type":"hello","name":"a","token":7})", ErrorCode::bad_field, "token"},
      {R"({"type":"hello","name":"a","token":")" + std::string(129, 't') + "\"}",
       ErrorCode::bad_field, "token"},
      // emote: the fixed set only.
      {R"({"type":"emote"})", ErrorCode::bad_field, "emote"},
      {R"({"type":"emote","emote":"GG"})", ErrorCode::bad_field, "emote"},
      {R"({"type":"emote","emote":"<b>hi</b>"})", ErrorCode::bad_field, "emote"},
      {R"({"type":"emote","emote":1})", ErrorCode::bad_field, "emote"},
      // bot on create_room.
      {R"({"type":"create_room","bot":"godlike"})", ErrorCode::bad_field, "bot"},
      {R"({"type":"create_room","bot":"hard","size":3})", ErrorCode::bad_field, "bot"},
      // report and kick
      {R"({"type":"report","player":"p1"})", ErrorCode::bad_field, "reason"},
      {R"({"type":"report","player":"p1","reason":"rude"})", ErrorCode::bad_field, "reason"},
      {R"({"type":"report","reason":"name"})", ErrorCode::bad_field, "player"},
      {R"({"type":"kick"})", ErrorCode::bad_field, "player"},
      // ghost on create_room: a game id, and not with the computer.
      {R"({"type":"create_room","ghost":""})", ErrorCode::bad_field, "ghost"},
      {R"({"type":"create_room","ghost":"a b"})", ErrorCode::bad_field, "ghost"},
      {R"({"type":"create_room","ghost":7})", ErrorCode::bad_field, "ghost"},
      {R"({"type":"create_room","ghost":"abc","bot":"easy"})", ErrorCode::bad_field, "ghost"},
      // new_game.
      {R"({"type":"new_game","mode":"chess"})", ErrorCode::bad_field, "mode"},
      {R"({"type":"new_game","mode":3})", ErrorCode::bad_field, "mode"},
      {R"({"type":"new_game","size":2})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":9})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","mode":"fifteen","size":7})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":2.9})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":4.0})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":"4"})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":-4})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":1e400})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":-1e400})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":9223372036854775808})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":18446744073709551616})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","size":null})", ErrorCode::bad_field, "size"},
      {R"({"type":"new_game","target":4})", ErrorCode::bad_field, "target"},
      {R"({"type":"new_game","target":3000})", ErrorCode::bad_field, "target"},
      {R"({"type":"new_game","target":262144})", ErrorCode::bad_field, "target"},
      {R"({"type":"new_game","target":0})", ErrorCode::bad_field, "target"},
      {R"({"type":"new_game","target":"2048"})", ErrorCode::bad_field, "target"},
      {R"({"type":"new_game","seed":42})", ErrorCode::bad_field, "seed"},
      {R"({"type":"new_game","seed":""})", ErrorCode::bad_field, "seed"},
      {R"({"type":"new_game","seed":"-1"})", ErrorCode::bad_field, "seed"},
      {R"({"type":"new_game","seed":"+1"})", ErrorCode::bad_field, "seed"},
      {R"({"type":"new_game","seed":"12a"})", ErrorCode::bad_field, "seed"},
      {R"({"type":"new_game","seed":" 1"})", ErrorCode::bad_field, "seed"},
      {R"({"type":"new_game","seed":"18446744073709551616"})", ErrorCode::bad_field, "seed"},
      // move and slide.
      {R"({"type":"move"})", ErrorCode::bad_field, "dir"},
      {R"({"type":"move","dir":"LEFT"})", ErrorCode::bad_field, "dir"},
      {R"({"type":"move","dir":0})", ErrorCode::bad_field, "dir"},
      {R"({"type":"move","dir":"left","at_move":-1})", ErrorCode::bad_field, "at_move"},
      {R"({"type":"move","dir":"left","at_move":1.5})", ErrorCode::bad_field, "at_move"},
      {R"({"type":"move","dir":"left","at_move":"3"})", ErrorCode::bad_field, "at_move"},
      {R"({"type":"move","dir":"left","at_move":1e400})", ErrorCode::bad_field, "at_move"},
      {R"({"type":"move","dir":"left","at_move":2147483648})", ErrorCode::bad_field, "at_move"},
      {R"({"type":"slide"})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":[1]})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":[1,2,3]})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":[1,-1]})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":[8,0]})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":[1.5,0]})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":{"row":1,"col":2}})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":"1,2"})", ErrorCode::bad_field, "cell"},
      {R"({"type":"slide","cell":[18446744073709551615,0]})", ErrorCode::bad_field, "cell"},
  };
  ASSERT_GE(table.size(), 60u);
  for (const auto& row : table) {
    const Decoded d = decode_client(row.text);
    ASSERT_FALSE(d.ok()) << row.text.substr(0, 120);
    EXPECT_EQ(d.error().code, row.code) << row.text.substr(0, 120) << " → " << d.error().message;
    EXPECT_EQ(d.error().field, row.field) << row.text.substr(0, 120);
    EXPECT_FALSE(d.error().message.empty());
  }
}

TEST(ValidUtf8, AcceptsEveryPlaneAndRejectsBrokenSequences) {
  EXPECT_TRUE(valid_utf8("plain ascii"));
  EXPECT_TRUE(valid_utf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x99\x82"));  // é € 🙂
  EXPECT_TRUE(valid_utf8("\xf4\x8f\xbf\xbf"));                      // U+10FFFF
  EXPECT_FALSE(valid_utf8("\x80"));
  EXPECT_FALSE(valid_utf8("\xe2\x82"));
  EXPECT_FALSE(valid_utf8("\xe0\x80\x80"));  // overlong
  EXPECT_FALSE(valid_utf8("\xf8\x88\x80\x80\x80"));
}

// The old, code point by code point reading of RFC 3629: the reference the validator must agree
// with on whole texts.
bool reference_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    const int extra = c < 0x80             ? 0
                      : (c & 0xE0) == 0xC0 ? 1
                      : (c & 0xF0) == 0xE0 ? 2
                      : (c & 0xF8) == 0xF0 ? 3
                                           : -1;
    if (extra < 0 || i + extra >= text.size() + (extra == 0 ? 1 : 0)) return false;
    char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    constexpr char32_t kMin[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

TEST(Utf8Validator, AgreesWithTheReferenceOnEveryTextOfUpToThreeBytes) {
  std::string text;
  std::size_t checked = 0;
  for (int length = 1; length <= 3; ++length) {
    text.assign(length, '\0');
    for (std::uint32_t n = 0; n < (1u << (8 * length)); ++n) {
      for (int k = 0; k < length; ++k) text[k] = static_cast<char>(n >> (8 * k));
      ASSERT_EQ(valid_utf8(text), reference_utf8(text)) << ::testing::PrintToString(text);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 256u + 65536u + 16777216u);
}

// Fed one byte at a time, the validator says no at the first byte no valid text can have there
// (what Autobahn's 6.4.x cases call failing fast), and only the text's end tells a cut-off
// character apart.
TEST(Utf8Validator, RefusesAtTheFirstByteThatProvesTheTextBad) {
  const auto refused_at = [](std::string_view text) {
    Utf8Validator check;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (!check.feed(text.substr(i, 1))) return static_cast<int>(i);
    }
    return check.complete() ? -1 : static_cast<int>(text.size());
  };
  // Autobahn 6.4.1: κόσμε, then U+110000's would-be bytes: the 0x90 after 0xF4 decides.
  EXPECT_EQ(refused_at("\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xf4\x90\x80\x80"
                       "edited"),
            12);
  EXPECT_EQ(refused_at("\xed\xa0\x80"), 1);      // a surrogate
  EXPECT_EQ(refused_at("\xe0\x9f\xbf"), 1);      // overlong three-byte form
  EXPECT_EQ(refused_at("\xf0\x8f\xbf\xbf"), 1);  // overlong four-byte form
  EXPECT_EQ(refused_at("ab\xc0\xaf"), 2);        // overlong two-byte form
  EXPECT_EQ(refused_at("abc\xf5"), 3);           // past U+10FFFF from its lead
  EXPECT_EQ(refused_at("\xe2\x82x"), 2);         // a character cut short by another
  EXPECT_EQ(refused_at("ok \xe2\x82"), 5);       // cut short by the end: only complete() knows
  EXPECT_EQ(refused_at("\xf4\x8f\xbf\xbf \xe2\x82\xac"), -1);
  // Eight ASCII bytes at a time, and a multi-byte character just after such a run.
  EXPECT_EQ(refused_at(std::string(64, 'a') + "\xc3\xa9" + std::string(9, 'b') + "\xff"), 75);
}

// Moves are read by a scanner that builds no JSON tree; the full parser is the reference. A key
// the scanner does not know (with a nested value) sends a message down the full path, which
// ignores it, so both paths must give the same answer for each of these.
TEST(Decode, MovesReadWithoutATreeMatchTheFullParser) {
  const std::vector<std::string> bodies{
      R"("type":"move","dir":"left")",
      R"("dir":"up","type":"move","rid":7)",
      R"( "type" : "move" ,	"dir":"down",
 "rid":"abc","at_move":0 )",
      R"("type":"move","dir":"right","at_move":2147483647,"rid":-9223372036854775808)",
      R"("type":"move","dir":"right","rid":"")",
      R"("type":"move","dir":"right","rid":-0)",
      R"("type":"move","dir":"left","rid":"0123456789012345678901234567890123456789012345678901234567890123")",
      R"("type":"move","dir":"left","rid":"01234567890123456789012345678901234567890123456789012345678901234")",
      R"("type":"move","dir":"left","rid":9223372036854775808)",
      R"("type":"move","dir":"left","rid":1.0)",
      R"("type":"move","dir":"left","rid":01)",
      R"("type":"move","dir":"left","rid":"a\"b")",
      R"("type":"move","dir":"left","rid":"é")",
      R"("type":"move","dir":"left","rid":null)",
      R"("type":"move","dir":"left","at_move":-1)",
      R"("type":"move","dir":"left","at_move":2147483648)",
      R"("type":"move","dir":"left","at_move":1e2)",
      R"("type":"move","dir":"LEFT")",
      R"("type":"move","dir":7)",
      R"("type":"move")",
      R"("type":"moves","dir":"left")",
      R"("type":"move","dir":"left","dir":"up")",
  };
  const auto same = [](const Decoded& a, const Decoded& b) {
    if (a.rid != b.rid || a.ok() != b.ok()) return false;
    if (!a.ok()) return a.error().code == b.error().code && a.error().field == b.error().field;
    const auto* x = std::get_if<Move>(&a.message());
    const auto* y = std::get_if<Move>(&b.message());
    return x != nullptr && y != nullptr && x->dir == y->dir && x->at_move == y->at_move;
  };
  int moves = 0;
  for (const auto& body : bodies) {
    const Decoded fast = decode_client("{" + body + "}");
    const Decoded full = decode_client(R"({"extra":[{}],)" + body + "}");
    EXPECT_TRUE(same(fast, full)) << body;
    moves += fast.ok();
  }
  // The first seven, the escaped and the non-ASCII rid, and the duplicate dir (the full parser
  // keeps the last).
  EXPECT_EQ(moves, 10);
  // What the scanner refuses outright still gets the full parser's errors.
  EXPECT_EQ(decode_client(R"({"type":"move","dir":"left"} x)").error().code, ErrorCode::bad_json);
  EXPECT_EQ(decode_client(R"({"type":"move","dir":"left",})").error().code, ErrorCode::bad_json);
  EXPECT_EQ(decode_client(R"({"type":"move","dir":"left")").error().code, ErrorCode::bad_json);
}

}  // namespace
}  // namespace tilerace::protocol
