#pragma once
// The whole server: listens on one port for HTTP and WebSocket, owns the io_context, the
// store and its worker, and stops gracefully on SIGTERM/SIGINT.
#include <memory>

#include "server/options.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

// Runs the server until a stop signal; returns the process exit code.
int run_server(const Options& options, std::unique_ptr<Store> store);

}  // namespace tilerace::server
