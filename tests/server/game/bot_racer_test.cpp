#include "server/game/bot_racer.hpp"

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "server/store/sqlite_dialect.hpp"
#include "tests/server/fake_participant.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using testing::FakeParticipant;

TEST(BotPlayerId, NamesTheStrengthAndReadsBack) {
  EXPECT_EQ(bot_player_id(engine::BotStrength::hard), "bot-hard");
  EXPECT_EQ(bot_player_name(engine::BotStrength::easy), "Computer (easy)");
  EXPECT_EQ(bot_of_player_id("bot-medium"), engine::BotStrength::medium);
  EXPECT_EQ(bot_of_player_id("bot-nobody"), std::nullopt);
  EXPECT_EQ(bot_of_player_id("ann"), std::nullopt);
}

struct BotRacerFixture : ::testing::Test {
  asio::io_context ioc;
  SqliteStore store{":memory:"};
  Metrics metrics;
  StoreWorker worker{store, metrics};
  BotPool pool{1};
  std::shared_ptr<Player> ann = std::make_shared<Player>("ann", "ann");
  std::shared_ptr<FakeParticipant> out = std::make_shared<FakeParticipant>();

  BotRacerFixture() { ann->connection = out; }
  ~BotRacerFixture() override {
    pool.stop();
    worker.join();
  }
  RoomServices services(BotPool* bots) {
    return {
        ioc.get_executor(),           &worker, &metrics, RaceSettings{.countdown = 0, .grace = 60},
        [](const std::string&) {},    bots,
        /*bot_moves_per_second=*/50.0};
  }
};

TEST_F(BotRacerFixture, NoBotsNoSeat) {
  const auto room = Room::make("ROOM23", {}, services(nullptr));
  EXPECT_FALSE(BotRacer::seat(room, engine::BotStrength::easy));
  EXPECT_TRUE(room->summary().players.empty());
}

// The computer joins ready, and once the race runs it plays on its own: its moves reach the
// other racer as race_updates, played through the room like anyone's.
TEST_F(BotRacerFixture, TheComputerJoinsReadyAndPlaysThroughTheRoom) {
  const auto room = Room::make("ROOM23", {}, services(&pool));
  room->join(ann, out, {});
  ASSERT_TRUE(BotRacer::seat(room, engine::BotStrength::easy));
  const protocol::RoomView view = room->summary();
  ASSERT_EQ(view.players.size(), 2u);
  EXPECT_EQ(view.players[1].id, "bot-easy");
  EXPECT_TRUE(view.players[1].ready);
  EXPECT_EQ(view.host, "ann");  // the computer is never host
  room->set_ready(*ann, true, *out, {});
  bool bot_moved = false;
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!bot_moved && std::chrono::steady_clock::now() < deadline) {
    ioc.run_one_for(50ms);
    for (const auto& m : out->take()) {
      if (m["type"] == "race_update" && m["player"] == "bot-easy") bot_moved = true;
    }
  }
  EXPECT_TRUE(bot_moved) << "the computer made no move in 10 s";
  room->stop();
  pool.stop();
  ioc.poll();
}

}  // namespace
}  // namespace tilerace::server
