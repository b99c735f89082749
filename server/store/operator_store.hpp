#pragma once
// The store's operators of the console (docs/operations.md, "Operators"): their accounts, TOTP
// and sessions, kept as hashes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilerace::server {

// An operator of the console (docs/operations.md, "Operators").
struct OperatorRecord {
  std::string id;
  std::string name;
  std::string role;  // owner, moderator or viewer
  std::string password_hash;
  std::string totp_secret;     // base32; empty until enrolled
  std::string totp_pending;    // an enrolment not confirmed yet
  std::int64_t totp_step = 0;  // the last 30-second step whose code was used
  std::int64_t created_at = 0;
};
struct OperatorSummary {
  std::string id, name, role;
  bool totp = false;
  std::int64_t created_at = 0;
  std::int64_t sessions = 0;      // live now
  std::int64_t last_sign_in = 0;  // the newest session's start; 0: never
};
struct OperatorSessionRecord {
  std::string token_hash;
  std::string operator_id;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::string address;
};

class OperatorStore {
 public:
  // Operators (docs/operations.md, "Operators"). False, nothing written, when the key is taken.
  virtual bool add_operator(const OperatorRecord& op, std::string_view name_key) = 0;
  virtual std::optional<OperatorRecord> operator_named(std::string_view name_key) = 0;
  // Every operator, by name, with their sessions live at now.
  virtual std::vector<OperatorSummary> operators(std::int64_t now) = 0;
  virtual void set_totp_pending(std::string_view operator_id, std::string_view secret) = 0;
  // The pending secret becomes the one in use, its confirming code's step used; false when
  // nothing is pending or that step (or a later one) was used.
  virtual bool confirm_totp(std::string_view operator_id, std::int64_t step) = 0;
  // Uses a code's step, once for every node: false when it (or a later one) was used.
  virtual bool use_totp_step(std::string_view operator_id, std::int64_t step) = 0;
  virtual void add_operator_session(const OperatorSessionRecord& session) = 0;
  // The operator whose session has this hash, unless it expired by now or was ended.
  virtual std::optional<OperatorRecord> operator_of_session(std::string_view token_hash,
                                                            std::int64_t now) = 0;
  virtual void end_operator_session(std::string_view token_hash) = 0;
  // Ends every session of operator_id (their sign-out everywhere); how many there were.
  virtual std::int64_t end_operator_sessions(std::string_view operator_id) = 0;
  // Removes operator_id and their sessions; false when there was none.
  virtual bool remove_operator(std::string_view operator_id) = 0;

 protected:
  ~OperatorStore() = default;
};

}  // namespace tilerace::server
