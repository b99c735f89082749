#include "server/play/dispatcher.hpp"

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <variant>

#include "protocol/decode.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/server/dispatcher_parts.hpp"
#include "tests/server/fake_participant.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using json = nlohmann::json;
using testing::FakeParticipant;

// An in-memory SQLite store whose writes of results fail while `failing` is set, as a full
// disk or a lost database would.
class FlakyStore final : public Recorder {
 public:
  FlakyStore() : Recorder(std::make_unique<SqliteDialect>(":memory:")) {}
  std::atomic<bool> failing = false;
  std::atomic<int> unreachable = 0;  // the next writes of results that find the database gone

  std::vector<std::vector<Grant>> record_finished(std::span<const Finished> items) override {
    check();
    return Recorder::record_finished(items);
  }

 private:
  void check() {
    if (failing) throw std::runtime_error("disk I/O error");
    if (unreachable > 0) {
      --unreachable;
      throw StoreUnavailable("connection refused");
    }
  }
};

struct Client {
  std::shared_ptr<FakeParticipant> out = std::make_shared<FakeParticipant>();
  Connection connection{*out};
  Client() { connection.self = out; }
};

struct DispatcherFixture : ::testing::Test {
  asio::io_context ioc;
  // Store jobs resume on ioc from the worker's thread: ioc must not stop while one runs.
  asio::executor_work_guard<asio::io_context::executor_type> busy = asio::make_work_guard(ioc);
  FlakyStore store;
  testing::DispatcherParts parts{ioc, store, {0, 60}};

  ~DispatcherFixture() override {
    parts.stop();
    ioc.poll();
    busy.reset();
  }

  // Handles message from client to the end; returns what the client was sent meanwhile.
  std::vector<json> send(Client& client, const json& message) {
    const protocol::Decoded decoded = protocol::decode_client(message.dump());
    if (auto rest = parts.dispatcher.handle(client.connection, decoded)) {
      bool done = false;
      asio::co_spawn(ioc, std::move(*rest), [&](std::exception_ptr e) {
        EXPECT_FALSE(e) << "the dispatcher let an exception escape";
        done = true;
      });
      while (!done) ioc.run_one_for(5s);
    }
    ioc.poll();
    return client.out->take();
  }
  // Runs the io_context until client has been sent a message of type, or 5 s passed.
  std::optional<json> wait_for(Client& client, std::string_view type) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
      for (const json& m : client.out->take()) {
        if (m["type"] == type) return m;
      }
      ioc.run_one_for(100ms);
    }
    return std::nullopt;
  }
};

TEST_F(DispatcherFixture, AMoveThatEndsAGameWhichCannotBeRecordedIsTakenBack) {
  Client c;
  send(c, {{"type", "hello"}, {"name", "ann"}});
  const std::string game_id =
      send(c, {{"type", "new_game"}, {"size", 3}, {"seed", "7"}}).at(0)["game"]["id"];
  store.failing = true;
  json last;
  std::string dir;
  for (int i = 0; i < 5000; ++i) {
    dir = std::array{"up", "left", "down", "right"}[(i * 7 + i / 3) % 4];
    const std::vector<json> got = send(c, {{"type", "move"}, {"dir", dir}});
    ASSERT_EQ(got.size(), 1u);
    if (got[0]["type"] == "error") {
      EXPECT_EQ(got[0]["code"], "internal");
      break;
    }
    ASSERT_EQ(got[0]["state"], "playing") << "a game ended without being recorded";
    last = got[0];
  }
  EXPECT_FALSE(store.find_game(game_id).has_value());
  // The game is as last acknowledged: the same move, sent again once the store is back, ends
  // it the same way, and then it is recorded.
  store.failing = false;
  const std::vector<json> again =
      send(c, {{"type", "move"}, {"dir", dir}, {"at_move", last["moves"]}});
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0]["type"], "moved");
  EXPECT_EQ(again[0]["state"], "over");
  EXPECT_EQ(again[0]["moves"], last["moves"].get<int>() + 1);
  const std::optional<GameRecord> recorded = store.find_game(game_id);
  ASSERT_TRUE(recorded.has_value());
  EXPECT_EQ(recorded->score, again[0]["score"]);
}

