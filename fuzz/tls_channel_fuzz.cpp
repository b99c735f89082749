// libFuzzer: TlsChannel, the server's TLS once a WebSocket is upgraded, against a client whose
// every byte on the wire the input decides. The client is OpenSSL over memory BIOs (its records
// are bytes the harness holds before they go); the server is Beast's SSL stream as the server
// makes it; they meet over a loopback TCP connection. The input may put garbage before the
// handshake or tamper with one of the client's flights; once the handshake is done the channel
// takes over and the input is a program: the client's records (whole, split, cut short or with
// a byte flipped), garbage, key updates, close_notify, the end of the stream, and the server's
// own writes. Oracles: no crash or sanitizer report; no hang (the socket never blocks, and every
// loop is bounded); only the errors the channel promises; and while nothing has been tampered
// with, the channel reads exactly what the client wrote, in order, and the client reads exactly
// what the channel sealed.
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl.hpp>

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "fuzz/byte_source.hpp"
#include "server/net/tls_channel.hpp"
#include "tests/self_signed.hpp"

namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using namespace tilerace::server;
using tilerace::fuzz::ByteSource;

struct World {
  World() : server_tls(ssl::context::tls_server) {
    auto [key, cert] = tilerace::testing::self_signed();
    SSL_CTX_use_certificate(server_tls.native_handle(), cert);
    SSL_CTX_use_PrivateKey(server_tls.native_handle(), key);
    X509_free(cert);
    EVP_PKEY_free(key);
    client_tls = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_verify(client_tls, SSL_VERIFY_NONE, nullptr);
  }
  ~World() { SSL_CTX_free(client_tls); }

  asio::io_context io;
  ssl::context server_tls;
  SSL_CTX* client_tls;
  asio::basic_socket_acceptor<tcp, NetExecutor> acceptor{
      io.get_executor(), tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
};

// Waits up to ms for fd to have something to read.
bool readable(int fd, int ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, ms) > 0;
}

