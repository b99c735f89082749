#include "tests/e2e/harness.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <sstream>

namespace tilerace::e2e {

namespace {

// Every secret the clients of this process handled: passwords sent, tokens and link codes
// received. No server log may hold one (checked as each ServerProcess ends).
std::mutex secrets_mutex;
std::vector<std::string> secrets;

void remember_secret(const std::string& secret) {
  if (secret.size() < 8) return;  // too short to tell apart from ordinary log text
  std::lock_guard lock(secrets_mutex);
  secrets.push_back(secret);
}

void remember_secrets_of(const json& message, bool sent) {
  if (!message.is_object()) return;
  const auto text = [&](const char* key) -> std::string {
    const auto it = message.find(key);
    return it != message.end() && it->is_string() ? it->get<std::string>() : "";
  };
  if (sent) {
    remember_secret(text("password"));
    remember_secret(text("old_password"));
  } else if (text("type") == "welcome") {
    remember_secret(text("token"));
  } else if (text("type") == "link_code") {
    remember_secret(text("code"));
  }
}

}  // namespace

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

ServerProcess::ServerProcess(std::vector<std::string> extra_args, std::filesystem::path web_root,
                             std::optional<std::filesystem::path> data) {
  // TILERACE_SERVER in the environment runs another build (the copy make chaos pins, so that
  // a rebuild meanwhile does not change the nodes it restarts).
  const char* binary = std::getenv("TILERACE_SERVER");
  std::vector<std::string> args = {binary != nullptr ? binary : TILERACE_BINARY,
                                   "--host",
                                   "127.0.0.1",
                                   "--port",
                                   "0",
                                   "--data",
                                   data.value_or(own_data_.path()).string(),
                                   "--web-root",
                                   web_root.string()};
  // Two network threads unless the test says how many.
  if (std::find(extra_args.begin(), extra_args.end(), "--threads") == extra_args.end()) {
    args.insert(args.end(), {"--threads", "2"});
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    // Nothing else of the test's goes with it (a relay's sockets would outlive their close).
    ::close_range(3, ~0U, 0);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  out_fd_ = fds[0];
  reader_ = std::thread([this] {
    char chunk[4096];
    for (;;) {
      const ssize_t n = ::read(out_fd_, chunk, sizeof chunk);
      std::lock_guard lock(mutex_);
      if (n <= 0) {
        eof_ = true;
        changed_.notify_all();
        return;
      }
      log_.append(chunk, static_cast<std::size_t>(n));
      changed_.notify_all();
    }
  });
  // "listening on http://127.0.0.1:PORT (web root …" (https with --tls-cert).
  const std::string marker = "listening on ", host = "://127.0.0.1:";
  if (!wait_for_log(" (web root ", 10s)) {
    throw std::runtime_error("server did not start:\n" + log());
  }
  const std::string text = log();
  const auto at = text.find(host, text.find(marker));
  if (at == std::string::npos) throw std::runtime_error("server listens elsewhere:\n" + text);
  port_ = static_cast<std::uint16_t>(std::stoi(text.substr(at + host.size())));
}

ServerProcess::~ServerProcess() {
  if (::testing::Test::HasFailure()) {
    int status = 0;
    if (pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) {
      std::cerr << "server exited: " << (WIFSIGNALED(status) ? "signal " : "status ")
                << (WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status)) << "\n";
      pid_ = -1;
    }
    std::cerr << "--- server log ---\n" << log() << "---\n";
  }
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (reader_.joinable()) reader_.join();
  if (out_fd_ >= 0) ::close(out_fd_);
  const std::string written = log();
  std::lock_guard lock(secrets_mutex);
  for (const std::string& secret : secrets) {
    if (written.find(secret) != std::string::npos) {
      ADD_FAILURE() << "the server's log holds a secret (a password, token or link code)";
    }
  }
}

std::optional<int> ServerProcess::stop(int signal, std::chrono::milliseconds deadline) {
  ::kill(pid_, signal);
  // The reader sees EOF when the process (the pipe's only writer) exits.
  {
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, deadline, [this] { return eof_; })) return std::nullopt;
  }
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool ServerProcess::wait_for_log(std::string_view needle, std::chrono::milliseconds deadline) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, deadline, [&] {
    return log_.find(needle) != std::string::npos || eof_;
  }) && log_.find(needle) != std::string::npos;
}

std::string ServerProcess::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::optional<double> metric_value(std::string_view body, std::string_view sample) {
  std::istringstream lines{std::string(body)};
  std::string line;
  while (std::getline(lines, line)) {
    if (line.size() > sample.size() && line.compare(0, sample.size(), sample) == 0 &&
        line[sample.size()] == ' ') {
      return std::stod(line.substr(sample.size() + 1));
    }
  }
  return std::nullopt;
}

double ServerProcess::metric(std::string_view sample) const {
  const std::optional<double> value = metric_value(http_request(port_, "/metrics").body, sample);
  if (!value) throw std::runtime_error("no metric " + std::string(sample));
  return *value;
}