TEST_F(DispatcherFixture, AResultIsRetriedWhileTheDatabaseIsUnreachableAndOnlyThenAnnounced) {
  Client c;
  send(c, {{"type", "hello"}, {"name", "ann"}});
  const std::string game_id =
      send(c, {{"type", "new_game"}, {"size", 3}, {"seed", "7"}}).at(0)["game"]["id"];
  store.unreachable = 3;
  json last;
  for (int i = 0; i < 5000 && last["state"] != "over"; ++i) {
    const std::vector<json> got =
        send(c, {{"type", "move"}, {"dir", std::array{"up", "left", "down", "right"}[i % 4]}});
    ASSERT_EQ(got.size(), 1u);
    ASSERT_EQ(got[0]["type"], "moved") << got[0].dump();
    last = got[0];
  }
  ASSERT_EQ(last["state"], "over");
  // The end was announced after three refused attempts and a fourth that committed.
  EXPECT_EQ(store.unreachable, 0);
  EXPECT_EQ(parts.metrics.store_retries_total, 3u);
  EXPECT_EQ(parts.metrics.store_available, 1);
  const std::optional<GameRecord> recorded = store.find_game(game_id);
  ASSERT_TRUE(recorded.has_value());
  EXPECT_EQ(recorded->score, last["score"]);
}

TEST_F(DispatcherFixture, NewGameKeepsTheOldGameWhenItsEndCannotBeRecorded) {
  Client c;
  send(c, {{"type", "hello"}, {"name", "ann"}});
  const std::string first = send(c, {{"type", "new_game"}}).at(0)["game"]["id"];
  store.failing = true;
  const std::vector<json> refused = send(c, {{"type", "new_game"}, {"rid", "n"}});
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0]["code"], "internal");
  EXPECT_EQ(refused[0]["rid"], "n");
  // Still the first game, still playing.
  const std::vector<json> moved = send(c, {{"type", "move"}, {"dir", "left"}});
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0]["game"], first);
  store.failing = false;
  const json second = send(c, {{"type", "new_game"}}).at(0);
  EXPECT_NE(second["game"]["id"], first);
  ASSERT_TRUE(store.find_game(first).has_value());
  EXPECT_EQ(store.find_game(first)->state, engine::GameState::resigned);
}

TEST_F(DispatcherFixture, ARaceResultIsAnnouncedOnlyOnceRecordedAndRetriedUntilItIs) {
  Client a, b;
  const std::string a_id = send(a, {{"type", "hello"}, {"name", "ann"}}).at(0)["player"]["id"];
  send(b, {{"type", "hello"}, {"name", "bob"}});
  EXPECT_EQ(send(a, {{"type", "quick_match"}}).at(0)["type"], "queued");
  send(b, {{"type", "quick_match"}});
  ASSERT_TRUE(wait_for(a, "race_start").has_value());
  store.failing = true;
  send(b, {{"type", "resign"}});
  const std::optional<json> error = wait_for(a, "error");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ((*error)["code"], "internal");
  EXPECT_EQ(a.out->take().size(), 0u);  // no race_over
  store.failing = false;                // the retry (after a second's backoff) succeeds
  const std::optional<json> over = wait_for(a, "race_over");
  ASSERT_TRUE(over.has_value());
  EXPECT_EQ((*over)["winner"], a_id);
  LeaderboardQuery everyone{.kind = BoardKind::rating};
  everyone.provisional = true;  // two fresh players: provisional
  const Leaderboard board = store.leaderboard(everyone);
  ASSERT_FALSE(board.entries.empty());
  EXPECT_EQ(board.entries[0].rating, (*over)["ratings"][a_id]["after"]);
}

TEST_F(DispatcherFixture, SpectatingLeavesTheQuickMatchQueue) {
  Client a, b, c;
  send(a, {{"type", "hello"}, {"name", "ann"}});
  send(b, {{"type", "hello"}, {"name", "bob"}});
  send(c, {{"type", "hello"}, {"name", "cid"}});
  const std::string code =
      send(a, {{"type", "create_room"}, {"public", true}}).at(0)["room"]["code"];
  EXPECT_EQ(send(b, {{"type", "quick_match"}}).at(0)["type"], "queued");
  EXPECT_EQ(send(b, {{"type", "spectate"}, {"code", code}}).at(0)["type"], "room");
  EXPECT_EQ(send(c, {{"type", "quick_match"}}).at(0)["type"], "queued");  // b is not waiting
}

