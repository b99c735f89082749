// tilerace — the server binary.
//
// Threading model (the one place it is written down):
// - One io_context runs on --threads threads (default: one per core).
// - Every connection lives on its own strand: its reader, its writer and everything the
//   dispatcher does for one of its messages run there, one message at a time. Other threads
//   reach a connection only through Participant::deliver/close, which post onto that strand
//   (deliver queues at once when called on the connection's own strand with nothing posted
//   ahead, so order is kept). A room is guarded by its mutex and may be entered from any
//   connection's strand or its timers.
// - A player's state (their current game, their connection) is guarded by the player's own
//   mutex, held only for in-memory work, never across I/O. The player registry and the
//   session set each sit behind one small mutex.
// - Storage never runs on a network thread: the StoreWorker owns one thread, and a coroutine
//   co_awaits its job and resumes on its own strand. That is also how a result is committed
//   before the message announcing it is sent.
// - Metrics are atomics that any thread may bump.
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>

#include "server/options.hpp"
#include "server/server.hpp"
#include "server/sqlite_store.hpp"

int main(int argc, char** argv) {
  int exit_code = 0;
  const auto options = tilerace::server::parse_options(argc, argv, exit_code);
  if (!options) return exit_code;
  spdlog::set_level(spdlog::level::from_str(options->log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  std::unique_ptr<tilerace::server::Store> store;
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
