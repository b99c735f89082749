#pragma once
// The operator API as the e2e tests use it (docs/operations.md, "Operators"): the owner's
// bootstrap token in a file, and operators made with it and signed in.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>

#include "tests/e2e/harness.hpp"

namespace tilerace::e2e {

inline const std::string kOwnerToken = "operator-token-for-the-tests-0123456789-abcdef";
inline const std::string kOperatorPassword = "desk-password-8137";

// A file holding token, in dir.
std::string token_file(const TempDir& dir, const std::string& token = kOwnerToken);

// A caller of a server's operator API with a credential: an operator's session token, or the
// owner's token.
struct Operator {
  std::uint16_t port;
  std::string token = kOwnerToken;

  HttpResult get(const std::string& path) const;
  // The action's status and JSON answer.
  std::pair<int, nlohmann::json> post(const std::string& action,
                                      const nlohmann::json& body = nlohmann::json::object()) const;

  // An operator called name with role, made with the owner's token on port, then signed in
  // there (kOperatorPassword). Fails the test if either step is refused.
  static Operator signed_in(std::uint16_t port, const std::string& name, const std::string& role);
};

// POST sign_in on port: status and answer.
std::pair<int, nlohmann::json> operator_sign_in(std::uint16_t port, const nlohmann::json& body);

}  // namespace tilerace::e2e
