#include "tests/e2e/operator_client.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace tilerace::e2e {

using json = nlohmann::json;

std::string token_file(const TempDir& dir, const std::string& token) {
  const auto path = dir.path() / "admin-token";
  std::ofstream(path) << token << "\n";
  return path.string();
}

HttpResult Operator::get(const std::string& path) const {
  return http_request(port, "/admin/api/" + path, "GET", {{"Authorization", "Bearer " + token}});
}

std::pair<int, json> Operator::post(const std::string& action, const json& body) const {
  const HttpResult r = http_request(port, "/admin/api/" + action, "POST",
                                    {{"Authorization", "Bearer " + token}}, body.dump());
  return {r.status, json::parse(r.body, nullptr, false)};
}

std::pair<int, json> operator_sign_in(std::uint16_t port, const json& body) {
  const HttpResult r = http_request(port, "/admin/api/sign_in", "POST", {}, body.dump());
  return {r.status, json::parse(r.body, nullptr, false)};
}

Operator Operator::signed_in(std::uint16_t port, const std::string& name, const std::string& role) {
  const auto [created, answer] = Operator{port}.post(
      "create_operator", {{"name", name}, {"password", kOperatorPassword}, {"role", role}});
  EXPECT_EQ(created, 200) << answer;
  const auto [status, session] =
      operator_sign_in(port, {{"name", name}, {"password", kOperatorPassword}});
  EXPECT_EQ(status, 200) << session;
  return Operator{port, session.value("token", "")};
}

}  // namespace tilerace::e2e
