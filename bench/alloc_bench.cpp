// `make bench` part "allocations per move": how many times the heap is asked for memory while
// one move is handled, on the solo and race paths. A move arrives as the text a client sends
// and goes through everything the server does with it on its network thread — decode, dispatch,
// the rules, encoding, and the delivery of each message to its participants — with the store
// behind it in memory. The sockets are left out (the session's reads and writes, and the whole
// server's count, are in docs/performance.md). Only this thread's allocations count (the store
// worker's are not a move's).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "protocol/decode.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/server/dispatcher_parts.hpp"

namespace {

thread_local bool counting = false;
thread_local long allocations = 0;
thread_local long allocated_bytes = 0;

void* allocate(std::size_t n) {
  if (counting) {
    ++allocations;
    allocated_bytes += static_cast<long>(n);
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace tilerace::server {
namespace {

namespace asio = boost::asio;

// Keeps only the last message it was sent (a socket would write it and let it go).
struct LastMessage final : Participant {
  SharedMessage last;
  void deliver(SharedMessage m) override { last = std::move(m); }
  void close(std::uint16_t) override {}
};

struct Client {
  std::shared_ptr<LastMessage> out = std::make_shared<LastMessage>();
  Connection connection{*out};
  Client() { connection.self = out; }
};

struct Tally {
  long moves = 0;
  long allocations = 0;
  long bytes = 0;
  long allocating = 0;  // moves that allocated at all
};

class Bench {
 public:
  // Handles text from client to the end, with whatever it started on the io_context.
  void send(Client& client, const std::string& text) {
    const protocol::Decoded decoded = protocol::decode_client(text);
    if (auto rest = parts_.dispatcher.handle(client.connection, decoded)) {
      bool done = false;
      asio::co_spawn(ioc_, std::move(*rest), [&](const std::exception_ptr&) { done = true; });
      while (!done) ioc_.run_one();
    }
    ioc_.poll();
  }
  // One move, counted unless it ended the game or the race (that one records a result).
  void move(Client& client, const std::string& text, Tally& tally) {
    const long before = allocations;
    const long bytes_before = allocated_bytes;
    counting = true;
    send(client, text);
    counting = false;
    if (!playing(client)) return;
    ++tally.moves;
    tally.allocating += allocations > before ? 1 : 0;
    tally.allocations += allocations - before;
    tally.bytes += allocated_bytes - bytes_before;
  }
  static bool playing(const Client& client) {
    const std::string& m = *client.out->last;
    return m.find(R"("state":"playing")") != std::string::npos &&
           m.find(R"("type":"error")") == std::string::npos;
  }

  ~Bench() {
    parts_.stop();
    ioc_.poll();
    busy_.reset();
  }

 private:
  asio::io_context ioc_;
  asio::executor_work_guard<asio::io_context::executor_type> busy_ = asio::make_work_guard(ioc_);
  Recorder store_{std::make_unique<SqliteDialect>(":memory:")};
  testing::DispatcherParts parts_{ioc_, store_, {0, 60}};
};

// What a load generator sends: the four directions in turn, each with a numeric rid.
const std::array<std::string, 4> kMoves = {
    R"({"type":"move","dir":"left","rid":1})", R"({"type":"move","dir":"up","rid":2})",
    R"({"type":"move","dir":"right","rid":3})", R"({"type":"move","dir":"down","rid":4})"};

Tally solo(int games) {
  Bench bench;
  Client c;
  bench.send(c, R"({"type":"hello","name":"solo"})");
  Tally tally;
  for (int g = 0; g < games; ++g) {
    bench.send(c, R"({"type":"new_game","size":4})");
    for (std::size_t i = 0; Bench::playing(c); ++i) bench.move(c, kMoves[i % 4], tally);
  }
  return tally;
}

Tally race(int races) {
  Bench bench;
  Client a, b, watcher;
  bench.send(a, R"({"type":"hello","name":"ann"})");
  bench.send(b, R"({"type":"hello","name":"bob"})");
  bench.send(watcher, R"({"type":"hello","name":"cid"})");
  Tally tally;
  for (int r = 0; r < races; ++r) {
    bench.send(a, R"({"type":"create_room","size":4})");
    const std::string& room = *a.out->last;
    const auto at = room.find(R"("code":")") + 8;
    const std::string code = room.substr(at, 6);
    bench.send(b, R"({"type":"join_room","code":")" + code + R"("})");
    bench.send(watcher, R"({"type":"spectate","code":")" + code + R"("})");
    bench.send(a, R"({"type":"ready","ready":true})");
    bench.send(b, R"({"type":"ready","ready":true})");
    // The race is on when a move is answered with a board in play.
    bench.send(a, kMoves[0]);
    for (std::size_t i = 1; Bench::playing(a) && Bench::playing(b); ++i) {
      Client& mover = i % 2 == 0 ? a : b;
      bench.move(mover, kMoves[(i / 2) % 4], tally);
    }
    for (Client* c : {&a, &b, &watcher}) bench.send(*c, R"({"type":"leave_room"})");
  }
  return tally;
}

// Prints the path's figures; false when more than `most` allocations per move: the messages
// of a move allocate nothing (protocol/message_pool.hpp), what is left is a game's first
// moves and its own record growing by a factor (amortized, docs/performance.md).
bool report(const char* path, const Tally& t, double most) {
  const double per_move = static_cast<double>(t.allocations) / static_cast<double>(t.moves);
  std::printf(
      "  %-6s %8ld moves  %6.2f allocations per move  %8.1f bytes per move  %5.1f %% of moves "
      "allocated  %s\n",
      path, t.moves, per_move, static_cast<double>(t.bytes) / static_cast<double>(t.moves),
      100.0 * static_cast<double>(t.allocating) / static_cast<double>(t.moves),
      per_move <= most ? "ok" : "MORE THAN EXPECTED");
  return per_move <= most;
}

}  // namespace
}  // namespace tilerace::server

int main() {
  using namespace tilerace::server;
  std::printf("== allocations per move on the network thread (decode to delivery) ==\n");
  const bool solo_ok = report("solo", solo(200), 0.1);
  const bool race_ok = report("race", race(50), 0.25);
  return solo_ok && race_ok ? 0 : 1;
}
