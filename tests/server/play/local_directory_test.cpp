#include "server/play/local_directory.hpp"

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "server/store/sqlite_dialect.hpp"
#include "tests/server/fake_participant.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using testing::FakeParticipant;
using Outcome = QuickMatchResult::Outcome;

struct LocalDirectoryFixture : ::testing::Test {
  asio::io_context ioc;
  SqliteStore store{":memory:"};
  Metrics metrics;
  StoreWorker worker{store, metrics};
  RoomRegistry rooms{RoomServices{ioc.get_executor(), &worker, &metrics, {3, 60}, {}}};
  Matchmaker matchmaker;
  LocalDirectory directory{rooms, matchmaker};
  std::shared_ptr<FakeParticipant> out = std::make_shared<FakeParticipant>();

  ~LocalDirectoryFixture() override {
    rooms.stop();
    worker.join();
  }
  std::shared_ptr<Player> player(const std::string& id) {
    auto p = std::make_shared<Player>(id, id);
    p->connection = out;
    return p;
  }
  // Runs an awaitable of the directory to its end (they finish without waiting on anything).
  template <class T>
  T run(asio::awaitable<T> work) {
    std::optional<T> result;
    asio::co_spawn(
        ioc, [&]() -> asio::awaitable<void> { result = co_await std::move(work); }, asio::detached);
    ioc.restart();
    ioc.run();
    return std::move(result).value();
  }
};

TEST_F(LocalDirectoryFixture, EveryRoomIsHereAndCodesAreTheRegistrys) {
  EXPECT_TRUE(directory.available());
  EXPECT_EQ(run(directory.claim_code()), "");
  EXPECT_EQ(run(directory.locate("ABCDEF")), std::nullopt);
  EXPECT_TRUE(directory.remote_rooms().empty());
}

TEST_F(LocalDirectoryFixture, QuickMatchQueuesThenPairsAndUnqueueTakesAPlayerOut) {
  const auto ann = player("ann"), bob = player("bob"), cid = player("cid");
  protocol::RoomOptions options;
  EXPECT_EQ(run(directory.quick_match(ann, options, {})).outcome, Outcome::queued);
  const QuickMatchResult paired = run(directory.quick_match(bob, options, {}));
  ASSERT_EQ(paired.outcome, Outcome::paired);
  ASSERT_NE(paired.room, nullptr);
  EXPECT_EQ(ann->room.lock(), paired.room);
  EXPECT_EQ(bob->room.lock(), paired.room);
  EXPECT_EQ(rooms.find(paired.room->code()), paired.room);

  EXPECT_EQ(run(directory.quick_match(cid, options, {})).outcome, Outcome::queued);
  EXPECT_TRUE(run(directory.unqueue(cid)));
  EXPECT_FALSE(run(directory.unqueue(cid)));  // not queued any more
  // Busy players are not paired: ann is in a room, so cid is queued again.
  EXPECT_EQ(run(directory.quick_match(cid, options, {})).outcome, Outcome::queued);
  directory.leave_queue(*cid);
  EXPECT_FALSE(run(directory.unqueue(cid)));
}

}  // namespace
}  // namespace tilerace::server
