// TlsChannel: a real TLS connection over 127.0.0.1, its handshake done by Beast's SSL stream as
// the server does it, then the channel in place of the stream, against an asio::ssl client on
// its own thread: records both ways (one larger than a record), a write the socket cannot take
// at once, a key update, the peer's close_notify, garbage, and bytes sent too early.
#include "server/net/tls_channel.hpp"

#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>

#include "tests/self_signed.hpp"

namespace tilerace::server {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Text of n bytes that differs along its length.
std::string pattern(std::size_t n) {
  std::string s(n, ' ');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 26) % 26);
  return s;
}

// Waits until fd is ready for events (POLLIN, POLLOUT) or the deadline has passed.
void wait_for(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  pollfd p{fd, events, 0};
  while (::poll(&p, 1, 100) == 0 && std::chrono::steady_clock::now() < deadline) {
  }
}

class TlsChannelTest : public ::testing::Test {
 protected:
  TlsChannelTest() : server_context_(ssl::context::tls_server) {
    auto [key, cert] = testing::self_signed();
    SSL_CTX_use_certificate(server_context_.native_handle(), cert);
    SSL_CTX_use_PrivateKey(server_context_.native_handle(), key);
    X509_free(cert);
    EVP_PKEY_free(key);
  }

  ~TlsChannelTest() override { join_client(); }

