#include "server/game/room.hpp"

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/game/move_journal.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/server/fake_participant.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using testing::FakeParticipant;
using json = nlohmann::json;

// A move journal whose appends wait until the test lets them through; the test may make the
// next ones fail (Redis away) or be refused (a later owner).
class GatedJournal final : public MoveJournal {
 public:
  explicit GatedJournal(asio::io_context& ioc)
      : gate_(ioc, asio::steady_timer::time_point::max()) {}

  asio::awaitable<std::optional<RaceOwner>> append(MoveJournalEntry entry) override {
    appended.push_back(std::move(entry));
    if (failing) throw std::runtime_error("redis away");
    if (refused_by) co_return refused_by;
    boost::system::error_code ec;
    co_await gate_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    ++through;
    co_return std::nullopt;
  }
  void forget(const std::string&) override {}
  std::string url() const override { return "ws://here/ws"; }
  void open() { gate_.cancel(); }

  std::vector<MoveJournalEntry> appended;
  int through = 0;
  bool failing = false;
  std::optional<RaceOwner> refused_by;

 private:
  asio::steady_timer gate_;
};

struct Member {
  explicit Member(std::string id)
      : player(std::make_shared<Player>(id, id)), out(std::make_shared<FakeParticipant>()) {
    player->connection = out;
  }
  std::shared_ptr<Player> player;
  std::shared_ptr<FakeParticipant> out;
};

struct RoomFixture : ::testing::Test {
  asio::io_context ioc;
  SqliteStore store{":memory:"};
  Metrics metrics;
  StoreWorker worker{store, metrics};
  GatedJournal journal{ioc};
  Member a{"a"}, b{"b"}, c{"c"};

  ~RoomFixture() override { worker.join(); }

  RoomServices services(MoveJournal* moves) {
    RaceSettings settings{.countdown = 0, .grace = 60, .journal_moves = moves != nullptr};
    return {ioc.get_executor(),        &worker, &metrics, settings,
            [](const std::string&) {}, nullptr, 3.0,      moves};
  }
  // a and b in a two-seat room, ready: the race runs (no countdown).
  std::shared_ptr<Room> racing(MoveJournal* moves) {
    protocol::RoomOptions options;
    options.max_players = 2;
    auto room = Room::make("ROOM23", options, services(moves));
    room->join(a.player, a.out, {});
    room->join(b.player, b.out, {});
    room->set_ready(*a.player, true, *a.out, {});
    room->set_ready(*b.player, true, *b.out, {});
    EXPECT_EQ(b.out->take_types().back(), "race_start");
    a.out->take();
    return room;
  }
  // Runs the context until done() or 5 s.
  template <class Done>
  bool run_until(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      ioc.restart();
      ioc.run_one_for(20ms);
    }
    return done();
  }
  // Plays moves for a until one changes the board; returns what that play handed back.
  std::optional<asio::awaitable<void>> changing_move(Room& room) {
    for (int d = 0; d < 4; ++d) {
      auto rest =
          room.play(*a.player, a.out, protocol::Move{static_cast<engine::Direction>(d), {}}, {});
      if (rest) return rest;
      a.out->take();  // answered at once: it changed nothing, so nothing was journaled
    }
    return std::nullopt;
  }
};

TEST_F(RoomFixture, WithoutAJournalAMoveIsAnsweredAtOnce) {
  const auto room = racing(nullptr);
  EXPECT_FALSE(room->play(*a.player, a.out, protocol::Move{engine::Direction::left, {}}, {}));
  EXPECT_EQ(a.out->take_types(), std::vector<std::string>{"moved"});
  room->stop();
}

