// tilerace — the server binary.
//
// Threading model (the one place it is written down, with the ownership order below):
// - --threads network threads (default: one per core), each running its own io_context
//   (NetworkThreads). A new connection is bound to one of them, round robin, for its life:
//   its reader, its writer and everything the dispatcher does for one of its messages run on
//   that thread, one message at a time, with no strand. Other threads reach a connection only
//   through Participant::deliver/close and Session::shutdown/abort, which post onto its
//   thread (deliver queues at once when called on that thread with nothing posted ahead, so
//   order is kept). Context 0 also holds the acceptor, the signals, the journal loop and the
//   rooms' timers.
// - A room is its RaceState (pure rules, time passed in) behind the Room's mutex; it may be
//   entered from any network thread (its members may live on different ones), from its one timer
//   (kept at the state's next deadline) and from the coroutine that records a finished race. Lock
//   order: matchmaker, then registry, then room, then player; a room calls back into the registry
//   (closing) with its own lock held, so the registry never takes a room's lock, except on a room
//   nobody can reach yet (quick match seats both players before registering it).
// - A player's state (their current game, their connection, their room) is guarded by the
//   player's own mutex, held only for in-memory work, never across I/O. The player registry,
//   the room registry, the matchmaker and the session set each sit behind one small mutex.
// - Storage never runs on a network thread: the StoreWorker owns one thread, and a coroutine
//   co_awaits its job and resumes on its connection's thread. That is also how a result is
//   committed before the message announcing it is sent. (Before serving, main's thread reads the
//   race journal directly: nothing else uses the store yet.)
// - Cluster mode (--redis): the Cluster's heartbeat and its two Redis connections (commands,
//   and the SUBSCRIBEd control channel) run on context 0's one thread, with no strand; a
//   dispatcher coroutine that needs Redis co_awaits a command (posted onto context 0) and
//   resumes on its connection's thread. The Cluster's own maps sit behind one small mutex.
//   A racer's move is applied under the room's lock on the connection's thread, then that
//   coroutine awaits its Redis append (the move journal) and only then delivers the answer,
//   held meanwhile; the connection reads its next message after that. Adopting a dead node's
//   races runs on context 0 and on the StoreWorker's threads (rebuilding rooms there).
// - The computer opponents (BotRacer) take their turns on context 0's timers and think on the
//   BotPool's threads (--bot-threads), never a network thread; the move chosen is posted back
//   to context 0 and played through the room like anyone's.
// - Metrics are atomics that any thread may bump.
//
// Ownership and shutdown order (run_server in server.cpp):
// - The io_contexts (NetworkThreads) are declared first, so they are destroyed last: every
//   timer and socket (rooms, sessions, the acceptor) is gone before them. Everything a handler can
//   reach (store, worker, metrics, registries, dispatcher, limits, sessions) is declared after it
//   and outlives every handler, because run() returns only once no handler is left: shutdown never
//   stops a context, it lets the work run out (each context holds a work guard until drain ends).
// - SIGTERM/SIGINT: the acceptor closes; in cluster mode the node leaves the directory (its lease,
//   listing, codes and queue entries; bounded by Redis's reply timeout) and stops its Redis
//   connections; then the journal loop stops (also mid-pass), rooms, computer racers and quick
//   match's waits for the computer stop arming timers (the BotPool joins its threads), every
//   session (HTTP or WebSocket, from accept on) is told to shut down; drain waits for them (8 s,
//   then aborts their sockets), journals every solo game and race once more, releases the contexts'
//   work guards, and ends. Then the threads return from run(), the store worker finishes its jobs,
//   and the objects are destroyed in reverse order of declaration.
// - Nothing owns itself: a session is kept alive by its coroutine frame and its pending
//   handlers, and is in the SessionSet (weakly) from start to its last handler; its
//   Connection holds only a weak handle back to it. Rooms are owned by the registry and by
//   the calls in progress on them (each caller holds a shared_ptr); players point to rooms
//   weakly, and rooms to participants weakly.
#include <malloc.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>

#include "server/options.hpp"
#include "server/pg_store.hpp"
#include "server/server.hpp"
#include "server/sqlite_store.hpp"

int main(int argc, char** argv) {
  // A long game's move string grows past 128 KiB. Left to itself glibc raises its mmap
  // threshold after the first such buffer is freed, and later ones come from the heap, where
  // every outgrown copy stays behind as a hole the process holds. A fixed threshold keeps
  // large buffers in their own mappings, returned to the system when freed
  // (docs/performance.md, "Memory held per move").
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  int exit_code = 0;
  const auto options = tilerace::server::parse_options(argc, argv, exit_code);
  if (!options) return exit_code;
  spdlog::set_level(spdlog::level::from_str(options->log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  std::unique_ptr<tilerace::server::Store> store;
  if (!options->database.empty()) {
    try {
      store = std::make_unique<tilerace::server::PgStore>(options->database, options->node_name);
      spdlog::info("database: {} (node {})",
                   tilerace::server::redact_database_url(options->database), options->node_name);
    } catch (const std::exception& e) {
      spdlog::error("cannot use the database {}", e.what());
      return 2;
    }
    return tilerace::server::run_server(*options, std::move(store));
  }
  try {
    std::filesystem::create_directories(options->data);
    const auto file = std::filesystem::path(options->data) / "tilerace.db";
    store = std::make_unique<tilerace::server::SqliteStore>(file);
    spdlog::info("data: {}", file.string());
  } catch (const std::exception& e) {
    spdlog::error("cannot open the database in {}: {}", options->data, e.what());
    return 2;
  }
  return tilerace::server::run_server(*options, std::move(store));
}