class Client {
 public:
  Client(SSL_CTX* context, std::uint16_t port) : ssl_(SSL_new(context)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) std::abort();
    // Closed with a reset: a run makes a connection per input, and TIME_WAIT would use up the
    // ports.
    const linger reset{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    ::fcntl(fd_, F_SETFL, O_NONBLOCK);
    SSL_set_bio(ssl_, BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
    SSL_set_connect_state(ssl_);
  }
  ~Client() {
    SSL_free(ssl_);
    ::close(fd_);
  }

  SSL* ssl() { return ssl_; }
  // What OpenSSL has written and not yet sent.
  std::string written() {
    std::string out;
    std::array<char, 4096> chunk;
    for (int n; (n = BIO_read(SSL_get_wbio(ssl_), chunk.data(), chunk.size())) > 0;)
      out.append(chunk.data(), n);
    return out;
  }
  void send(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0)
        return;  // the server has gone or its buffer is full: the rest is lost, as on a wire
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  // Moves what has arrived from the server into OpenSSL.
  void receive() {
    std::array<char, 16384> chunk;
    for (ssize_t n; (n = ::recv(fd_, chunk.data(), chunk.size(), 0)) > 0;) {
      BIO_write(SSL_get_rbio(ssl_), chunk.data(), static_cast<int>(n));
    }
  }
  std::string read_plain() {
    receive();
    std::string out;
    std::array<char, 4096> chunk;
    for (int n; (n = SSL_read(ssl_, chunk.data(), chunk.size())) > 0;) out.append(chunk.data(), n);
    ERR_clear_error();
    return out;
  }
  int fd() const { return fd_; }

 private:
  SSL* ssl_;
  int fd_ = -1;
};

// Cuts into bytes as the input says: flips one, cuts them short, or leaves them; true if
// changed.
bool tamper(ByteSource& in, std::string& bytes) {
  const std::uint8_t how = in.byte() % 8;
  if (bytes.empty() || how > 1) return false;
  const std::size_t at = in.below(bytes.size());
  if (how == 0) {
    bytes[at] = static_cast<char>(bytes[at] ^ (1 + in.below(255)));
  } else {
    bytes.resize(at);
  }
  return true;
}

// Reads what the channel has, as the session does, until it would block or fails; false once it
// has failed (or the stream has ended).
bool drain(TlsChannel& channel, std::string& got) {
  std::array<char, 1000> buffer;
  for (int reads = 0; reads < 1000; ++reads) {
    boost::beast::error_code ec;
    const std::size_t n = channel.read_some(asio::buffer(buffer), ec);
    got.append(buffer.data(), n);
    if (ec == asio::error::would_block) return true;
    if (ec) return false;
    if (n == 0) std::abort();  // no error and nothing read: the session would spin
  }
  std::abort();  // never would block, never failed: a hang
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World world;
  ByteSource in(data, size);
  Client client(world.client_tls, world.acceptor.local_endpoint().port());
  TcpSocket socket(world.io.get_executor());
  world.acceptor.accept(socket);
  socket.set_option(asio::socket_base::linger(true, 0));
  std::optional<TlsStream> stream;
  stream.emplace(HttpStream(std::move(socket)), world.server_tls);

  // The handshake, a flight at a time; the input may send garbage first or tamper with a flight.
  bool done = false;
  boost::beast::error_code handshake;
  stream->async_handshake(ssl::stream_base::server, [&](boost::beast::error_code ec) {
    done = true;
    handshake = ec;
  });
  const std::uint8_t mode = in.byte();
  if (mode % 8 == 0) client.send(in.bytes(in.below(400)));
  const std::uint64_t tampered_flight = mode % 8 == 1 ? in.below(4) : 99;
  for (std::uint64_t flight = 0; flight < 8 && !done; ++flight) {
    SSL_do_handshake(client.ssl());
    ERR_clear_error();
    std::string out = client.written();
    if (flight == tampered_flight) tamper(in, out);
    client.send(out);
    // The server reads the flight and answers (or fails, or waits for more).
    for (int polls = 0; polls < 16 && !done; ++polls) {
      world.io.restart();
      const std::size_t ran = world.io.poll();
      if (done || readable(client.fd(), 0)) break;
      if (ran == 0 && !readable(socket_of(*stream).native_handle(), 1)) break;
    }
    client.receive();
  }
  if (!done) {
    // Stuck on bytes that never complete: the end of the stream must end the handshake.
    ::shutdown(client.fd(), SHUT_WR);
    for (int polls = 0; polls < 200 && !done; ++polls) {
      world.io.restart();
      world.io.run_one_for(std::chrono::milliseconds(10));
    }
    if (!done) std::abort();
    return 0;
  }
  if (handshake) return 0;  // refused: nothing more to see

  std::optional<TlsChannel> channel;
  try {
    channel.emplace(std::move(*stream));
  } catch (const std::runtime_error&) {
    return 0;  // bytes came before their time: the connection closes (its promise)
  }
  stream.reset();

  bool tampered = mode % 8 < 2;
  std::string sent, got, sealed, opened;
  bool open = true;
  for (int op = 0; op < 64 && open && !in.empty(); ++op) {
    switch (in.byte() % 7) {
      case 0:
      case 1: {  // the client writes
        const std::string plain = in.bytes(in.below(2000));
        if (plain.empty()) break;
        SSL_write(client.ssl(), plain.data(), static_cast<int>(plain.size()));
        std::string record = client.written();
        if (tamper(in, record)) {
          tampered = true;
        } else {
          sent += plain;
        }
        // In two pieces: the channel reads what it can of the first before the second comes.
        const std::size_t cut = in.below(record.size() + 1);
        client.send(record.substr(0, cut));
        open = drain(*channel, got);
        client.send(record.substr(cut));
        break;
      }
      case 2:  // garbage
        client.send(in.bytes(1 + in.below(64)));
        tampered = true;
        break;
      case 3:  // a key update, the server asked to answer with its own or not
        SSL_key_update(client.ssl(),
                       in.flag() ? SSL_KEY_UPDATE_REQUESTED : SSL_KEY_UPDATE_NOT_REQUESTED);
        SSL_do_handshake(client.ssl());
        ERR_clear_error();
        client.send(client.written());
        break;
      case 4:  // close_notify
        SSL_shutdown(client.ssl());
        client.send(client.written());
        tampered = true;  // nothing after it is read
        break;
      case 5:  // the end of the stream
        ::shutdown(client.fd(), SHUT_WR);
        tampered = true;
        break;
      case 6: {  // the server seals
        const std::string plain = in.bytes(in.below(3000));
        const asio::const_buffer buffers[] = {asio::buffer(plain)};
        boost::beast::error_code ec;
        bool all = channel->seal_and_send(buffers, ec);
        for (int tries = 0; !all && !ec && tries < 100; ++tries) {
          opened += client.read_plain();
          all = channel->flush(ec);
        }
        if (!all && !ec) std::abort();  // the socket never took it, though the client read
        if (!ec) sealed += plain;
        break;
      }
    }
    if (open) open = drain(*channel, got);
    // Untouched, the channel has read a prefix of what was sent, and the client what was sealed.
    if (!tampered && sent.compare(0, got.size(), got) != 0) std::abort();
    opened += client.read_plain();
    if (sealed.compare(0, opened.size(), opened) != 0) std::abort();
  }
  // Untouched to the end: everything arrives.
  for (int waits = 0; open && !tampered && got.size() < sent.size() && waits < 100; ++waits) {
    readable(channel->socket().native_handle(), 10);
    open = drain(*channel, got);
  }
  if (!tampered && got != sent) std::abort();
  return 0;
}
