// Native TLS (--tls-cert, --tls-key): the real binary serving HTTPS and WSS with certificates
// the test makes with openssl (a throwaway CA and leaves signed by it), clients that verify
// them against that CA, certificate rotation under a live connection, start-up refusals, and
// bad input at the TLS edge.
#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <signal.h>

#include <algorithm>
#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/wss_client.hpp"
#include "tests/free_port.hpp"

namespace tilerace::e2e {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

// A throwaway CA in a temporary folder, and leaves for 127.0.0.1 signed by it.
class Pki {
 public:
  Pki() {
    run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " +
        path("ca.key") + " -out " + path("ca.pem") + " -days 2 -subj /CN=tilerace-test-ca");
    std::ofstream(dir_.path() / "leaf.ext") << "subjectAltName=IP:127.0.0.1\n";
  }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }

  // name.pem and name.key: a leaf with the given serial (hex), valid for days (0: expired).
  void leaf(const std::string& name, const std::string& serial, int days = 2) {
    run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " +
        path(name + ".key") + " -out " + path(name + ".csr") + " -subj /CN=127.0.0.1");
    run("openssl x509 -req -in " + path(name + ".csr") + " -CA " + path("ca.pem") + " -CAkey " +
        path("ca.key") + " -set_serial 0x" + serial + " -days " + std::to_string(days) +
        " -extfile " + path("leaf.ext") + " -out " + path(name + ".pem"));
  }
  // Puts leaf name's pair where the server reads its certificate and key.
  void install(const std::string& name, const std::string& key_of = "") const {
    std::filesystem::copy_file(path(name + ".pem"), path("server.pem"),
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(path((key_of.empty() ? name : key_of) + ".key"), path("server.key"),
                               std::filesystem::copy_options::overwrite_existing);
  }
  std::vector<std::string> server_args() const {
    return {"--tls-cert", path("server.pem"), "--tls-key", path("server.key")};
  }

 private:
  static void run(const std::string& command) {
    const auto [out, status] = shell(command);
    if (status != 0) throw std::runtime_error(command + ":\n" + out);
  }
  TempDir dir_;
};

// GET target over HTTPS; the status.
int https_get(std::uint16_t port, const Pki& pki, const std::string& target) {
  asio::io_context ioc;
  ssl::context context = client_context(pki.path("ca.pem"));
  beast::ssl_stream<beast::tcp_stream> stream(ioc, context);
  SSL_set1_host(stream.native_handle(), "127.0.0.1");
  beast::get_lowest_layer(stream).expires_after(10s);
  beast::get_lowest_layer(stream).connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  stream.handshake(ssl::stream_base::client);
  beast::http::request<beast::http::empty_body> req(beast::http::verb::get, target, 11);
  req.set(beast::http::field::host, "127.0.0.1");
  beast::http::write(stream, req);
  beast::flat_buffer buffer;
  beast::http::response<beast::http::string_body> res;
  beast::http::read(stream, buffer, res);
  return res.result_int();
}

// A solo game's first move over wss://: the game goes on as it does over ws://.
void play_a_move(WssClient& client) {
  EXPECT_EQ(client.request({{"type", "new_game"}})["type"], "game");
  for (const char* dir : {"left", "right", "up", "down"}) {
    const json reply = client.request({{"type", "move"}, {"dir", dir}});
    ASSERT_EQ(reply["type"], "moved") << reply.dump();
    if (reply.value("changed", true)) return;
  }
}

class Tls : public ::testing::Test {
 protected:
  void SetUp() override {
    pki_.leaf("one", "1001");
    pki_.install("one");
  }
  Pki pki_;
};

TEST_F(Tls, ASoloGameAndTheApiWorkOverHttpsAndWss) {
  ServerProcess server(pki_.server_args());
  EXPECT_TRUE(server.wait_for_log("listening on https://127.0.0.1:"));
  WssClient client(server.port(), pki_.path("ca.pem"));
  EXPECT_EQ(client.serial(), "1001");
  EXPECT_EQ(client.request({{"type", "hello"}, {"name", "tina"}})["type"], "welcome");
  play_a_move(client);
  EXPECT_EQ(https_get(server.port(), pki_, "/healthz"), 200);
}

TEST_F(Tls, ARotatedCertificateServesNewHandshakesWhileOpenConnectionsGoOn) {
  pki_.leaf("two", "2002");
  pki_.leaf("other", "3003");
  ServerProcess server(pki_.server_args());
  WssClient before(server.port(), pki_.path("ca.pem"));
  EXPECT_EQ(before.request({{"type", "hello"}, {"name", "rita"}})["type"], "welcome");
  EXPECT_EQ(before.request({{"type", "new_game"}})["type"], "game");

  pki_.install("two");
  ASSERT_EQ(::kill(server.pid(), SIGHUP), 0);
  ASSERT_TRUE(server.wait_for_log("certificate 2002 in place"));
  WssClient after(server.port(), pki_.path("ca.pem"));
  EXPECT_EQ(after.serial(), "2002");
  play_a_move(before);  // the connection opened before the rotation carries on

  // A bad replacement (the key of another certificate) is refused; the last good pair stays.
  pki_.install("one", "other");
  ASSERT_EQ(::kill(server.pid(), SIGHUP), 0);
  ASSERT_TRUE(server.wait_for_log("keeping the current certificate"));
  WssClient later(server.port(), pki_.path("ca.pem"));
  EXPECT_EQ(later.serial(), "2002");
}