bool ServerProcess::wait_for_metric(std::string_view sample, double value,
                                    std::chrono::milliseconds deadline) const {
  return testing::eventually([&] { return metric(sample) == value; }, deadline);
}

WsClient::WsClient(std::uint16_t port, std::optional<int> receive_buffer, const std::string& target,
                   std::vector<std::pair<std::string, std::string>> headers,
                   std::chrono::milliseconds handshake_deadline)
    : ws_(ioc_) {
  ws_.set_option(beast::websocket::stream_base::decorator(
      [headers = std::move(headers)](beast::websocket::request_type& req) {
        for (const auto& [name, value] : headers) req.set(name, value);
      }));
  auto& socket = beast::get_lowest_layer(ws_).socket();
  socket.open(tcp::v4());
  ::fcntl(socket.native_handle(), F_SETFD, FD_CLOEXEC);  // not inherited by servers started later
  if (receive_buffer) socket.set_option(asio::socket_base::receive_buffer_size(*receive_buffer));
  socket.connect({asio::ip::make_address("127.0.0.1"), port});
  beast::error_code ec;
  beast::get_lowest_layer(ws_).expires_after(handshake_deadline);
  ws_.async_handshake("127.0.0.1:" + std::to_string(port), target,
                      [&](beast::error_code e) { ec = e; });
  ioc_.run();
  beast::get_lowest_layer(ws_).expires_never();
  if (ec) throw beast::system_error(ec, "websocket handshake");
}

void WsClient::send(const json& message) {
  remember_secrets_of(message, true);
  send_text(message.dump());
}

void WsClient::send_text(std::string_view text) {
  ws_.text(true);
  ws_.write(asio::buffer(text.data(), text.size()));
}

void WsClient::send_binary(std::string_view bytes) {
  ws_.binary(true);
  ws_.write(asio::buffer(bytes.data(), bytes.size()));
}

std::optional<json> WsClient::next(std::chrono::milliseconds deadline) {
  if (closed_) return std::nullopt;
  buffer_.clear();
  beast::error_code ec;
  beast::get_lowest_layer(ws_).expires_after(deadline);
  ws_.async_read(buffer_, [&](beast::error_code e, std::size_t) { ec = e; });
  ioc_.restart();
  ioc_.run();
  beast::get_lowest_layer(ws_).expires_never();
  if (ec) {
    closed_ = true;
    if (ec == websocket::error::closed) close_code_ = ws_.reason().code;
    return std::nullopt;
  }
  json message = json::parse(beast::buffers_to_string(buffer_.cdata()));
  remember_secrets_of(message, false);
  return message;
}

json WsClient::expect(std::string_view type, std::chrono::milliseconds deadline) {
  const auto m = next(deadline);
  if (!m) {
    ADD_FAILURE() << "expected " << type << ", connection ended (close code "
                  << close_code_.value_or(-1) << ")";
    return json::object();
  }
  EXPECT_EQ((*m)["type"], type) << m->dump();
  return *m;
}

json WsClient::until(std::string_view type, std::chrono::milliseconds deadline,
                     std::vector<json>* skipped) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    const auto m = left > 0ms ? next(left) : std::nullopt;
    if (!m) {
      ADD_FAILURE() << "no " << type << " arrived (close code " << close_code_.value_or(-1) << ")";
      return json::object();
    }
    if ((*m)["type"] == type) return *m;
    if (skipped != nullptr) skipped->push_back(*m);
  }
}

json WsClient::request(const json& message, std::chrono::milliseconds deadline) {
  send(message);
  const auto m = next(deadline);
  if (!m) {
    ADD_FAILURE() << "no reply to " << message.dump();
    return json::object();
  }
  return *m;
}

std::optional<int> WsClient::wait_closed(std::chrono::milliseconds deadline) {
  const auto until = std::chrono::steady_clock::now() + deadline;
  while (!closed_) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left <= 0ms) break;
    next(left);
  }
  return close_code_;
}

json WsClient::hello(std::string_view name) { return request({{"type", "hello"}, {"name", name}}); }

HttpResult http_request(std::uint16_t port, std::string_view target, std::string_view method,
                        std::vector<std::pair<std::string, std::string>> headers,
                        std::string body) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) req.set(name, value);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = std::move(body);
    req.prepare_payload();
  }
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.skip(method == "HEAD");
  beast::error_code ec;
  http::read(stream, buffer, parser, ec);
  if (ec) return {0, "", ec.message()};
  const auto& res = parser.get();
  return {static_cast<int>(res.result_int()), std::string(res[http::field::content_type]),
          res.body()};
}

std::pair<std::string, int> shell(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {"popen failed", -1};
  std::string out;
  char chunk[4096];
  while (std::size_t n = std::fread(chunk, 1, sizeof chunk, pipe)) out.append(chunk, n);
  const int status = ::pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

bool health_says(std::uint16_t port, std::string_view status) {
  return testing::eventually(
      [&] {
        const HttpResult h = http_request(port, "/healthz");
        return h.status == 200 && json::parse(h.body)["status"] == status;
      },
      10s);
}

}  // namespace tilerace::e2e
