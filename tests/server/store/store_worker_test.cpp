// The StoreWorker's group commit: games and races that end while the storage thread is busy (or
// within the group interval of the last commit) are recorded in one transaction, each caller
// gets its own result or failure, and a group that fails costs no other one its record.
#include "server/store/store_worker.hpp"
#include "server/store/game_store.hpp"
#include "server/store/store.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "server/store/recorder.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/server/store/rated.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

// SQLite in memory that notes how games and races reach it (the size of each group, 1 when
// alone), fails the games named in bad, refuses the races named in lost as another node's, and
// fails the next `unreachable` calls as a lost database would.
class CountingStore final : public Recorder {
 public:
  CountingStore() : Recorder(std::make_unique<SqliteDialect>(":memory:")) {}

  std::vector<std::vector<Grant>> record_finished(std::span<const Finished> items) override {
    note(items.size());
    if (unreachable > 0) {
      --unreachable;
      throw StoreUnavailable("connection refused");
    }
    for (const Finished& item : items) {
      if (const auto* g = std::get_if<const GameRecord*>(&item); g && bad.contains((*g)->id)) {
        throw std::runtime_error("disk I/O error");
      }
      if (const auto* r = std::get_if<const RaceRecord*>(&item); r && lost.contains((*r)->id)) {
        throw RaceLost({"node-b", 2, "ws://b/ws"});
      }
    }
    return Recorder::record_finished(items);
  }

  std::vector<std::size_t> calls() {
    const std::lock_guard lock(mutex_);
    return calls_;
  }
  std::set<std::string> bad;
  std::set<std::string> lost;
  std::atomic<int> unreachable = 0;

 private:
  void note(std::size_t n) {
    const std::lock_guard lock(mutex_);
    calls_.push_back(n);
  }

  std::mutex mutex_;
  std::vector<std::size_t> calls_;
};

