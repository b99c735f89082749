#pragma once
// End-to-end test harness: the real tilerace binary started on a free loopback port with a
// temporary data folder, real WebSocket and HTTP clients over 127.0.0.1. Every wait has a
// deadline; nothing sleeps in place of waiting for an event.
#include <sys/types.h>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <nlohmann/json.hpp>

#include "server/rules/variant_rating.hpp"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/eventually.hpp"
#include "tests/temp_dir.hpp"

namespace tilerace::e2e {

using json = nlohmann::json;
using namespace std::chrono_literals;

using tilerace::testing::TempDir;

// How long a server may take to exit once signalled: a connection that does not answer the
// close takes 5 s of it; ThreadSanitizer (TILERACE_TSAN) slows the rest five to ten times.
#ifdef TILERACE_TSAN
inline constexpr std::chrono::milliseconds kStopDeadline = 40s;
#else
inline constexpr std::chrono::milliseconds kStopDeadline = 10s;
#endif

class ServerProcess {
 public:
  // Starts build/tilerace on 127.0.0.1 with a free port and waits until it listens. The data
  // folder is a fresh temporary one unless data is given (to restart on the same files).
  explicit ServerProcess(std::vector<std::string> extra_args = {},
                         std::filesystem::path web_root = TILERACE_WEB_ROOT,
                         std::optional<std::filesystem::path> data = std::nullopt);
  ~ServerProcess();  // SIGKILL if still running

  std::uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  // Sends signal and waits for the exit; returns the exit status, or nullopt on timeout.
  std::optional<int> stop(int signal, std::chrono::milliseconds deadline = kStopDeadline);
  // Waits until the server's output contains needle.
  bool wait_for_log(std::string_view needle, std::chrono::milliseconds deadline = 5s);
  std::string log() const;
  // The value of a Prometheus sample line, e.g. "tilerace_moves_total".
  double metric(std::string_view sample) const;
  // Polls /metrics until sample equals value exactly (never "at least": a wait that passes on
  // a larger value races the server).
  bool wait_for_metric(std::string_view sample, double value,
                       std::chrono::milliseconds deadline = 10s) const;

 private:
  TempDir own_data_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::uint16_t port_ = 0;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string log_;
  bool eof_ = false;
};

class WsClient {
 public:
  // Connects to ws://127.0.0.1:port/ws (or another target path), with headers added to the
  // upgrade request. receive_buffer shrinks the socket's kernel buffer (for clients that stop
  // reading). Throws when the connection or the upgrade fails, or takes longer than
  // handshake_deadline (a peer cut off).
  explicit WsClient(std::uint16_t port, std::optional<int> receive_buffer = std::nullopt,
                    const std::string& target = "/ws",
                    std::vector<std::pair<std::string, std::string>> headers = {},
                    std::chrono::milliseconds handshake_deadline = 10s);

  void send(const json& message);
  void send_text(std::string_view text);
  void send_binary(std::string_view bytes);
  // The next message, or nullopt once the connection has closed or the deadline passed.
  std::optional<json> next(std::chrono::milliseconds deadline = 5s);
  // The next message, which must have the given type (else the test fails).
  json expect(std::string_view type, std::chrono::milliseconds deadline = 5s);
  // Reads until a message of the given type arrives and returns it; the others read on the
  // way are appended to skipped when given. Fails the test if none comes.
  json until(std::string_view type, std::chrono::milliseconds deadline = 5s,
             std::vector<json>* skipped = nullptr);
  // Sends and returns the next message.
  json request(const json& message, std::chrono::milliseconds deadline = 5s);
  // Reads (discarding messages) until the server closes; the close code, or nullopt.
  std::optional<int> wait_closed(std::chrono::milliseconds deadline = 10s);
  // hello with name; returns the welcome.
  json hello(std::string_view name);

  bool closed() const { return closed_; }
  std::optional<int> close_code() const { return close_code_; }

 private:
  boost::asio::io_context ioc_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  bool closed_ = false;
  std::optional<int> close_code_;
};

struct HttpResult {
  int status = 0;
  std::string content_type;
  std::string body;
};
// The value of a Prometheus sample line in a /metrics body, e.g. "tilerace_moves_total".
std::optional<double> metric_value(std::string_view body, std::string_view sample);

// One GET (or method, with a JSON body when given) with the target sent byte for byte as given.
HttpResult http_request(std::uint16_t port, std::string_view target,
                        std::string_view method = "GET",
                        std::vector<std::pair<std::string, std::string>> headers = {},
                        std::string body = {});

// Runs command in a shell; its output (stderr too) and exit status.
std::pair<std::string, int> shell(const std::string& command);

// Whether GET /healthz on port says status ("ok", "degraded") within 10 s. In cluster mode
// "ok" also means the node is in the cluster (its first heartbeat went through).
bool health_says(std::uint16_t port, std::string_view status);

// The port of a ws://127.0.0.1:<port>/ws URL (what a node's public URL looks like here).
// What race_over says of a fresh player's rating (1500, RD 350) after a race of two fresh
// players, won or lost: the reference computation (glicko2::race).
inline nlohmann::json fresh_rating_after(bool won) {
  const std::vector<server::glicko2::Rating> both(2, server::glicko2::kStart);
  const server::glicko2::Rating after =
      server::glicko2::race(both, std::vector<int>{0, 1})[won ? 0 : 1];
  return {{"before", 1500},
          {"after", server::shown(after.rating)},
          {"rd_before", 350},
          {"rd", server::shown(after.rd)},
          {"provisional", true}};
}

inline std::uint16_t port_of(const std::string& url) {
  const auto colon = url.rfind(':');
  return static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1)));
}

}  // namespace tilerace::e2e
