// The StoreWorker's groups: jobs that waited while the one storage thread was busy commit
// together, each awaiter resuming only after that commit, and a job that fails does so alone.
// And SQLite's group underneath: one transaction, each session a savepoint of it.
#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <string>
#include <vector>

#include "server/store/sqlite_dialect.hpp"
#include "server/store/store_worker.hpp"
#include "tests/temp_dir.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

// A SQLite store that counts its groups and their sizes.
class CountingStore final : public Recorder {
 public:
  explicit CountingStore(const std::filesystem::path& path)
      : Recorder(std::make_unique<SqliteDialect>(path)) {}
  void group(const std::function<void()>& calls) override {
    ++groups;
    Recorder::group(calls);
  }
  std::atomic<int> groups{0};
};

AuditEntry entry(const std::string& target) {
  return {0, 1'700'000'000'000, "operator", "note", target, "test", ""};
}

class StoreWorkerTest : public ::testing::Test {
 protected:
  std::filesystem::path file() const { return dir_.path() / "tilerace.db"; }
  // Rows of the audit log with target, read through a connection of the test's own: what is
  // committed.
  int committed(const std::string& target) const {
    SQLite::Database db(file().string());
    SQLite::Statement q(db, "SELECT count(*) FROM audit_log WHERE target = ?");
    q.bind(1, target);
    q.executeStep();
    return q.getColumn(0).getInt();
  }
  // Holds the storage thread in a job until release is set; returns once it is held.
  void hold_the_store_thread() {
    asio::co_spawn(
        io_, [this]() -> asio::awaitable<void> { co_await worker_.run(hold_); }, asio::detached);
    io_.poll();
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (!held_ && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    ASSERT_TRUE(held_);
  }
  // Runs the test's io_context until done jobs have resumed (or a deadline passes).
  void run_until(const std::atomic<int>& done, int jobs) {
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (done < jobs && std::chrono::steady_clock::now() < until) io_.run_for(10ms);
  }

  testing::TempDir dir_;
  CountingStore store_{file()};
  Metrics metrics_;
  asio::io_context io_;
  std::promise<void> release_;
  std::atomic<bool> held_{false};
  const StoreWorker::Job hold_ = [this](Store&) {
    held_ = true;
    release_.get_future().wait();
  };
  StoreWorker worker_{store_, metrics_};  // last: joined before the rest goes
};

TEST_F(StoreWorkerTest, JobsThatWaitedForABusyStoreCommitAsOneGroupBeforeAnyAwaiterResumes) {
  hold_the_store_thread();
  constexpr int kJobs = 5;
  std::vector<StoreWorker::Job> jobs;
  for (int i = 0; i < kJobs; ++i) {
    jobs.push_back([i](Store& s) { s.audit(entry("t" + std::to_string(i))); });
  }
  std::atomic<int> done{0};
  std::vector<int> seen_on_resume(kJobs, -1);
  for (int i = 0; i < kJobs; ++i) {
    asio::co_spawn(
        io_,
        [&, i]() -> asio::awaitable<void> {
          co_await worker_.run(jobs[i]);
          // Resumed: what the job wrote is committed, for everyone.
          seen_on_resume[i] = committed("t" + std::to_string(i));
          ++done;
        },
        asio::detached);
  }
  io_.poll();  // every job is queued behind the held one
  release_.set_value();
  run_until(done, kJobs);
  ASSERT_EQ(done, kJobs);
  EXPECT_EQ(store_.groups, 1);
  for (int i = 0; i < kJobs; ++i) EXPECT_EQ(seen_on_resume[i], 1) << i;
}

TEST_F(StoreWorkerTest, AJobThatThrowsInAGroupFailsAloneAndTheOthersAreCommitted) {
  hold_the_store_thread();
  const StoreWorker::Job before = [](Store& s) { s.audit(entry("before")); };
  const StoreWorker::Job failing = [](Store&) { throw std::runtime_error("this job fails"); };
  const StoreWorker::Job after = [](Store& s) { s.audit(entry("after")); };
  std::atomic<int> done{0};
  std::string failure;
  for (const StoreWorker::Job* job : {&before, &failing, &after}) {
    asio::co_spawn(
        io_,
        [&, job]() -> asio::awaitable<void> {
          try {
            co_await worker_.run(*job);
          } catch (const std::runtime_error& e) {
            failure = e.what();
          }
          ++done;
        },
        asio::detached);
  }
  io_.poll();
  release_.set_value();
  run_until(done, 3);
  ASSERT_EQ(done, 3);
  EXPECT_EQ(store_.groups, 1);
  EXPECT_EQ(failure, "this job fails");
  EXPECT_EQ(committed("before"), 1);
  EXPECT_EQ(committed("after"), 1);
}

TEST_F(StoreWorkerTest, AJobAloneCommitsOnItsOwn) {
  const StoreWorker::Job job = [](Store& s) { s.audit(entry("alone")); };
  std::atomic<int> done{0};
  asio::co_spawn(
      io_,
      [&]() -> asio::awaitable<void> {
        co_await worker_.run(job);
        ++done;
      },
      asio::detached);
  run_until(done, 1);
  ASSERT_EQ(done, 1);
  EXPECT_EQ(store_.groups, 0);
  EXPECT_EQ(committed("alone"), 1);
  release_.set_value();
}

TEST(SqliteGroup, ASessionThatThrowsIsUndoneAloneAndNothingIsCommittedBeforeTheGroupEnds) {
  testing::TempDir dir;
  const std::filesystem::path file = dir.path() / "tilerace.db";
  SqliteDialect dialect(file);
  const auto write = [&](const std::string& target) {
    dialect.session(SqlTx::write, [&](SqlSession& sql) {
      sql(Sql::insert_audit, std::int64_t{1}, "operator", "note", target, "", "");
    });
  };
  const auto rows = [&] {
    SQLite::Database db(file.string());
    return db.execAndGet("SELECT group_concat(target, ',') FROM audit_log").getString();
  };
  std::string inside;
  dialect.group([&] {
    write("a");
    EXPECT_THROW(dialect.session(SqlTx::write,
                                 [&](SqlSession& sql) {
                                   sql(Sql::insert_audit, std::int64_t{1}, "operator", "note", "b",
                                       "", "");
                                   throw std::runtime_error("undone");
                                 }),
                 std::runtime_error);
    write("c");
    inside = rows();  // another connection sees nothing of the group yet
  });
  EXPECT_EQ(inside, "");
  EXPECT_EQ(rows(), "a,c");
}

}  // namespace
}  // namespace tilerace::server