// The shell's fixed order: the move journal has the move before the mover hears of it, while
// everyone else sees the race_update at once.
TEST_F(RoomFixture, AJournaledMovesAnswerWaitsForTheJournalOthersSeeItAtOnce) {
  const auto room = racing(&journal);
  auto rest = changing_move(*room);
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(b.out->take_types(), std::vector<std::string>{"race_update"});
  bool answered = false;
  asio::co_spawn(ioc, std::move(*rest), [&](std::exception_ptr) { answered = true; });
  ASSERT_TRUE(run_until([&] { return !journal.appended.empty(); }));  // the young race first
  EXPECT_EQ(journal.appended[0].position, 0u);
  EXPECT_FALSE(journal.appended[0].moves.empty());
  EXPECT_TRUE(a.out->take().empty()) << "answered before the journal had the move";
  EXPECT_EQ(store.active_races().size(), 1u);  // a young race is in the store's journal first
  journal.open();
  ASSERT_TRUE(run_until([&] { return answered; }));
  EXPECT_EQ(journal.through, 1);
  EXPECT_EQ(a.out->take_types(), std::vector<std::string>{"moved"});
  room->stop();
}

// The move journal could not take a move: the store's journal has it before it is answered,
// and answers still go out in the order the moves were played.
TEST_F(RoomFixture, AMoveTheJournalMissesIsAnsweredOnceTheStoreHasItAndInOrder) {
  const auto room = racing(&journal);
  auto first = changing_move(*room);
  ASSERT_TRUE(first.has_value());
  int answered = 0;
  asio::co_spawn(ioc, std::move(*first), [&](std::exception_ptr) { ++answered; });
  ASSERT_TRUE(run_until([&] { return journal.appended.size() == 1; }));  // held at the gate
  journal.failing = true;
  auto second = changing_move(*room);
  ASSERT_TRUE(second.has_value());
  asio::co_spawn(ioc, std::move(*second), [&](std::exception_ptr) { ++answered; });
  ASSERT_TRUE(run_until([&] { return answered == 1; }));
  EXPECT_EQ(store.active_races().at(0).racers.at(0).moves.size(), 2u) << "in the store first";
  EXPECT_TRUE(a.out->take().empty()) << "the second answer went out before the first";
  EXPECT_EQ(store.active_races().at(0).epoch, 0) << "SQLite keeps no epochs";
  journal.open();
  ASSERT_TRUE(run_until([&] { return answered == 2; }));
  const std::vector<json> answers = a.out->take();
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0]["moves"], 1);
  EXPECT_EQ(answers[1]["moves"], 2);
  EXPECT_EQ(metrics.unjournaled_moves_total.load(), 1u);
  room->stop();
}

// The move journal says a later owner has the race (a node adopted it while this one was cut
// off): the move is never answered, everyone is sent to the owner, and the room closes.
TEST_F(RoomFixture, AMoveTheJournalRefusesHandsTheRaceToItsOwner) {
  const auto room = racing(&journal);
  journal.refused_by = RaceOwner{"b", 2, "ws://b/ws"};
  auto rest = changing_move(*room);
  ASSERT_TRUE(rest.has_value());
  b.out->take();  // the race_update
  bool done = false;
  asio::co_spawn(ioc, std::move(*rest), [&](std::exception_ptr) { done = true; });
  ASSERT_TRUE(run_until([&] { return done; }));
  for (auto* out : {a.out.get(), b.out.get()}) {
    const std::vector<json> got = out->take();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0]["type"], "redirect");
    EXPECT_EQ(got[0]["url"], "ws://b/ws");
    EXPECT_EQ(got[0]["reason"], "resume");
  }
  EXPECT_TRUE(a.player->room.expired());
  EXPECT_EQ(metrics.races_handed_over_total.load(), 1u);
  EXPECT_FALSE(room->active_record().has_value());
  room->stop();
}

TEST_F(RoomFixture, ARefusedJoinLeavesThePlayerFreeAndAMemberCannotJoinElsewhere) {
  const auto room = racing(nullptr);
  room->join(c.player, c.out, {});
  EXPECT_EQ(c.out->take().back()["code"], "race_running");
  EXPECT_TRUE(c.player->room.expired());
  EXPECT_EQ(a.player->room.lock(), room);

  auto other = Room::make("OTHER2", {}, services(nullptr));
  other->join(a.player, a.out, {});
  EXPECT_EQ(a.out->take().back()["code"], "already_in_room");
  EXPECT_EQ(a.player->room.lock(), room);
  room->leave(*a.player, *a.out, {});  // a forfeit: out of the room
  EXPECT_TRUE(a.player->room.expired());
  room->stop();
  other->stop();
}

}  // namespace
}  // namespace tilerace::server