GameRecord game(const std::string& id, const std::string& player) {
  return {.id = id,
          .player_id = player,
          .config = {.seed = 7},
          .moves = "LU",
          .score = 20'000,
          .max_tile = 2048,  // earns its player the 2048 achievement
          .move_count = 2,
          .ranked = true,
          .started_at = 1'000,
          .ended_at = 2'000};
}

// p0 beats p1 in room ROOM.
RaceRecord race(const std::string& id) {
  GameRecord won = game(id + "-p0", "p0");
  GameRecord beaten = game(id + "-p1", "p1");
  won.room = beaten.room = "ROOM";
  return {.id = id,
          .room = "ROOM",
          .reason = "target",
          .winner = "p0",
          .result = "{}",
          .games = {won, beaten},
          .ratings = {rated("p0", 1500, 1516, true, false), rated("p1", 1500, 1484, false, true)},
          .ended_at = 2'000};
}

struct Outcome {
  bool finished = false;
  std::optional<std::vector<Grant>> granted;  // none: it threw
  std::string error;
};

class StoreWorkerTest : public ::testing::Test {
 protected:
  StoreWorkerTest() {
    for (int i = 0; i < 5; ++i) {
      const std::string id = "p" + std::to_string(i);
      store_.add_player({.id = id, .name = id, .name_key = id, .created_at = 1}, std::nullopt);
      games_.push_back(game("g" + std::to_string(i), id));
    }
  }

  // Records each game of games_ (or each of items) from a coroutine of its own while the
  // storage thread is held busy, then lets it go and runs until every one has its outcome.
  std::vector<Outcome> record_while_busy(StoreWorker& worker) {
    std::vector<Finished> items;
    for (const GameRecord& g : games_) items.emplace_back(&g);
    return record_while_busy(worker, items);
  }
  std::vector<Outcome> record_while_busy(StoreWorker& worker, const std::vector<Finished>& items) {
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::promise<void> holding;
    const StoreWorker::Job hold = [&holding, released](Store&) {
      holding.set_value();
      released.wait();
    };
    asio::co_spawn(ioc_, worker.run(hold), asio::detached);
    ioc_.poll();
    holding.get_future().wait();  // the storage thread is in hold
    std::vector<Outcome> outcomes(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      asio::co_spawn(ioc_, record(worker, items[i], outcomes[i]), asio::detached);
    }
    ioc_.poll();  // every one is waiting
    release.set_value();
    const auto all_finished = [&outcomes] {
      for (const Outcome& o : outcomes) {
        if (!o.finished) return false;
      }
      return true;
    };
    run_until(all_finished);
    EXPECT_TRUE(all_finished());
    return outcomes;
  }

  // Records g and runs until it has its outcome.
  Outcome record_now(StoreWorker& worker, const GameRecord& g) {
    Outcome out;
    asio::co_spawn(ioc_, record(worker, &g, out), asio::detached);
    run_until([&out] { return out.finished; });
    return out;
  }

  // Runs ioc_ until done() holds, for at most 20 s.
  template <class Done>
  void run_until(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!done() && std::chrono::steady_clock::now() < deadline) ioc_.run_one_for(100ms);
  }

  static asio::awaitable<void> record(StoreWorker& worker, Finished item, Outcome& out) {
    try {
      if (const auto* g = std::get_if<const GameRecord*>(&item)) {
        out.granted = co_await worker.record_game(**g);
      } else {
        out.granted = co_await worker.record_race(*std::get<const RaceRecord*>(item));
      }
    } catch (const RaceLost& e) {
      out.error = "lost to " + e.owner().node;
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    out.finished = true;
  }

  // (A job of the very type: one of another would be converted to a temporary that the
  // coroutine outlives.)
  static asio::awaitable<void> run(StoreWorker& worker, const StoreWorker::Job& job, bool& done) {
    co_await worker.run(job);
    done = true;
  }

  asio::io_context ioc_;
  // Store jobs resume on ioc_ from the worker's thread: ioc_ must not run out of work.
  asio::executor_work_guard<asio::io_context::executor_type> busy_ = asio::make_work_guard(ioc_);
  CountingStore store_;
  Metrics metrics_;
  std::vector<GameRecord> games_;
};

TEST_F(StoreWorkerTest, GamesThatEndWhileTheStoreIsBusyAreCommittedTogether) {
  StoreWorker worker(store_, metrics_, 0ms);
  const std::vector<Outcome> outcomes = record_while_busy(worker);
  EXPECT_EQ(store_.calls(), std::vector<std::size_t>{5});  // one transaction
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    ASSERT_TRUE(outcomes[i].granted.has_value()) << outcomes[i].error;
    EXPECT_FALSE(outcomes[i].granted->empty()) << "each game earns its own player a grant";
    EXPECT_TRUE(store_.find_game(games_[i].id).has_value());
  }
}

TEST_F(StoreWorkerTest, AGameThatFailsInAGroupFailsAloneAndTheOthersAreRecorded) {
  store_.bad = {"g2"};
  StoreWorker worker(store_, metrics_, 0ms);
  const std::vector<Outcome> outcomes = record_while_busy(worker);
  // The group failed as a whole, then each game was recorded alone.
  EXPECT_EQ(store_.calls(), (std::vector<std::size_t>{5, 1, 1, 1, 1, 1}));
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (i == 2) {
      EXPECT_FALSE(outcomes[i].granted.has_value());
      EXPECT_EQ(outcomes[i].error, "disk I/O error");
      EXPECT_FALSE(store_.find_game("g2").has_value());
    } else {
      ASSERT_TRUE(outcomes[i].granted.has_value()) << i << ": " << outcomes[i].error;
      EXPECT_TRUE(store_.find_game(games_[i].id).has_value());
    }
  }
}