TEST_F(Tls, ReplacedFilesAreNoticedWithoutASignal) {
  pki_.leaf("two", "2002");
  ServerProcess server(pki_.server_args());
  pki_.install("two");
  ASSERT_TRUE(server.wait_for_log("certificate 2002 in place", 10s));
  WssClient client(server.port(), pki_.path("ca.pem"));
  EXPECT_EQ(client.serial(), "2002");
}

TEST_F(Tls, PlainHttpOnTheRedirectPortIsSentToTheSamePageOverHttps) {
  const std::uint16_t plain = tilerace::testing::free_port();
  std::vector<std::string> args = pki_.server_args();
  args.insert(args.end(), {"--redirect-http-port", std::to_string(plain)});
  ServerProcess server(args);
  ASSERT_TRUE(server.wait_for_log("redirecting http://"));
  const auto [out, status] = shell(
      "curl -s -m 5 -o /dev/null -w '%{http_code} %{redirect_url}' "
      "'http://127.0.0.1:" +
      std::to_string(plain) + "/?room=ABCDEF'");
  EXPECT_EQ(out, "308 https://127.0.0.1:" + std::to_string(server.port()) + "/?room=ABCDEF");
  // Plain HTTP carries no Strict-Transport-Security (RFC 6797 §7.2).
  const auto [head, head_status] =
      shell("curl -s -m 5 -D - -o /dev/null 'http://127.0.0.1:" + std::to_string(plain) + "/'");
  std::string lower = head;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  EXPECT_NE(lower.find("location: https://"), std::string::npos) << head;
  EXPECT_EQ(lower.find("strict-transport-security"), std::string::npos) << head;
  WssClient client(server.port(), pki_.path("ca.pem"));  // and the game port still speaks TLS
  EXPECT_EQ(client.request({{"type", "hello"}, {"name", "rex"}})["type"], "welcome");
}

// The binary with pki_'s server pair; its output and exit status (it must stop by itself).
std::pair<std::string, int> start_expecting_exit(const Pki& pki) {
  TempDir data;
  return shell(std::string("timeout 20 ") + TILERACE_BINARY + " --host 127.0.0.1 --port 0 --data " +
               data.path().string() + " --tls-cert " + pki.path("server.pem") + " --tls-key " +
               pki.path("server.key"));
}

TEST_F(Tls, AMismatchedExpiredOrMissingPairIsAClearErrorAtStartUp) {
  pki_.leaf("other", "3003");
  pki_.install("one", "other");
  auto [out, status] = start_expecting_exit(pki_);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("does not match the certificate"), std::string::npos) << out;

  pki_.leaf("old", "4004", /*days=*/0);  // expires the second it is made
  pki_.install("old");
  std::tie(out, status) = start_expecting_exit(pki_);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("has expired"), std::string::npos) << out;

  std::filesystem::remove(pki_.path("server.key"));
  std::tie(out, status) = start_expecting_exit(pki_);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("cannot read the TLS key"), std::string::npos) << out;
}

TEST_F(Tls, PlainHttpGarbageOldProtocolsAndStalledHandshakesDisturbNobody) {
  ServerProcess server(pki_.server_args());
  WssClient player(server.port(), pki_.path("ca.pem"));
  EXPECT_EQ(player.request({{"type", "hello"}, {"name", "pia"}})["type"], "welcome");

  // Plain HTTP to the TLS port: no HTTP answer, the connection ends.
  const auto plain = shell("curl -s -m 5 -o /dev/null -w '%{http_code}' http://127.0.0.1:" +
                           std::to_string(server.port()) + "/healthz");
  EXPECT_EQ(plain.first, "000");
  // Garbage bytes, then nothing.
  {
    asio::io_context ioc;
    tcp::socket socket(ioc);
    socket.connect({asio::ip::make_address("127.0.0.1"), server.port()});
    asio::write(socket, asio::buffer(std::string(300, '\x16')));
  }
  // TLS 1.0 and 1.1 are refused in the handshake.
  for (const char* version : {"-tls1", "-tls1_1"}) {
    const auto old = shell(std::string("openssl s_client -connect 127.0.0.1:") +
                           std::to_string(server.port()) + " " + version + " </dev/null");
    EXPECT_NE(old.second, 0) << version << ": " << old.first;
  }
  // A handshake that never finishes is cut off at its deadline (10 s), not kept forever.
  asio::io_context ioc;
  tcp::socket stalled(ioc);
  stalled.connect({asio::ip::make_address("127.0.0.1"), server.port()});
  play_a_move(player);  // meanwhile the player plays on
  char byte;
  boost::system::error_code ec;
  const auto started = std::chrono::steady_clock::now();
  stalled.read_some(asio::buffer(&byte, 1), ec);  // returns when the server closes it
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 15s);
  play_a_move(player);
}

TEST_F(Tls, OverTheAddressLimitTheConnectionIsClosedWithoutPlainText) {
  std::vector<std::string> args = pki_.server_args();
  args.insert(args.end(), {"--max-connections-per-ip", "1"});
  ServerProcess server(args);
  WssClient player(server.port(), pki_.path("ca.pem"));
  EXPECT_EQ(player.request({{"type", "hello"}, {"name", "una"}})["type"], "welcome");
  // The second connection from this address: closed before any byte, no "HTTP/1.1 429".
  asio::io_context ioc;
  tcp::socket extra(ioc);
  extra.connect({asio::ip::make_address("127.0.0.1"), server.port()});
  std::string got;
  boost::system::error_code ec;
  std::array<char, 256> buffer;
  while (!ec) got.append(buffer.data(), extra.read_some(asio::buffer(buffer), ec));
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  EXPECT_EQ(got, "");
  play_a_move(player);  // the admitted one plays on
}

}  // namespace
}  // namespace tilerace::e2e
