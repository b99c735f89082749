#include "bench/soak/abusers.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <memory>
#include <random>

namespace tilerace::soak {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using asio::as_tuple;
using asio::use_awaitable;
using asio::ip::tcp;
using Ws = websocket::stream<beast::tcp_stream>;

namespace {

asio::awaitable<std::optional<tcp::socket>> connect_tcp(const Target& t, int receive_buffer = 0) {
  const auto ex = co_await asio::this_coro::executor;
  tcp::socket socket(ex);
  const tcp::endpoint endpoint(asio::ip::make_address(t.host),
                               static_cast<unsigned short>(std::stoi(t.port)));
  socket.open(endpoint.protocol());
  if (receive_buffer > 0) socket.set_option(asio::socket_base::receive_buffer_size(receive_buffer));
  auto [ec] = co_await socket.async_connect(endpoint, as_tuple(use_awaitable));
  if (ec) co_return std::nullopt;
  co_return std::move(socket);
}

asio::awaitable<std::unique_ptr<Ws>> connect_ws(const Target& t, int receive_buffer = 0) {
  auto socket = co_await connect_tcp(t, receive_buffer);
  if (!socket) co_return nullptr;
  auto ws = std::make_unique<Ws>(std::move(*socket));
  auto [ec] = co_await ws->async_handshake(t.host, "/ws", as_tuple(use_awaitable));
  if (ec) co_return nullptr;
  co_return ws;
}

// text must outlive the await: a literal, or a named string (no temporaries across co_await:
// GCC 12 mishandles them).
asio::awaitable<void> send(Ws& ws, std::string_view text) {
  auto [ec, n] = co_await ws.async_write(asio::buffer(text), as_tuple(use_awaitable));
  (void)ec;  // a failed write shows as a failed read next
}

// Reads until the connection ends: the close code the server sent, 0 when it cut the
// connection without one, or -1 when it was still open after 15 s (the socket is then closed).
asio::awaitable<int> read_to_close(Ws& ws) {
  auto still_open = std::make_shared<bool>(true);
  asio::steady_timer watchdog(ws.get_executor());
  watchdog.expires_after(std::chrono::seconds(15));
  watchdog.async_wait([&ws, still_open](boost::system::error_code ec) {
    if (!ec && *still_open) beast::get_lowest_layer(ws).close();
  });
  beast::flat_buffer buffer;
  for (;;) {
    buffer.clear();
    auto [ec, n] = co_await ws.async_read(buffer, as_tuple(use_awaitable));
    if (!ec) continue;
    const bool timed_out = watchdog.expiry() <= Clock::now();
    *still_open = false;
    watchdog.cancel();
    if (ec == websocket::error::closed) co_return static_cast<int>(ws.reason().code);
    co_return timed_out ? -1 : 0;
  }
}

asio::awaitable<void> wait(Clock::duration d) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(d);
  co_await timer.async_wait(as_tuple(use_awaitable));
}

// One coroutine tells another that something happened (a reader saw its connection end).
class Signal {
 public:
  explicit Signal(const asio::any_io_executor& executor) : timer_(executor) {}
  void fire() {
    fired_ = true;
    timer_.cancel();
  }
  bool fired() const { return fired_; }
  // Returns once fired or at the deadline, whichever comes first.
  asio::awaitable<void> wait_until(Clock::time_point deadline) {
    while (!fired_ && Clock::now() < deadline) {
      timer_.expires_at(deadline);
      co_await timer_.async_wait(as_tuple(use_awaitable));
    }
  }

