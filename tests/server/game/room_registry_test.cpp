#include "server/game/room_registry.hpp"

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include <memory>

#include "server/store/sqlite_dialect.hpp"
#include "tests/server/fake_participant.hpp"

namespace tilerace::server {
namespace {

using namespace std::chrono_literals;
using testing::FakeParticipant;

struct RegistryFixture : ::testing::Test {
  boost::asio::io_context ioc;
  SqliteStore store{":memory:"};
  Metrics metrics;
  StoreWorker worker{store, metrics};
  RoomRegistry rooms{RoomServices{ioc.get_executor(), &worker, &metrics, {3, 60}, {}}};
  std::shared_ptr<FakeParticipant> out = std::make_shared<FakeParticipant>();

  ~RegistryFixture() override {
    rooms.stop();
    worker.join();
  }

  std::shared_ptr<Player> player(const std::string& id) {
    auto p = std::make_shared<Player>(id, id);
    p->connection = out;
    return p;
  }

  // A journaled race of ann and bob, a minute to go: restored, both are away with a grace.
  ActiveRaceRecord race() const {
    return {"race1",
            "ABCDEF",
            {.time_limit = 120},
            7,
            "ann",
            0,
            60'000,
            {{"ann", "g1", "LR", engine::GameState::playing, false},
             {"bob", "g2", "UD", engine::GameState::playing, false}}};
  }

  // Whether a timer is left waiting on the rooms' context.
  bool timer_armed() {
    ioc.restart();
    ioc.run_for(200ms);
    return !ioc.stopped();
  }
};

// The control: a racer away from a waiting room keeps a grace timer armed.
TEST_F(RegistryFixture, AnAwayRacerArmsTheRoomsTimer) {
  const auto ann = player("ann");
  const auto room = rooms.create({});
  room->join(ann, out, {});
  room->disconnected(*ann);
  EXPECT_TRUE(timer_armed());
  EXPECT_EQ(rooms.find(room->code()), room);
}

// Shutdown stops the rooms there are and every room that comes after: one created by a
// message that raced SIGTERM, or restored by an adoption still in flight, arms no timer that
// would hold the shutdown up for a grace or a time limit.
TEST_F(RegistryFixture, RoomsCreatedOrRestoredAfterShutdownArmNoTimer) {
  rooms.stop();
  const auto ann = player("ann");
  const auto room = rooms.create({});
  room->join(ann, out, {});
  room->disconnected(*ann);
  EXPECT_FALSE(timer_armed());

  ASSERT_TRUE(rooms.restore(race(), {player("ann"), player("bob")}));
  ASSERT_NE(rooms.find("ABCDEF"), nullptr);
  EXPECT_FALSE(timer_armed());
}

TEST_F(RegistryFixture, ARestoredRaceRunsUnderItsCodeWithItsRacersAway) {
  ASSERT_TRUE(rooms.restore(race(), {player("ann"), player("bob")}));
  const auto room = rooms.find("ABCDEF");
  ASSERT_NE(room, nullptr);
  const protocol::RoomView view = room->summary();
  EXPECT_EQ(view.state, "racing");
  ASSERT_EQ(view.players.size(), 2u);
  EXPECT_FALSE(view.players[0].connected);
  EXPECT_TRUE(timer_armed());  // the graces and the time limit
  EXPECT_EQ(rooms.codes(), std::vector<std::string>{"ABCDEF"});
  const auto journal = rooms.active_races();
  ASSERT_EQ(journal.size(), 1u);
  EXPECT_EQ(journal[0].racers[0].moves, "LR");
}

// A restored race with the computer in it needs a server that runs bots.
TEST_F(RegistryFixture, ARaceWithTheComputerIsNotRestoredWithoutBots) {
  ActiveRaceRecord record = race();
  record.racers[1].player_id = "bot-medium";
  EXPECT_FALSE(rooms.restore(record, {player("ann"), nullptr}));
  EXPECT_EQ(rooms.find("ABCDEF"), nullptr);
}

}  // namespace
}  // namespace tilerace::server
