// What OpenSSL itself costs per TLS record, without sockets: a TLS 1.3 connection (an ECDSA
// P-256 certificate, TLS_AES_128_GCM_SHA256 as the load generator chooses) between two SSL
// objects over memory BIOs, one core. A record written (SSL_write: framing and sealing), one
// written and read (SSL_read: opening it), and a race move's records as the server handles them
// over wss: the mover's `move` read, its `moved` and two `race_update`s written (the rival's
// and a spectator's). Sizes are those of a 4×4 race. The floor under the TLS issue's goal
// (docs/performance.md, "Over TLS"): whatever a TLS race move costs beyond this is the
// server's own handling of TLS, not OpenSSL's.
#include <benchmark/benchmark.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <array>
#include <stdexcept>
#include <string>

#include "tests/self_signed.hpp"

namespace {

constexpr int kMoveIn = 60;      // {"type":"move","dir":"left","rid":17} and its frame
constexpr int kMovedOut = 420;   // `moved` with its board and motions
constexpr int kUpdateOut = 380;  // `race_update`

// A server and a client SSL joined by memory BIOs, handshake done.
class Pair {
 public:
  Pair() {
    auto [key, cert] = tilerace::testing::self_signed();
    server_ctx_ = SSL_CTX_new(TLS_server_method());
    client_ctx_ = SSL_CTX_new(TLS_client_method());
    SSL_CTX_use_certificate(server_ctx_, cert);
    SSL_CTX_use_PrivateKey(server_ctx_, key);
    SSL_CTX_set_ciphersuites(client_ctx_, "TLS_AES_128_GCM_SHA256");
    X509_free(cert);
    EVP_PKEY_free(key);
    server = SSL_new(server_ctx_);
    client = SSL_new(client_ctx_);
    server_out = BIO_new(BIO_s_mem());
    client_in = BIO_new(BIO_s_mem());
    client_out = BIO_new(BIO_s_mem());
    server_in = BIO_new(BIO_s_mem());
    SSL_set_bio(server, server_in, server_out);
    SSL_set_bio(client, client_in, client_out);
    SSL_set_accept_state(server);
    SSL_set_connect_state(client);
    for (int i = 0; i < 10 && !(SSL_is_init_finished(server) && SSL_is_init_finished(client));
         ++i) {
      SSL_do_handshake(client);
      carry(client_out, server_in);
      SSL_do_handshake(server);
      carry(server_out, client_in);
    }
    if (!SSL_is_init_finished(server) || !SSL_is_init_finished(client)) {
      throw std::runtime_error("no handshake");
    }
    // TLS 1.3 sends its session tickets after the handshake: read them off.
    std::array<char, 64> none{};
    SSL_read(client, none.data(), static_cast<int>(none.size()));
  }
  ~Pair() {
    SSL_free(server);
    SSL_free(client);
    SSL_CTX_free(server_ctx_);
    SSL_CTX_free(client_ctx_);
  }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;

  // Moves what from wrote to to (the network between them).
  void carry(BIO* from, BIO* to) {
    int n = 0;
    while ((n = BIO_read(from, buffer.data(), static_cast<int>(buffer.size()))) > 0) {
      BIO_write(to, buffer.data(), n);
    }
  }

  SSL* server = nullptr;
  SSL* client = nullptr;
  BIO* server_in = nullptr;
  BIO* server_out = nullptr;
  BIO* client_in = nullptr;
  BIO* client_out = nullptr;
  std::array<char, 1 << 16> buffer{};

 private:
  SSL_CTX* server_ctx_ = nullptr;
  SSL_CTX* client_ctx_ = nullptr;
};

// The server writes a record of range(0) bytes (what lands in its output BIO is dropped).
void BM_RecordWritten(benchmark::State& state) {
  Pair pair;
  const std::string message(static_cast<std::size_t>(state.range(0)), 'x');
  for (auto _ : state) {
    SSL_write(pair.server, message.data(), static_cast<int>(message.size()));
    BIO_reset(pair.server_out);
  }
  state.SetLabel("SSL_write");
}
BENCHMARK(BM_RecordWritten)->Arg(kMoveIn)->Arg(kUpdateOut)->Arg(kMovedOut);

// The client writes a record of range(0) bytes, the server reads it: the read is this less
// BM_RecordWritten's write.
void BM_RecordWrittenAndRead(benchmark::State& state) {
  Pair pair;
  const std::string message(static_cast<std::size_t>(state.range(0)), 'x');
  for (auto _ : state) {
    SSL_write(pair.client, message.data(), static_cast<int>(message.size()));
    pair.carry(pair.client_out, pair.server_in);
    benchmark::DoNotOptimize(
        SSL_read(pair.server, pair.buffer.data(), static_cast<int>(pair.buffer.size())));
  }
  state.SetLabel("SSL_write + SSL_read");
}
BENCHMARK(BM_RecordWrittenAndRead)->Arg(kMoveIn)->Arg(kUpdateOut);

// A race move's records on the server's side: the move read (its writing by the client is
// timed too, less BM_RecordWritten/60 to get the server's part), `moved` and two race_update
// written.
void BM_RaceMoveRecords(benchmark::State& state) {
  Pair pair;
  const std::string move(kMoveIn, 'm');
  const std::string moved(kMovedOut, 'o');
  const std::string update(kUpdateOut, 'u');
  for (auto _ : state) {
    SSL_write(pair.client, move.data(), kMoveIn);
    pair.carry(pair.client_out, pair.server_in);
    SSL_read(pair.server, pair.buffer.data(), static_cast<int>(pair.buffer.size()));
    SSL_write(pair.server, moved.data(), kMovedOut);
    SSL_write(pair.server, update.data(), kUpdateOut);
    SSL_write(pair.server, update.data(), kUpdateOut);
    BIO_reset(pair.server_out);
  }
  state.SetLabel("client's move written + the server's four records");
}
BENCHMARK(BM_RaceMoveRecords);

}  // namespace
