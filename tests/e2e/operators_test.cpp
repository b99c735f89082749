// Operators as people, with the real binary (docs/operations.md, "Operators"): made by the
// owner's bootstrap token, signed in with name and password (and TOTP once enrolled), each
// route needing its role, every action and sign-in audited in their name, sign-outs and
// removals holding at once, on both stores.
#include <gtest/gtest.h>

#include <chrono>

#include "server/base/totp.hpp"
#include "tests/e2e/operator_client.hpp"
#include "tests/e2e/race_client.hpp"
#include "tests/pg_cluster.hpp"

namespace tilerace::e2e {
namespace {

using json = nlohmann::json;

std::int64_t unix_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void roles_and_audit(std::vector<std::string> args) {
  TempDir dir;
  args.insert(args.end(), {"--admin-token-file", token_file(dir)});
  ServerProcess server(args);
  const Operator owner_token{server.port()};
  const Operator mia = Operator::signed_in(server.port(), "mia", "moderator");
  const Operator vic = Operator::signed_in(server.port(), "vic", "viewer");
  // Names are plain ASCII, folded: no second "MIA", nothing else.
  EXPECT_EQ(owner_token
                .post("create_operator",
                      {{"name", "MIA"}, {"password", kOperatorPassword}, {"role", "viewer"}})
                .first,
            409);
  EXPECT_EQ(owner_token
                .post("create_operator",
                      {{"name", "mіa"}, {"password", kOperatorPassword}, {"role", "viewer"}})
                .first,
            400);
  EXPECT_EQ(owner_token
                .post("create_operator",
                      {{"name", "root"}, {"password", kOperatorPassword}, {"role", "god"}})
                .first,
            400);

  Racer ann(server.port(), "ann-o");
  // The viewer reads but cannot act; the moderator acts but cannot manage operators.
  EXPECT_EQ(vic.post("ban", {{"player", ann.id}, {"reason", "spam"}}).first, 403);
  EXPECT_EQ(vic.post("create_operator",
                     {{"name", "eve"}, {"password", kOperatorPassword}, {"role", "owner"}})
                .first,
            403);
  EXPECT_EQ(mia.post("create_operator",
                     {{"name", "eve"}, {"password", kOperatorPassword}, {"role", "owner"}})
                .first,
            403);
  EXPECT_EQ(mia.post("ban", {{"player", ann.id}, {"reason", "spam"}}).first, 200);
  EXPECT_EQ(ann.ws.wait_closed(), 4003);
  EXPECT_EQ(json::parse(vic.get("me").body)["operator"]["role"], "viewer");
  EXPECT_EQ(json::parse(vic.get("players/" + ann.id).body)["ban_reason"], "spam");

  // A wrong password is refused as an unknown name is, and audited with where it came from.
  const auto [wrong, why] =
      operator_sign_in(server.port(), {{"name", "mia"}, {"password", "not-her-password"}});
  EXPECT_EQ(wrong, 401);
  EXPECT_EQ(why["error"], "unauthorized");
  EXPECT_EQ(operator_sign_in(server.port(), {{"name", "nobody"}, {"password", "not-a-password"}})
                .second["error"],
            "unauthorized");
  const json log = json::parse(vic.get("audit").body);
  ASSERT_GE(log.size(), 3u) << log.dump();
  EXPECT_EQ(log[0]["action"], "sign_in_failed");
  EXPECT_EQ(log[0]["actor"], "nobody");
  EXPECT_EQ(log[1]["action"], "sign_in_failed");
  EXPECT_EQ(log[1]["actor"], "mia");
  EXPECT_EQ(log[1]["address"], "127.0.0.1");
  EXPECT_EQ(log[1]["detail"], "wrong name or password");
  EXPECT_EQ(log[2]["action"], "ban");
  EXPECT_EQ(log[2]["actor"], "mia");
  EXPECT_EQ(log[2]["role"], "moderator");
  EXPECT_EQ(log[2]["target"], ann.id);
  EXPECT_EQ(log[2]["target_name"], "ann-o");
  EXPECT_EQ(log[2]["reason"], "spam");
  EXPECT_EQ(log[2]["address"], "127.0.0.1");

  // Who is signed in; the owner signs mia out everywhere and removes vic: both at once.
  json operators = json::parse(owner_token.get("operators").body);
  ASSERT_EQ(operators.size(), 2u) << operators.dump();
  EXPECT_EQ(operators[0]["name"], "mia");
  EXPECT_EQ(operators[0]["sessions"], 1);
  EXPECT_GT(operators[0]["last_sign_in"].get<std::int64_t>(), 0);
  const std::string mia_id = operators[0]["id"], vic_id = operators[1]["id"];
  EXPECT_EQ(owner_token.post("sign_out_operator", {{"operator", mia_id}}).first, 200);
  EXPECT_EQ(mia.get("me").status, 401);
  EXPECT_EQ(owner_token.post("remove_operator", {{"operator", vic_id}}).first, 200);
  EXPECT_EQ(owner_token.post("remove_operator", {{"operator", vic_id}}).first, 404);
  EXPECT_EQ(vic.get("audit").status, 401);
  EXPECT_EQ(
      operator_sign_in(server.port(), {{"name", "vic"}, {"password", kOperatorPassword}}).first,
      401);
  operators = json::parse(owner_token.get("operators").body);
  ASSERT_EQ(operators.size(), 1u);
  EXPECT_EQ(operators[0]["sessions"], 0);
  // A session's own sign-out.
  const auto [again, session] =
      operator_sign_in(server.port(), {{"name", "mia"}, {"password", kOperatorPassword}});
  ASSERT_EQ(again, 200);
  const Operator mia_again{server.port(), session["token"]};
  EXPECT_EQ(mia_again.post("sign_out").first, 200);
  EXPECT_EQ(mia_again.get("me").status, 401);
  EXPECT_EQ(server.log().find(session["token"].get<std::string>()), std::string::npos);

  // Failed attempts count against the address: after ten a minute even mia's password waits.
  int status = 0;
  for (int i = 0; i < 10 && status != 429; ++i) {
    status =
        operator_sign_in(server.port(), {{"name", "mia"}, {"password", "wrong-again-1"}}).first;
  }
  EXPECT_EQ(status, 429);
  EXPECT_EQ(
      operator_sign_in(server.port(), {{"name", "mia"}, {"password", kOperatorPassword}}).first,
      429);
}

TEST(Operators, AModeratorBansAViewerCannotAndTheAuditNamesThem) { roles_and_audit({}); }

TEST(Operators, AModeratorBansAViewerCannotAndTheAuditNamesThemOnPostgresql) {
  roles_and_audit({"--database", tilerace::testing::PgCluster::shared().create_database()});
}

// The code an authenticator app shows for secret (base32) at step.
std::string code_at(const std::string& secret, std::int64_t step) {
  return server::totp::code(server::totp::from_base32(secret).value(), step);
}

TEST(Operators, TotpIsEnrolledThenAskedForAndACodeIsUsedOnce) {
  TempDir dir;
  ServerProcess server({"--admin-token-file", token_file(dir)});
  const Operator ola = Operator::signed_in(server.port(), "ola", "owner");
  const auto [status, enrolment] = ola.post("totp_enrol");
  ASSERT_EQ(status, 200) << enrolment;
  const std::string secret = enrolment["secret"];
  EXPECT_EQ(secret.size(), 32u);
  EXPECT_EQ(enrolment["uri"], "otpauth://totp/tilerace:ola?secret=" + secret +
                                  "&issuer=tilerace&algorithm=SHA1&digits=6&period=30");
  // Not asked for before it is confirmed; a wrong code confirms nothing.
  const std::int64_t step = server::totp::step_of(unix_seconds());
  const std::string wrong = code_at(secret, step + 5);
  EXPECT_EQ(ola.post("totp_confirm", {{"code", wrong}}).second["error"], "bad_code");
  EXPECT_EQ(
      operator_sign_in(server.port(), {{"name", "ola"}, {"password", kOperatorPassword}}).first,
      200);
  EXPECT_EQ(ola.post("totp_confirm", {{"code", code_at(secret, step)}}).first, 200);
  EXPECT_TRUE(json::parse(ola.get("me").body)["operator"]["totp"].get<bool>());

  const json sign_in{{"name", "ola"}, {"password", kOperatorPassword}};
  EXPECT_EQ(operator_sign_in(server.port(), sign_in).second["error"], "totp_required");
  json with_code = sign_in;
  with_code["totp"] = code_at(secret, step);  // used by the confirmation
  EXPECT_EQ(operator_sign_in(server.port(), with_code).second["error"], "code_used");
  with_code["totp"] = code_at(secret, step + 1);  // the next step's, within ±1
  const auto [signed_in, session] = operator_sign_in(server.port(), with_code);
  EXPECT_EQ(signed_in, 200) << session;
  EXPECT_TRUE(session["operator"]["totp"].get<bool>());
  EXPECT_EQ(operator_sign_in(server.port(), with_code).second["error"], "code_used");
  with_code["totp"] = wrong;
  EXPECT_EQ(operator_sign_in(server.port(), with_code).second["error"], "bad_code");
  EXPECT_EQ(server.log().find(secret), std::string::npos);
}

}  // namespace
}  // namespace tilerace::e2e
