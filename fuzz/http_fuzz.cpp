// libFuzzer: raw HTTP bytes from a client, read by Beast's request parser with the session's
// limits (pipelined requests one after another, as HttpSession reads them), each request then
// answered by our routing: the static files, the REST routes and the store's (on an in-memory
// SQLite store shared by all inputs), and the operator's API with its JSON bodies (its token,
// kToken, is in the dictionary and the seeds, so inputs get past the guard, and the operator
// desk's sign-in needs none). Oracles: no crash
// or sanitizer report; no route throws (only a store that cannot be reached may, and this one
// can); every answer serializes to a well-formed HTTP/1.x response with a status of 200-599.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "server/net/admin_api.hpp"
#include "server/net/admin_guard.hpp"
#include "server/net/http_api.hpp"
#include "server/net/http_session.hpp"
#include "server/play/operator_desk.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/server/dispatcher_parts.hpp"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using namespace tilerace::server;

constexpr const char* kToken = "fuzz-operator-token-0123456789abcdef";

// A web root with a page and a script, made for the run.
std::filesystem::path make_root() {
  const auto root =
      std::filesystem::temp_directory_path() / ("tilerace-http-fuzz-" + std::to_string(getpid()));
  std::filesystem::create_directories(root / "js");
  std::ofstream(root / "index.html") << "<!doctype html><title>tilerace</title>";
  std::ofstream(root / "js" / "app.js") << "export {};";
  return std::filesystem::canonical(root);
}

// One server for the whole run (a store opened per input would cost more than the input).
struct Server {
  Server() {
    store.add_player({.id = "p1", .name = "ann", .name_key = "ann", .created_at = 1}, std::nullopt);
    context.admin = &guard;
    context.desk = &desk;
    context.moderation = &parts.play.moderation;
  }
  ~Server() {
    parts.stop();
    std::filesystem::remove_all(root);
  }

  std::filesystem::path root = make_root();
  asio::io_context io;
  SqliteStore store{":memory:"};
  testing::DispatcherParts parts{io, store};
  AdminGuard guard{kToken};
  OperatorDesk desk{parts.worker, parts.hasher};
  SessionSet sessions;
  ServerContext context{{},          root,         parts.metrics, parts.dispatcher, sessions,
                        parts.rooms, parts.worker, parts.limits,  parts.directory};
};

// The answer written out as the session writes it, and checked.
void check(http::message_generator answer) {
  std::string wire;
  while (!answer.is_done()) {
    beast::error_code ec;
    std::size_t n = 0;
    for (const auto& b : answer.prepare(ec)) {
      wire.append(static_cast<const char*>(b.data()), b.size());
      n += b.size();
    }
    if (ec) std::abort();
    answer.consume(n);
  }
  // In the request's version (HTTP/1.0 or 1.1), a three-digit status.
  const bool http1 =
      wire.size() > 12 && (wire.rfind("HTTP/1.1 ", 0) == 0 || wire.rfind("HTTP/1.0 ", 0) == 0);
  const int status = http1 ? std::atoi(wire.c_str() + 9) : 0;
  if (status < 200 || status > 599) std::abort();
}

void answer(Server& server, const HttpRequest& req) {
  if (!is_admin_request(req) && !needs_store(req)) return check(answer(req, server.context));
  bool done = false;
  asio::co_spawn(
      server.io,
      [&]() -> asio::awaitable<void> {
        if (is_admin_request(req)) {
          check(co_await answer_admin(req, server.context, "127.0.0.1"));
        } else {
          check(co_await answer_from_store(req, server.context));
        }
      },
      [&](std::exception_ptr e) {
        if (e) std::abort();  // a route that throws on what a client sent
        done = true;
      });
  server.io.restart();
  while (!done) server.io.run_one_for(std::chrono::seconds(10));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Server server;
  if (size == 0) return 0;
  beast::flat_buffer buffer;
  {
    auto in = buffer.prepare(size);
    std::memcpy(in.data(), data, size);
    buffer.commit(size);
  }
  for (int requests = 0; requests < 8 && buffer.size() > 0; ++requests) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHttpHeaderLimit);
    parser.body_limit(kHttpBodyLimit);
    parser.eager(true);
    beast::error_code ec;
    while (!parser.is_done() && buffer.size() > 0) {
      const std::size_t used = parser.put(buffer.data(), ec);
      buffer.consume(used);
      if (ec == http::error::need_more && used > 0) ec = {};
      if (ec || used == 0) break;
    }
    if (ec || !parser.is_done()) break;  // the session answers nothing more on this connection
    answer(server, parser.get());
  }
  return 0;
}
