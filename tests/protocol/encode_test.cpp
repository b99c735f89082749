#include "protocol/encode.hpp"
#include "protocol/json_writer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <vector>

namespace tilerace::protocol {
namespace {

using json = nlohmann::json;

TEST(Encode, WelcomeCarriesIdentityTokenAndRid) {
  const json j = json::parse(
      encode_welcome({"p1", "alice"}, "p1.secret", true, false, "", "", std::string("r")));
  EXPECT_EQ(j["type"], "welcome");
  EXPECT_EQ(j["player"], (json{{"id", "p1"}, {"name", "alice"}}));
  EXPECT_EQ(j["token"], "p1.secret");
  EXPECT_EQ(j["resumed"], true);
  EXPECT_EQ(j["registered"], false);
  EXPECT_EQ(j["protocol"], 1);
  EXPECT_EQ(j["rid"], "r");
  EXPECT_FALSE(j.contains("device_mark"));
  EXPECT_FALSE(j.contains("name_released"));
  const json marked =
      json::parse(encode_welcome({"p1", "alice"}, "p1.secret", false, true, "d.1.s", "zoe", {}));
  EXPECT_EQ(marked["device_mark"], "d.1.s");
  EXPECT_EQ(marked["name_released"], "zoe");
}

TEST(Encode, AccountMessagesNeverCarryTokens) {
  const json sessions = json::parse(encode_sessions(
      {{"0123456789abcdef", 1000, 2000, "Firefox on Linux", true}, {"fedcba", 5, 6, "", false}},
      {}));
  EXPECT_EQ(sessions["type"], "sessions");
  ASSERT_EQ(sessions["sessions"].size(), 2u);
  EXPECT_EQ(sessions["sessions"][0], (json{{"id", "0123456789abcdef"},
                                           {"created_at", 1000},
                                           {"last_seen", 2000},
                                           {"device", "Firefox on Linux"},
                                           {"current", true}}));
  const json code = json::parse(encode_link_code("ABCD2345", 99, std::string("x")));
  EXPECT_EQ(code,
            (json{{"type", "link_code"}, {"code", "ABCD2345"}, {"expires_at", 99}, {"rid", "x"}}));
  EXPECT_EQ(json::parse(encode_registered({"p", "ann"}, {}))["player"]["name"], "ann");
  EXPECT_EQ(json::parse(encode_logged_out({}))["type"], "logged_out");
  ProtocolError limited{ErrorCode::rate_limited, "wait", ""};
  limited.retry_after_ms = 1500;
  EXPECT_EQ(json::parse(encode_error(limited, {}))["retry_after_ms"], 1500);
}

TEST(Encode, GameSnapshotHasEveryField) {
  const engine::Game game({engine::Mode::fixed_obstacle, 5, 256, 3});
  const json j = json::parse(encode_game({"g1", game, false}, std::int64_t{5}));
  EXPECT_EQ(j["type"], "game");
  EXPECT_EQ(j["rid"], 5);
  const json& g = j["game"];
  for (const char* key : {"id", "mode", "size", "target", "board", "score", "moves", "max_tile",
                          "state", "won", "ranked", "undos"}) {
    EXPECT_TRUE(g.contains(key)) << key;
  }
  EXPECT_EQ(g["mode"], "fixed-obstacle");
  EXPECT_EQ(g["board"].size(), 5u);
  int obstacles = 0, tiles = 0;
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c < 5; ++c) {
      EXPECT_EQ(g["board"][r][c], game.cell(r, c));
      obstacles += g["board"][r][c] == -1;
      tiles += g["board"][r][c].get<int>() > 0;
    }
  }
  EXPECT_EQ(obstacles, 1);
  EXPECT_EQ(tiles, 2);
}

TEST(Encode, MovedMirrorsTheOutcome) {
  engine::Game game({engine::Mode::classic, 4, 2048, 42});
  engine::MoveOutcome out;
  engine::Direction dir = engine::Direction::left;
  for (auto d : {engine::Direction::left, engine::Direction::right, engine::Direction::up}) {
    game.move(d, out);
    dir = d;
    if (out.changed) break;
  }
  ASSERT_TRUE(out.changed);
  const json j = json::parse(encode_moved({"g", game, true}, dir, out, {}));
  EXPECT_EQ(j["type"], "moved");
  EXPECT_EQ(j["dir"], engine::to_string(dir));
  EXPECT_EQ(j["changed"], true);
  EXPECT_EQ(j["moves"], 1);
  EXPECT_FALSE(j.contains("rid"));
  ASSERT_EQ(j["motions"].size(), out.motions.size());
  for (std::size_t i = 0; i < out.motions.size(); ++i) {
    EXPECT_EQ(j["motions"][i]["from"],
              json::array({out.motions[i].from.row, out.motions[i].from.col}));
    EXPECT_EQ(j["motions"][i]["merged"], out.motions[i].merged);
  }
  ASSERT_EQ(j["spawned"].size(), 1u);
  EXPECT_EQ(j["spawned"][0]["value"], out.spawned[0].value);
}

