#pragma once
// The storage threads: every Store call runs here, never on a network thread. A coroutine
// co_awaits run(job) and resumes on its own executor once the job has finished. The store
// says how many jobs may run at once (Store::concurrency: SQLite one, PostgreSQL its pool).
//
// A job that throws StoreUnavailable (the database went away; nothing was changed) is run
// again with backoff, 100 ms doubling to 2 s, for at most kRetryFor; meanwhile the awaiting
// coroutine waits on its own executor, holding no thread. At most kMaxWaiting jobs wait so at
// once; past that, or past kRetryFor, the job fails with the StoreUnavailable and the caller
// answers as for any store failure (server/store.hpp). Metrics::store_available says whether
// the last job reached the database.
//
// Group commit (record_game and record_race, one storage thread): finished games and races are
// committed together — every one waiting when the thread comes to one, in one transaction; and
// one that comes within the group interval of the last commit first waits out the rest of it
// on its caller's executor (the storage thread meanwhile runs other jobs), gathering what ends
// meanwhile. What one commit's durable sync costs is then shared (docs/performance.md,
// "Closing the solo gap", "Closing the race gap"); under load an end is announced at most one
// interval later, and one that comes longer than that after the last commit is not held.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

#include "server/base/metrics.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

class Store;
class StoreUnavailable;

class StoreWorker {
 public:
  static constexpr std::chrono::seconds kRetryFor{30};
  static constexpr int kMaxWaiting = 10000;

  static constexpr std::chrono::milliseconds kGroupInterval{30};

  // group_interval: group commit's (0: only the games already waiting are grouped).
  StoreWorker(Store& store, Metrics& metrics,
              std::chrono::steady_clock::duration group_interval = kGroupInterval);
  ~StoreWorker() { pool_.join(); }

  // A job on the surfaces of the domains it works on (server/store/<domain>_store.hpp, those
  // Store derives from), or on the whole Store: a caller includes only the domains it uses.
  template <class... Surfaces>
  using JobOn = std::function<void(Surfaces&...)>;
  using Job = JobOn<Store>;

  // Runs job on a storage thread; rethrows what it throws (after the retries above). job must
  // outlive the await. Callers pass a named job, never a temporary: GCC 12 mishandles
  // temporaries that live across a co_await (it destroyed a std::function twice here), so
  // none may cross one.
  template <class... Surfaces>
  boost::asio::awaitable<void> run(const JobOn<Surfaces...>& job) {
    return run_on(&job, [](const void* erased, Store& store) {
      (*static_cast<const JobOn<Surfaces...>*>(erased))(surface<Surfaces>(store)...);
    });
  }

  // Store::record_game and Store::record_race through run(), grouped with other games and
  // races into one transaction when the store runs one job at a time (above). What each
  // returns and throws is its own: a group that fails is recorded again one by one, so one's
  // failure (RaceLost among them) is no other's. The record must outlive the await.
  boost::asio::awaitable<std::vector<Grant>> record_game(const GameRecord& game) {
    return record(&game);
  }
  boost::asio::awaitable<std::vector<Grant>> record_race(const RaceRecord& race) {
    return record(&race);
  }

  // Asks the store once whether the database answers (Store::ping), for Metrics and /healthz;
  // never throws, never retries.
  boost::asio::awaitable<void> probe();

  // Finishes every job submitted so far and stops the threads.
  void join() { pool_.join(); }

 private:
  // A game or race waiting to be recorded, owned by its record(). Touched on the storage
  // thread only, but for entering pending_.
  struct Pending {
    Finished item;
    std::vector<Grant> granted;
    std::exception_ptr error;  // what recording it alone threw, for its own job to throw
    bool done = false;
  };

  // store as one of its surfaces (store_worker.cpp has one for each).
  template <class Surface>
  static Surface& surface(Store& store);
  // Runs call(job, store) on a storage thread, as run says.
  boost::asio::awaitable<void> run_on(const void* job, void (*call)(const void*, Store&));
  boost::asio::awaitable<std::vector<Grant>> record(Finished item);
  void reachable();
  void unreachable(const StoreUnavailable& e);
  // mine's job: records what is waiting (mine among it) unless an earlier job did. Whenever a
  // job ends, its item is recorded, or failed and out of pending_.
  void record_pending(Store& store, Pending& mine);
  // What is waiting, with mine (a retry of mine is no longer waiting).
  std::vector<Pending*> take_group(Pending& mine);

  Store& store_;
  Metrics& metrics_;
  const std::chrono::steady_clock::duration group_interval_;
  std::mutex pending_mutex_;
  std::vector<Pending*> pending_;                                     // in the order they ended
  std::atomic<std::chrono::steady_clock::time_point> last_commit_{};  // set on the storage thread
  std::atomic<int> waiting_{0};
  boost::asio::thread_pool pool_;
};

}  // namespace tilerace::server