 private:
  bool fired_ = false;
  asio::steady_timer timer_;
};

// Reads until the connection ends, counting the messages that contain needle and keeping
// the close code the server sent; fires ended last (ws may be destroyed after that).
asio::awaitable<void> count_replies(Ws& ws, std::string_view needle, std::uint64_t& count,
                                    std::optional<int>& close_code, std::shared_ptr<Signal> ended) {
  beast::flat_buffer buffer;
  for (;;) {
    buffer.clear();
    auto [ec, n] = co_await ws.async_read(buffer, as_tuple(use_awaitable));
    if (ec == websocket::error::closed) close_code = ws.reason().code;
    if (ec) break;
    if (beast::buffers_to_string(buffer.data()).find(needle) != std::string::npos) ++count;
  }
  ended->fire();
}

// Ends a connection whose reader runs count_replies: waits for the end up to 10 s, then
// cuts the socket and waits for the reader to let go of it.
asio::awaitable<void> finish(Ws& ws, Signal& ended) {
  co_await ended.wait_until(Clock::now() + std::chrono::seconds(10));
  if (ended.fired()) co_return;
  beast::get_lowest_layer(ws).close();
  co_await ended.wait_until(Clock::time_point::max());
}

}  // namespace

asio::awaitable<void> slowloris(Target target, Clock::time_point until, AbuseReport& r) {
  auto socket = co_await connect_tcp(target);
  if (!socket) co_return;
  ++r.slowloris;
  const auto opened = Clock::now();
  auto shared = std::make_shared<tcp::socket>(std::move(*socket));
  auto cut = std::make_shared<Signal>(shared->get_executor());
  // The reader learns when the server closes the socket.
  asio::co_spawn(
      shared->get_executor(),
      [shared, cut]() -> asio::awaitable<void> {
        std::array<char, 512> sink;  // (a plain array in a coroutine trips GCC 12)
        for (;;) {
          auto [ec, n] =
              co_await shared->async_read_some(asio::buffer(sink), as_tuple(use_awaitable));
          if (ec) break;
        }
        cut->fire();
      },
      asio::detached);
  const std::string request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
  auto [ec, n] =
      co_await asio::async_write(*shared, asio::buffer(request), as_tuple(use_awaitable));
  while (!ec && !cut->fired() && Clock::now() < until) {
    co_await cut->wait_until(Clock::now() + std::chrono::seconds(1));  // a byte a second
    if (cut->fired()) break;
    std::tie(ec, n) =
        co_await asio::async_write(*shared, asio::buffer("a", 1), as_tuple(use_awaitable));
  }
  // A write can still succeed just after the server's close; give the reader its moment.
  co_await cut->wait_until(Clock::now() + std::chrono::milliseconds(200));
  if (cut->fired() || ec) ++r.slowloris_cut;
  r.slowloris_longest_s =
      std::max(r.slowloris_longest_s, std::chrono::duration<double>(Clock::now() - opened).count());
  beast::error_code ignored;
  shared->close(ignored);
}

asio::awaitable<void> garbage_tcp(Target target, unsigned seed, Clock::time_point until,
                                  AbuseReport& r) {
  auto socket = co_await connect_tcp(target);
  if (!socket) co_return;
  ++r.garbage_tcp;
  std::minstd_rand rng(seed);
  std::string junk(512, '\0');
  boost::system::error_code ec;
  while (!ec && Clock::now() < until) {
    for (char& c : junk) c = static_cast<char>(rng());
    std::size_t n = 0;
    std::tie(ec, n) =
        co_await asio::async_write(*socket, asio::buffer(junk), as_tuple(use_awaitable));
    if (!ec) co_await wait(std::chrono::milliseconds(100));
  }
  if (ec) ++r.garbage_tcp_cut;  // the server answered 400 and closed
}

