#include "server/net/admin_guard.hpp"

#include <openssl/crypto.h>
#include <boost/beast/core/string.hpp>

#include <fstream>
#include <sstream>

namespace tilerace::server {

namespace {

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

}  // namespace

std::optional<std::string> AdminGuard::read_token(const std::string& path, std::string& error) {
  std::ifstream file(path);
  if (!file) {
    error = "--admin-token-file " + path + ": cannot read it";
    return std::nullopt;
  }
  std::stringstream text;
  text << file.rdbuf();
  std::string token = trimmed(text.str());
  if (token.size() < kMinTokenBytes) {
    error = "--admin-token-file " + path + ": the token must be at least " +
            std::to_string(kMinTokenBytes) + " bytes";
    return std::nullopt;
  }
  return token;
}

std::string_view bearer_credential(std::string_view authorization) {
  constexpr std::string_view kScheme = "Bearer ";
  return boost::beast::iequals(authorization.substr(0, kScheme.size()), kScheme)
             ? authorization.substr(kScheme.size())
             : std::string_view();
}

bool AdminGuard::limited(const std::string& address, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  const auto found = failures_.find(address);
  if (found == failures_.end()) return false;
  auto& failed = found->second;
  while (!failed.empty() && now - failed.front() >= std::chrono::minutes(1)) failed.pop_front();
  if (failed.empty()) {
    failures_.erase(found);
    return false;
  }
  return static_cast<int>(failed.size()) >= kMaxFailures;
}

void AdminGuard::failed(const std::string& address, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (failures_.size() > 10'000) {  // many addresses: forget those whose minute is over
    std::erase_if(failures_, [now](const auto& entry) {
      return entry.second.empty() || now - entry.second.back() >= std::chrono::minutes(1);
    });
  }
  failures_[address].push_back(now);
}

bool AdminGuard::is_bootstrap(std::string_view credential) const {
  // A credential of another length is compared with the token itself, and fails on the length.
  const std::string_view against = credential.size() == token_.size() ? credential : token_;
  return CRYPTO_memcmp(against.data(), token_.data(), token_.size()) == 0 &&
         credential.size() == token_.size();
}

}  // namespace tilerace::server