  // Connects a client and completes the handshake through the server's TlsStream, which is
  // left in stream_ for the test to hand over.
  void connect() {
    asio::basic_socket_acceptor<tcp, NetExecutor> acceptor(
        ioc_.get_executor(), tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    std::thread handshake([this, port = acceptor.local_endpoint().port()] {
      client_.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
      client_.handshake(ssl::stream_base::client);
    });
    TcpSocket socket(ioc_.get_executor());
    acceptor.accept(socket);
    stream_.emplace(HttpStream(std::move(socket)), server_context_);
    stream_->handshake(ssl::stream_base::server);
    handshake.join();
  }

  // connect(), then the channel takes over and the stream goes.
  TlsChannel& open_channel() {
    connect();
    channel_.emplace(std::move(*stream_));
    stream_.reset();
    return *channel_;
  }

  // Runs fn on the client's thread (joined by the next call, or at the end).
  template <class Fn>
  void on_client(Fn fn) {
    join_client();
    client_done_ = std::promise<void>();
    client_finished_ = client_done_.get_future();
    client_thread_ = std::thread([this, fn = std::move(fn)] {
      try {
        fn();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "client: " << e.what();
      }
      client_done_.set_value();
    });
  }

  // Waits for the client's thread; one still blocked after 10 s fails the test, and its
  // socket is shut down to free it.
  void join_client() {
    if (!client_thread_.joinable()) return;
    if (client_finished_.wait_for(10s) == std::future_status::timeout) {
      ADD_FAILURE() << "the client was still blocked after 10 s";
      ::shutdown(client_.next_layer().native_handle(), SHUT_RDWR);
    }
    client_thread_.join();
  }

  // Reads through the channel until n bytes or an error, within 10 s; waits for the socket
  // whenever the channel would block.
  std::string read(std::size_t n, boost::system::error_code& ec) {
    std::string got;
    std::array<char, 1000> buffer{};
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (got.size() < n && std::chrono::steady_clock::now() < deadline) {
      const std::size_t bytes = channel_->read_some(asio::buffer(buffer), ec);
      got.append(buffer.data(), bytes);
      if (ec != asio::error::would_block) {
        if (ec) break;
        continue;
      }
      ec = {};
      wait_for(channel_->socket().native_handle(), POLLIN, deadline);
    }
    EXPECT_LT(std::chrono::steady_clock::now(), deadline) << "no end to the read within 10 s";
    return got;
  }

  asio::io_context ioc_;
  ssl::context server_context_;
  asio::io_context client_ioc_;
  ssl::context client_context_{ssl::context::tls_client};
  ssl::stream<tcp::socket> client_{client_ioc_, client_context_};
  std::optional<TlsStream> stream_;
  std::optional<TlsChannel> channel_;
  std::thread client_thread_;
  std::promise<void> client_done_;
  std::future<void> client_finished_;
};

TEST_F(TlsChannelTest, CarriesRecordsBothWaysIncludingOnesLargerThanARecord) {
  TlsChannel& channel = open_channel();
  const std::string big = pattern(40'000);  // three records at most 16 KiB each
  on_client([&] {
    asio::write(client_, asio::buffer(std::string("hello")));
    asio::write(client_, asio::buffer(big));
  });
  boost::system::error_code ec;
  EXPECT_EQ(read(5 + big.size(), ec), "hello" + big);
  EXPECT_FALSE(ec);

  // Three buffers sealed together; the client reads them as one text.
  const std::string head = "ab", mid = "cd";
  const std::array<asio::const_buffer, 3> out{asio::buffer(head), asio::buffer(mid),
                                              asio::buffer(big)};
  EXPECT_TRUE(channel.seal_and_send(out, ec));
  EXPECT_FALSE(ec);
  std::string received(4 + big.size(), '\0');
  on_client([&] { asio::read(client_, asio::buffer(received)); });
  join_client();
  EXPECT_EQ(received, "abcd" + big);
}

TEST_F(TlsChannelTest, SendsLaterWhatTheSocketCannotTakeAtOnce) {
  TlsChannel& channel = open_channel();
  const std::string huge = pattern(8 << 20);  // more than the socket's buffers hold
  const std::array<asio::const_buffer, 1> out{asio::buffer(huge)};
  boost::system::error_code ec;
  ASSERT_FALSE(channel.seal_and_send(out, ec));
  EXPECT_FALSE(ec);
  std::string received(huge.size(), '\0');
  on_client([&] { asio::read(client_, asio::buffer(received)); });
  bool flushed = false;
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!(flushed = channel.flush(ec)) && std::chrono::steady_clock::now() < deadline) {
    wait_for(channel.socket().native_handle(), POLLOUT, deadline);
  }
  ASSERT_TRUE(flushed);
  EXPECT_FALSE(ec);
  join_client();
  EXPECT_TRUE(received == huge);
}

TEST_F(TlsChannelTest, FollowsTheClientsKeyUpdateBothWays) {
  TlsChannel& channel = open_channel();
  on_client([&] {
    ASSERT_EQ(SSL_key_update(client_.native_handle(), SSL_KEY_UPDATE_REQUESTED), 1);
    asio::write(client_, asio::buffer(std::string("after")));  // sent behind the update
  });
  boost::system::error_code ec;
  EXPECT_EQ(read(5, ec), "after");  // read with the client's new key
  EXPECT_FALSE(ec);
  const std::string reply = "reply";
  const std::array<asio::const_buffer, 1> out{asio::buffer(reply)};
  EXPECT_TRUE(channel.seal_and_send(out, ec));  // our update first, then the reply with it
  std::string received(5, '\0');
  on_client([&] { asio::read(client_, asio::buffer(received)); });
  join_client();
  EXPECT_EQ(received, "reply");
}

TEST_F(TlsChannelTest, ThePeersCloseNotifyIsTheEndOfTheStream) {
  open_channel();
  on_client([&] {
    asio::write(client_, asio::buffer(std::string("bye")));
    boost::system::error_code ignored;
    client_.shutdown(ignored);  // close_notify; returns once we close
  });
  boost::system::error_code ec;
  EXPECT_EQ(read(4, ec), "bye");  // the text first, then the end
  EXPECT_EQ(ec, asio::error::eof);
  channel_->socket().close();
}

TEST_F(TlsChannelTest, GarbageIsAnErrorOfTheTlsLayer) {
  open_channel();
  on_client([&] {
    asio::write(client_.next_layer(), asio::buffer(std::string("GET / HTTP/1.1\r\n\r\n")));
  });
  boost::system::error_code ec;
  EXPECT_EQ(read(1, ec), "");
  EXPECT_EQ(ec.category(), asio::error::get_ssl_category()) << ec.message();
}

TEST_F(TlsChannelTest, BytesTheStreamReceivedBeforeTheHandOverAreRefused) {
  connect();
  on_client([&] { asio::write(client_, asio::buffer(std::string("early"))); });
  join_client();
  char first = 0;
  stream_->read_some(asio::buffer(&first, 1));  // the rest of the record stays in the stream
  EXPECT_THROW(channel_.emplace(std::move(*stream_)), std::runtime_error);
}

}  // namespace
}  // namespace tilerace::server
