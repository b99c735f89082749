// tilerace — the server binary: options, the store, then run_server (server.cpp).
// The threading model, the one lock order, and the ownership and shutdown order are written
// once, in docs/architecture.md ("Threads and locks", "Ownership and shutdown").
#include <malloc.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>

#include "server/base/unix_time.hpp"
#include "server/options.hpp"
#include "server/server.hpp"
#include "server/store/pg_dialect.hpp"
#include "server/store/sqlite_dialect.hpp"

int main(int argc, char** argv) {
  // A long game's move string grows past 128 KiB. Left to itself glibc raises its mmap
  // threshold after the first such buffer is freed, and later ones come from the heap, where
  // every outgrown copy stays behind as a hole the process holds. A fixed threshold keeps
  // large buffers in their own mappings, returned to the system when freed
  // (docs/performance.md, "Memory held per move").
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  // With the threshold fixed, glibc also keeps trimming a heap whose free top passes 128 KiB:
  // SQLite's 64 KiB statement-journal chunk and an 85 KiB buffer, allocated and freed for every
  // race the journal pass writes, made the store thread return memory with madvise (a TLB flush
  // each) and fault it back in, a thousand times a second under race load — nine tenths of that
  // thread's CPU. A free top of up to 1 MiB per heap stays (docs/performance.md, step 8).
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
  int exit_code = 0;
  const auto options = tilerace::server::parse_options(argc, argv, exit_code);
  if (!options) return exit_code;
  spdlog::set_level(spdlog::level::from_str(options->log_level));
  tilerace::server::clock_offset_ms().store(options->clock_offset_ms);
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