// One message of each client message type, at the index of its alternative in
// protocol::ClientMessage. A new message type needs its line here, or the test below fails.
const std::array<json, std::variant_size_v<protocol::ClientMessage>> kOneOfEach = {
    json{{"type", "hello"}, {"name", "ann"}},
    json{{"type", "ping"}},
    json{{"type", "new_game"}, {"size", 4}},
    json{{"type", "move"}, {"dir", "left"}},
    json{{"type", "slide"}, {"cell", {0, 0}}},
    json{{"type", "undo"}},
    json{{"type", "resign"}},
    json{{"type", "create_room"}},
    json{{"type", "join_room"}, {"code", "ABCDEF"}},
    json{{"type", "leave_room"}},
    json{{"type", "ready"}, {"ready", true}},
    json{{"type", "quick_match"}},
    json{{"type", "cancel_match"}},
    json{{"type", "list_rooms"}},
    json{{"type", "spectate"}, {"code", "ABCDEF"}},
    json{{"type", "stop_spectating"}},
    json{{"type", "leaderboard"}, {"mode", "classic"}, {"size", 4}},
    json{{"type", "bot_record"}},
    json{{"type", "emote"}, {"emote", "gg"}},
    json{{"type", "register"}, {"password", "a fine secret"}},
    json{{"type", "login"}, {"name", "ann"}, {"password", "a fine secret"}},
    json{{"type", "sessions"}},
    json{{"type", "logout"}},
    json{{"type", "logout_all"}},
    json{{"type", "change_password"},
         {"old_password", "a fine secret"},
         {"password", "another one"}},
    json{{"type", "link_code"}},
    json{{"type", "rename"}, {"name", "anne"}},
    json{{"type", "friend_request"}, {"name", "nobody-here"}},
    json{{"type", "friends"}},
    json{{"type", "challenge"}, {"player", "0123abcd"}, {"mode", "classic"}, {"size", 4}},
    json{{"type", "challenge_accept"}, {"id", "0123456789abcdef"}},
    json{{"type", "rematch"}},
    json{{"type", "spectate_player"}, {"player", "0123abcd"}},
    json{{"type", "report"}, {"player", "0123abcd"}, {"reason", "name"}},
    json{{"type", "kick"}, {"player", "0123abcd"}},
    json{{"type", "create_tournament"}, {"format", "swiss"}},
    json{{"type", "join_tournament"}, {"code", "ABCDEF"}},
    json{{"type", "leave_tournament"}},
    json{{"type", "start_tournament"}},
    json{{"type", "spectate_tournament"}, {"code", "ABCDEF"}},
    json{{"type", "upgrade_to_bot"}, {"password", "a fine secret"}},
    json{{"type", "bot_token"}},
    json{{"type", "bot_tokens"}},
    json{{"type", "revoke_bot_token"}, {"id", "0123456789abcdef"}},
};

// Every type has a route (the visit would not compile otherwise), and every route answers:
// a message of each type, sent by a player who said hello, gets a reply carrying its rid.
TEST_F(DispatcherFixture, EveryClientMessageTypeIsRoutedAndAnswered) {
  Client c;
  send(c, {{"type", "hello"}, {"name", "ann"}});
  for (std::size_t i = 0; i < kOneOfEach.size(); ++i) {
    json message = kOneOfEach[i];
    ASSERT_TRUE(message.contains("type")) << "no sample of alternative " << i;
    const std::string rid = std::to_string(100 + i);
    message["rid"] = rid;
    const protocol::Decoded decoded = protocol::decode_client(message.dump());
    ASSERT_TRUE(decoded.ok()) << message.dump();
    ASSERT_EQ(decoded.message().index(), i) << message.dump() << " is another alternative";
    const std::vector<json> got = send(c, message);
    EXPECT_TRUE(std::any_of(got.begin(), got.end(),
                            [&](const json& m) { return m.value("rid", "") == rid; }))
        << message.dump() << " got no answer";
  }
}

}  // namespace
}  // namespace tilerace::server
