#pragma once
// Who may use the operator API (docs/operations.md, "Moderation"): a request must carry
// `Authorization: Bearer <token>` (the scheme in any case), the token read from --admin-token-file.
// The token is compared in constant time and never logged. An address with kMaxFailures failed
// attempts in the last minute is refused (429) without a comparison until the minute is over.
// Thread-safe.
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace tilerace::server {

class AdminGuard {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kMinTokenBytes = 32;
  static constexpr int kMaxFailures = 10;

  // The token in file (white space around it dropped); nullopt, and why in error, when the file
  // cannot be read or the token is shorter than kMinTokenBytes.
  static std::optional<std::string> read_token(const std::string& path, std::string& error);
  explicit AdminGuard(std::string token) : token_(std::move(token)) {}

  enum class Verdict { allowed, unauthorized, limited };
  // Whether a request from address with this Authorization header (maybe empty) may go on.
  Verdict check(const std::string& address, std::string_view authorization,
                Clock::time_point now = Clock::now());

 private:
  std::string token_;
  std::mutex mutex_;
  std::map<std::string, std::deque<Clock::time_point>> failures_;  // by address, oldest first
};

}  // namespace tilerace::server
