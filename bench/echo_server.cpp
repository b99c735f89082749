// tilerace-echo: the stack's floor. A Beast WebSocket server built the way tilerace's
// connections are (one io_context per thread, the plain socket with the context's concrete
// executor, a chain of completion handlers, no timer per operation) that sends every text
// message straight back: no parsing, no game. Prints "listening on port N" (ask for port 0
// to get a free one).
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using asio::ip::tcp;
using Socket = asio::basic_stream_socket<tcp, asio::io_context::executor_type>;

namespace {

class Echo : public std::enable_shared_from_this<Echo> {
 public:
  explicit Echo(Socket socket) : ws_(std::move(socket)) {}

  void start() {
    ws_.next_layer().set_option(tcp::no_delay(true));
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(10);
    timeouts.idle_timeout = websocket::stream_base::none();
    ws_.set_option(timeouts);
    ws_.read_message_max(4096);  // tilerace's default message limit
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

 private:
  void read() {
    buffer_.clear();
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->ws_.text(self->ws_.got_text());
      self->ws_.async_write(self->buffer_.data(), [self](beast::error_code wec, std::size_t) {
        if (!wec) self->read();
      });
    });
  }

  websocket::stream<Socket> ws_;
  beast::flat_buffer buffer_;
};

}  // namespace

int main(int argc, char** argv) {
  // echo_server [port] [threads]: the same thread count as tilerace's default (one per core).
  const auto port = static_cast<unsigned short>(argc > 1 ? std::atoi(argv[1]) : 9000);
  const int threads = argc > 2
                          ? std::atoi(argv[2])
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::unique_ptr<asio::io_context>> contexts;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
  for (int i = 0; i < std::max(1, threads); ++i) {
    contexts.push_back(std::make_unique<asio::io_context>(1));
    guards.push_back(asio::make_work_guard(*contexts.back()));
  }
  tcp::acceptor acceptor(*contexts[0], {asio::ip::make_address("127.0.0.1"), port});
  std::cout << "listening on port " << acceptor.local_endpoint().port() << std::endl;
  std::size_t next = 0;
  std::function<void()> accept = [&] {
    acceptor.async_accept(contexts[next]->get_executor(), [&](beast::error_code ec, Socket s) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) std::make_shared<Echo>(std::move(s))->start();
      next = (next + 1) % contexts.size();
      accept();
    });
  };
  accept();
  asio::signal_set signals(*contexts[0], SIGINT, SIGTERM);
  signals.async_wait([&](auto, int) {
    for (auto& c : contexts) c->stop();
  });
  std::vector<std::thread> pool;
  for (std::size_t i = 1; i < contexts.size(); ++i)
    pool.emplace_back([&, i] { contexts[i]->run(); });
  contexts[0]->run();
  for (auto& t : pool) t.join();
}
