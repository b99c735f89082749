// tilerace-echo: the stack's floor. A Beast WebSocket server built with tilerace's flags that
// sends every text message straight back: one coroutine per connection, no parsing, no game.
// Prints "listening on port N" (ask for --port 0 to get a free one).
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <cstdlib>
#include <iostream>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using asio::as_tuple;
using asio::use_awaitable;
using asio::ip::tcp;

namespace {

asio::awaitable<void> echo(tcp::socket socket) {
  socket.set_option(tcp::no_delay(true));
  websocket::stream<beast::tcp_stream> ws(std::move(socket));
  ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws.read_message_max(4096);  // tilerace's default message limit
  auto [ec] = co_await ws.async_accept(as_tuple(use_awaitable));
  if (ec) co_return;
  beast::flat_buffer buffer;
  for (;;) {
    auto [rec, n] = co_await ws.async_read(buffer, as_tuple(use_awaitable));
    if (rec) co_return;
    ws.text(ws.got_text());
    auto [wec, m] = co_await ws.async_write(buffer.data(), as_tuple(use_awaitable));
    if (wec) co_return;
    buffer.consume(buffer.size());
  }
}

asio::awaitable<void> accept_loop(asio::io_context& ioc, tcp::acceptor& acceptor) {
  for (;;) {
    // Strands over the io_context's executor, as tilerace makes them.
    auto [ec, socket] =
        co_await acceptor.async_accept(asio::make_strand(ioc), as_tuple(use_awaitable));
    if (ec == asio::error::operation_aborted) co_return;
    if (ec) continue;
    asio::co_spawn(socket.get_executor(), echo(std::move(socket)), asio::detached);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // echo_server [port] [threads]: the same thread count as tilerace's default (one per core).
  const auto port = static_cast<unsigned short>(argc > 1 ? std::atoi(argv[1]) : 9000);
  const int threads = argc > 2
                          ? std::atoi(argv[2])
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  asio::io_context ioc(threads);
  tcp::acceptor acceptor(ioc, {asio::ip::make_address("127.0.0.1"), port});
  std::cout << "listening on port " << acceptor.local_endpoint().port() << std::endl;
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](auto, int) { ioc.stop(); });
  asio::co_spawn(ioc, accept_loop(ioc, acceptor), asio::detached);
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
}