TEST(Encode, RaceUpdateCarriesTheMoveAndEscapesStrings) {
  engine::Game game({engine::Mode::moving_obstacle, 3, 64, 9});
  engine::MoveOutcome out;
  for (auto d : {engine::Direction::down, engine::Direction::left, engine::Direction::up}) {
    game.move(d, out);
    if (out.changed) break;
  }
  ASSERT_TRUE(out.changed);
  const json j = json::parse(encode_race_update("K7\"Q\\2\n", "p1", false, game, out));
  EXPECT_EQ(j["type"], "race_update");
  EXPECT_EQ(j["code"], "K7\"Q\\2\n");
  EXPECT_EQ(j["player"], "p1");
  EXPECT_EQ(j["moves"], game.moves());
  EXPECT_EQ(j["score"], game.score());
  EXPECT_EQ(j["state"], "playing");
  ASSERT_EQ(j["board"].size(), 3u);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(j["board"][r][c], game.cell(r, c));
  }
  EXPECT_EQ(j["motions"].size(), out.motions.size());
  EXPECT_EQ(j["spawned"].size(), out.spawned.size());
  EXPECT_EQ(j["vanished"].size(), out.vanished.size());
}

TEST(Encode, MovedEchoesStringAndNumberRids) {
  engine::Game game({engine::Mode::classic, 4, 2048, 1});
  const engine::MoveOutcome out = game.move(engine::Direction::up);
  EXPECT_EQ(json::parse(encode_moved({"g", game, true}, engine::Direction::up, out,
                                     std::string("a\"b\u00e9")))["rid"],
            "a\"b\u00e9");
  EXPECT_EQ(
      json::parse(encode_moved({"g", game, true}, std::nullopt, out, std::int64_t{-7}))["rid"], -7);
  EXPECT_FALSE(json::parse(encode_moved({"g", game, true}, std::nullopt, out, {})).contains("dir"));
}

TEST(Encode, ErrorNamesCodeFieldAndRid) {
  const json j = json::parse(
      encode_error(ProtocolError{ErrorCode::bad_field, "size must be…", "size"}, std::int64_t{3}));
  EXPECT_EQ(j, (json{{"type", "error"},
                     {"code", "bad_field"},
                     {"message", "size must be…"},
                     {"field", "size"},
                     {"rid", 3}}));
  const json k = json::parse(encode_error(ErrorCode::not_hello, "say hello", {}));
  EXPECT_FALSE(k.contains("field"));
  EXPECT_FALSE(k.contains("rid"));
}

TEST(Encode, InvalidUtf8FromAClientNeverThrows) {
  const std::string bad = "bad\xff name";
  std::string text;
  ASSERT_NO_THROW(text = encode_welcome({"p", bad}, "t", false, false, "", "", {}));
  EXPECT_TRUE(json::accept(text));
}

TEST(Encode, Shutdown) { EXPECT_EQ(json::parse(encode_shutdown())["type"], "shutdown"); }

}  // namespace
}  // namespace tilerace::protocol

namespace tilerace::protocol {
namespace {

TEST(JsonWriter, EscapesWhatJsonRequiresAndKeepsTheRest) {
  const std::string tricky =
      std::string("plain \"quoted\" back\\slash \x01\x1f tab\t é ") + std::string(1, '\0') + "end";
  for (const std::string& s : {std::string(), std::string("abc"), std::string("\""), tricky}) {
    JsonWriter w;
    w.begin_object().key("s").value(s).end_object();
    const std::string out = w.take();
    const nlohmann::json parsed = nlohmann::json::parse(out);
    EXPECT_EQ(parsed["s"], s) << out;
  }
}

TEST(JsonWriter, ATextLargerThanItsInlineBufferIsWrittenWhole) {
  // Past the inline buffer inside a number, a plain string and an escaped one, and twice over.
  JsonWriter w;
  std::vector<std::int64_t> numbers;
  for (std::int64_t i = 0; i < 400; ++i) numbers.push_back(i * 1'000'003 - 7);
  const std::string plain(3000, 'x');
  std::string escaped;
  for (int i = 0; i < 500; ++i) escaped += "a\"\n";
  w.begin_object().key("numbers").begin_array();
  for (const std::int64_t n : numbers) w.value(n);
  w.end_array().key("plain").value(plain).key("escaped").value(escaped).end_object();
  const nlohmann::json parsed = nlohmann::json::parse(w.take());
  EXPECT_EQ(parsed["numbers"].get<std::vector<std::int64_t>>(), numbers);
  EXPECT_EQ(parsed["plain"], plain);
  EXPECT_EQ(parsed["escaped"], escaped);
}

}  // namespace
}  // namespace tilerace::protocol
