#pragma once
// The operator desk (docs/operations.md, "Operators"): operators as people. Sign-in with name,
// password (argon2id) and, once enrolled, an RFC 6238 code that is used once for every node;
// sessions of kSessionMs kept in the store as hashes only, so a sign-out — one session, or an
// operator's every session by the owner — holds on every node at the next request; enrolment;
// and the owner's management of operators. Every sign-in, failed ones included, is audited.
// The caller (the API's edge) checks roles and counts failed attempts per address.
//
// Threading: callable from any thread; awaitables resume on the caller's executor. No state
// of its own beyond its parts.
#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

#include "protocol/moderation.hpp"
#include "server/base/password_hasher.hpp"
#include "server/play/moderation.hpp"
#include "server/play/operator_actor.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class OperatorDesk {
 public:
  static constexpr std::int64_t kSessionMs = 12LL * 60 * 60 * 1000;
  static constexpr std::string_view kTokenPrefix = "op.";
  static constexpr std::size_t kMaxTokenBytes = 100;

  OperatorDesk(StoreWorker& store, PasswordHasher& hasher) : store_(store), hasher_(hasher) {}

  // The signed-in operator whose session token this is, nullopt when it is none live. Throws
  // when the store cannot be reached.
  boost::asio::awaitable<std::optional<Actor>> session(std::string token, std::string address);

  // A sign-in from address: {"token",…} (200), or 401 with unauthorized (wrong name or
  // password), totp_required (no code sent, nothing counted), bad_code or code_used; failed is
  // set when the attempt counts against the address.
  boost::asio::awaitable<AdminAnswer> sign_in(protocol::OperatorSignIn in, std::string address,
                                              bool& failed);
  // Any other desk action of actor, whose role the caller checked.
  boost::asio::awaitable<AdminAnswer> act(Actor actor, protocol::DeskAction action);
  // GET me and GET operators.
  boost::asio::awaitable<AdminAnswer> me(Actor actor);
  boost::asio::awaitable<AdminAnswer> operators();

 private:
  boost::asio::awaitable<AdminAnswer> create(const Actor& actor, protocol::OperatorCreate c);
  boost::asio::awaitable<AdminAnswer> confirm(const Actor& actor, const std::string& code);

  StoreWorker& store_;
  PasswordHasher& hasher_;
};

}  // namespace tilerace::server
