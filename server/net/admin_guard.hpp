#pragma once
// Who may reach the operator API (docs/operations.md, "Operators"), at the edge: the owner's
// bootstrap token read from --admin-token-file (compared in constant time, never logged), and a
// count of each address's failed attempts — a wrong token or session, a failed sign-in. An
// address with kMaxFailures of them in the last minute is refused (429) without a comparison
// until the minute is over. Thread-safe.
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace tilerace::server {

// The credential of an Authorization header of the Bearer scheme (the scheme in any case,
// RFC 7235 §2.1), else empty.
std::string_view bearer_credential(std::string_view authorization);

class AdminGuard {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kMinTokenBytes = 32;
  static constexpr int kMaxFailures = 10;

  // The token in file (white space around it dropped); nullopt, and why in error, when the file
  // cannot be read or the token is shorter than kMinTokenBytes.
  static std::optional<std::string> read_token(const std::string& path, std::string& error);
  explicit AdminGuard(std::string token) : token_(std::move(token)) {}

  // Whether address used up its failures of the last minute.
  bool limited(const std::string& address, Clock::time_point now = Clock::now());
  // Counts a failed attempt from address.
  void failed(const std::string& address, Clock::time_point now = Clock::now());
  // Whether credential is the bootstrap token (constant time over the token).
  bool is_bootstrap(std::string_view credential) const;

 private:
  std::string token_;
  std::mutex mutex_;
  std::map<std::string, std::deque<Clock::time_point>> failures_;  // by address, oldest first
};

}  // namespace tilerace::server