TEST_F(StoreWorkerTest, RacesAreCommittedWithTheGamesAndARaceLostElsewhereFailsAlone) {
  store_.lost = {"race-b"};
  const RaceRecord a = race("race-a");
  const RaceRecord b = race("race-b");
  StoreWorker worker(store_, metrics_, 0ms);
  const std::vector<Outcome> outcomes = record_while_busy(worker, {&games_[2], &a, &b, &games_[3]});
  // The group failed as a whole (race-b), then each was recorded alone.
  EXPECT_EQ(store_.calls(), (std::vector<std::size_t>{4, 1, 1, 1, 1}));
  ASSERT_TRUE(outcomes[1].granted.has_value()) << outcomes[1].error;
  EXPECT_FALSE(outcomes[1].granted->empty()) << "race-a's games earn its racers grants";
  EXPECT_EQ(classic4_rating(*store_.find_player("p0")), 1516);  // race-a's, once
  EXPECT_FALSE(outcomes[2].granted.has_value());
  EXPECT_EQ(outcomes[2].error, "lost to node-b");  // the caller learns who has it now
  EXPECT_FALSE(store_.find_game("race-b-p0").has_value());
  for (const std::size_t i : {std::size_t{0}, std::size_t{3}}) {
    ASSERT_TRUE(outcomes[i].granted.has_value()) << i << ": " << outcomes[i].error;
  }
  EXPECT_TRUE(store_.find_game("g2").has_value());
  EXPECT_TRUE(store_.find_game("g3").has_value());

  // Without the loss, the games and the race are one transaction.
  store_.lost.clear();
  const RaceRecord c = race("race-c");
  const std::vector<Outcome> together = record_while_busy(worker, {&c, &games_[4]});
  EXPECT_EQ(store_.calls().back(), 2u);
  for (const Outcome& o : together) ASSERT_TRUE(o.granted.has_value()) << o.error;
  EXPECT_TRUE(store_.find_game("race-c-p1").has_value());
  EXPECT_EQ(store_.find_player("p1")->losses, 2);  // race-a's and race-c's
}

TEST_F(StoreWorkerTest, AGameThatFindsTheDatabaseGoneIsRetriedAndRecorded) {
  // The group, then the first game alone, find the database gone; the first game's own job
  // is retried after its backoff and records it.
  store_.unreachable = 2;
  StoreWorker worker(store_, metrics_, 0ms);
  const std::vector<Outcome> outcomes = record_while_busy(worker);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    ASSERT_TRUE(outcomes[i].granted.has_value()) << i << ": " << outcomes[i].error;
    EXPECT_TRUE(store_.find_game(games_[i].id).has_value());
  }
  EXPECT_EQ(metrics_.store_retries_total.load(), 1u);
  EXPECT_EQ(store_.calls(), (std::vector<std::size_t>{5, 1, 1, 1, 1, 1, 1}));
}

TEST_F(StoreWorkerTest, AGameEndingWithinTheIntervalOfTheLastCommitWaitsForTheNextOnes) {
  // An interval far longer than a commit under load: the second game, ending right after the
  // first was committed, waits for the third, which ends a little later.
  StoreWorker worker(store_, metrics_, 3s);
  const Outcome first = record_now(worker, games_[0]);
  ASSERT_TRUE(first.granted.has_value()) << first.error;
  EXPECT_EQ(store_.calls(), std::vector<std::size_t>{1});  // nothing before it: no wait

  Outcome second;
  Outcome third;
  asio::co_spawn(ioc_, record(worker, &games_[1], second), asio::detached);
  asio::steady_timer later(ioc_, 200ms);  // the third game ends 200 ms after the second
  later.async_wait([&](boost::system::error_code) {
    asio::co_spawn(ioc_, record(worker, &games_[2], third), asio::detached);
  });
  run_until([&] { return second.finished && third.finished; });
  ASSERT_TRUE(second.granted.has_value()) << second.error;
  ASSERT_TRUE(third.granted.has_value()) << third.error;
  EXPECT_EQ(store_.calls(), (std::vector<std::size_t>{1, 2}));
}

TEST_F(StoreWorkerTest, AGameWaitingOutTheIntervalHoldsNoThread) {
  // While the second game waits out the interval, the storage thread runs other work.
  StoreWorker worker(store_, metrics_, 3s);
  const Outcome first = record_now(worker, games_[0]);
  ASSERT_TRUE(first.granted.has_value()) << first.error;

  Outcome second;
  asio::co_spawn(ioc_, record(worker, &games_[1], second), asio::detached);
  bool found = false;
  bool looked = false;
  const StoreWorker::Job look = [&found](Store& s) { found = s.find_game("g0").has_value(); };
  asio::co_spawn(ioc_, run(worker, look, looked), asio::detached);
  run_until([&looked] { return looked; });
  EXPECT_TRUE(looked);
  EXPECT_TRUE(found);
  EXPECT_FALSE(second.finished) << "the lookup waited for the second game's interval";
  run_until([&second] { return second.finished; });
  ASSERT_TRUE(second.granted.has_value()) << second.error;
  EXPECT_EQ(store_.calls(), (std::vector<std::size_t>{1, 1}));
}

}  // namespace
}  // namespace tilerace::server