asio::awaitable<void> garbage_ws(Target target, unsigned seed, Clock::time_point until,
                                 AbuseReport& r) {
  auto ws = co_await connect_ws(target);
  if (!ws) co_return;
  ++r.garbage_ws;
  auto closed = std::make_shared<Signal>(ws->get_executor());
  std::optional<int> close_code;  // not judged: these players are never meant to be closed
  asio::co_spawn(ws->get_executor(),
                 count_replies(*ws, R"("type":"error")", r.garbage_ws_errors, close_code, closed),
                 asio::detached);
  co_await send(*ws, R"({"type":"hello","name":"garbage"})");
  static constexpr std::string_view kPieces[] = {"{",           "}",
                                                 "[",           "]",
                                                 "\"type\"",    ":",
                                                 ",",           "\"move\"",
                                                 "\"dir\"",     "null",
                                                 "1e999",       "-0",
                                                 "\"\\u0000\"", "\"create_room\"",
                                                 "\"size\"",    "99999999999999999999",
                                                 "\"\\ud800\"", "true"};
  std::minstd_rand rng(seed);
  while (!closed->fired() && Clock::now() < until) {
    std::string text;
    const auto pieces = 1 + rng() % 12;
    for (unsigned i = 0; i < pieces; ++i) text += kPieces[rng() % std::size(kPieces)];
    co_await send(*ws, text);
    co_await wait(std::chrono::milliseconds(50));  // 20 a second: under the rate limit
  }
  if (!closed->fired()) ++r.garbage_ws_open;
  auto [ec] = co_await ws->async_close(websocket::close_code::normal, as_tuple(use_awaitable));
  if (ec) beast::get_lowest_layer(*ws).close();
  co_await finish(*ws, *closed);
}

asio::awaitable<void> silent_spectator(Target target, Clock::time_point until, AbuseReport& r) {
  auto ws = co_await connect_ws(target, 4096);
  if (!ws) co_return;
  beast::flat_buffer buffer;
  co_await send(*ws, R"({"type":"hello","name":"silent"})");
  std::string code;
  while (code.empty() && Clock::now() < until) {
    co_await send(*ws, R"({"type":"list_rooms"})");
    for (;;) {  // up to the rooms reply
      buffer.clear();
      auto [ec, n] = co_await ws->async_read(buffer, as_tuple(use_awaitable));
      if (ec) co_return;
      const auto j = nlohmann::json::parse(beast::buffers_to_string(buffer.data()));
      if (j["type"] != "rooms") continue;
      for (const auto& room : j["rooms"]) {  // the busy race is the 5×5 one
        if (room["state"] == "racing" && room["size"] == 5) code = room["code"];
      }
      break;
    }
    if (code.empty()) co_await wait(std::chrono::milliseconds(200));
  }
  const std::string spectate = nlohmann::json{{"type", "spectate"}, {"code", code}}.dump();
  co_await send(*ws, spectate);
  co_await wait(until - Clock::now());  // never reading, while the race goes on
  r.spectator_close = co_await read_to_close(*ws);
}

asio::awaitable<void> flood(Target target, Clock::time_point until, AbuseReport& r) {
  auto ws = co_await connect_ws(target);
  if (!ws) co_return;
  auto done = std::make_shared<Signal>(ws->get_executor());
  asio::co_spawn(ws->get_executor(),
                 count_replies(*ws, "rate_limited", r.flood_rate_limited, r.flood_close, done),
                 asio::detached);
  co_await send(*ws, R"({"type":"hello","name":"flood"})");
  static constexpr std::string_view ping = R"({"type":"ping"})";
  // 1,000 a second, in bursts of ten: far over the limit, and still read in time (a flood
  // that does not read its replies is cut with 1013 by the send queue bound instead).
  boost::system::error_code ec;
  while (!ec && !done->fired() && Clock::now() < until) {
    for (int i = 0; i < 10 && !ec; ++i) {
      std::size_t n = 0;
      std::tie(ec, n) = co_await ws->async_write(asio::buffer(ping), as_tuple(use_awaitable));
    }
    co_await wait(std::chrono::milliseconds(10));
  }
  co_await finish(*ws, *done);  // the server closes it (1008) within seconds
}

asio::awaitable<void> bad_frame(Target target, bool binary, AbuseReport& r) {
  auto ws = co_await connect_ws(target);
  if (!ws) co_return;
  ws->binary(binary);
  const std::string payload =
      binary ? std::string("\x00\xff\x10", 3) : std::string("{\"x\":\"\xc3\x28\"}");
  co_await send(*ws, payload);
  const auto code = co_await read_to_close(*ws);
  (binary ? r.binary_close : r.utf8_close) = code;
}

}  // namespace tilerace::soak
