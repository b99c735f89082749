#include "server/play/operator_desk.hpp"

#include <spdlog/spdlog.h>

#include "server/base/secrets.hpp"
#include "server/base/totp.hpp"
#include "server/base/unix_time.hpp"
#include "server/store/moderation_store.hpp"
#include "server/store/operator_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

constexpr std::string_view kIssuer = "tilerace";

AdminAnswer refused(int status, std::string_view error, std::string_view message) {
  return {status, protocol::encode_admin_error(error, message)};
}

protocol::OperatorView view_of(const OperatorRecord& op) {
  return {.id = op.id,
          .name = op.name,
          .role = op.role,
          .totp = !op.totp_secret.empty(),
          .created_at = op.created_at};
}

// The audit entry of something done at the desk by actor (or, signing in, by who said so).
AuditEntry desk_entry(const Actor& actor, std::string action, std::string target,
                      std::string target_name, std::string detail = {}) {
  return audit_entry(actor, std::move(action), std::move(target), std::move(target_name), "",
                     std::move(detail));
}

// The step whose code, given, secret (base32) shows now; nullopt when none within ±1.
std::optional<std::int64_t> step_of_code(const std::string& secret, const std::string& given) {
  const std::optional<std::string> key = totp::from_base32(secret);
  if (!key) return std::nullopt;
  return totp::matching_step(*key, given, unix_ms() / 1000);
}

}  // namespace

asio::awaitable<std::optional<Actor>> OperatorDesk::session(std::string token,
                                                            std::string address) {
  if (!token.starts_with(kTokenPrefix) || token.size() > kMaxTokenBytes) co_return std::nullopt;
  const std::string hash = code_hash(token);
  std::optional<OperatorRecord> op;
  const StoreWorker::JobOn<OperatorStore> find = [&](OperatorStore& s) {
    op = s.operator_of_session(hash, unix_ms());
  };
  co_await store_.run(find);
  if (!op) co_return std::nullopt;
  co_return Actor{op->id, op->name, op->role, std::move(address), hash};
}

asio::awaitable<AdminAnswer> OperatorDesk::sign_in(protocol::OperatorSignIn in, std::string address,
                                                   bool& failed) {
  const std::string key = protocol::operator_name_key(in.name).value_or("");
  std::optional<OperatorRecord> op;
  const StoreWorker::JobOn<OperatorStore> find = [&](OperatorStore& s) {
    op = s.operator_named(key);
  };
  co_await store_.run(find);
  const std::string stored = op ? op->password_hash : "";
  const bool matches = co_await hasher_.verify(in.password, stored);
  // Who is signing in, as far as the audit log can say.
  const Actor who{op ? op->id : "", op ? op->name : in.name, op ? op->role : "", address, ""};
  const auto fail = [&](std::string why) -> asio::awaitable<void> {
    failed = true;
    spdlog::info("operator sign-in failed: '{}' from {}: {}", who.name, address, why);
    const AuditEntry entry = desk_entry(who, "sign_in_failed", who.id, who.name, std::move(why));
    const StoreWorker::JobOn<ModerationStore> note = [&entry](ModerationStore& s) {
      s.audit(entry);
    };
    co_await store_.run(note);
  };
  if (!op || !matches) {
    co_await fail("wrong name or password");
    co_return refused(401, "unauthorized", "wrong name or password");
  }
  if (!op->totp_secret.empty()) {
    if (in.totp.empty()) {
      co_return refused(401, "totp_required", "the code of your authenticator app is required");
    }
    const std::optional<std::int64_t> step = step_of_code(op->totp_secret, in.totp);
    bool fresh = false;
    if (step) {
      const StoreWorker::JobOn<OperatorStore> use = [&](OperatorStore& s) {
        fresh = s.use_totp_step(op->id, *step);
      };
      co_await store_.run(use);
    }
    if (!step) {
      co_await fail("wrong authenticator code");
      co_return refused(401, "bad_code", "that is not your authenticator's code just now");
    }
    if (!fresh) {
      co_await fail("authenticator code used before");
      co_return refused(401, "code_used", "that code was used already: wait for the next one");
    }
  }
  const std::string token = std::string(kTokenPrefix) + random_hex(24);
  const std::int64_t now = unix_ms();
  const OperatorSessionRecord session{code_hash(token), op->id, now, now + kSessionMs, address};
  const AuditEntry entry = desk_entry(who, "sign_in", op->id, op->name);
  const StoreWorker::JobOn<ModerationStore, OperatorStore> open = [&](ModerationStore& moderation,
                                                                      OperatorStore& operators) {
    operators.add_operator_session(session);
    moderation.audit(entry);
  };
  co_await store_.run(open);
  co_return AdminAnswer{200,
                        protocol::encode_operator_session(token, session.expires_at, view_of(*op))};
}

asio::awaitable<AdminAnswer> OperatorDesk::act(Actor actor, protocol::DeskAction action) {
  if (auto* c = std::get_if<protocol::OperatorCreate>(&action)) {
    co_return co_await create(actor, std::move(*c));
  }
  if (const auto* c = std::get_if<protocol::TotpConfirm>(&action)) {
    co_return co_await confirm(actor, c->code);
  }
  if (std::holds_alternative<protocol::OperatorSignOut>(action)) {
    const AuditEntry entry = desk_entry(actor, "sign_out", actor.id, actor.name);
    const StoreWorker::JobOn<ModerationStore, OperatorStore> end = [&](ModerationStore& moderation,
                                                                       OperatorStore& operators) {
      operators.end_operator_session(actor.session);
      moderation.audit(entry);
    };
    co_await store_.run(end);
    co_return AdminAnswer{200, protocol::encode_admin_done()};
  }
  if (std::holds_alternative<protocol::TotpEnrol>(action)) {
    const std::string secret = totp::new_secret();
    const AuditEntry entry = desk_entry(actor, "totp_enrol", actor.id, actor.name);
    const StoreWorker::JobOn<ModerationStore, OperatorStore> save = [&](ModerationStore& moderation,
                                                                        OperatorStore& operators) {
      operators.set_totp_pending(actor.id, secret);
      moderation.audit(entry);
    };
    co_await store_.run(save);
    co_return AdminAnswer{
        200, protocol::encode_totp_enrolment(secret, totp::uri(kIssuer, actor.name, secret))};
  }
  // The owner's: an operator's every session ended, or the operator removed.
  const bool remove = std::holds_alternative<protocol::OperatorRemove>(action);
  const std::string id = remove ? std::get<protocol::OperatorRemove>(action).operator_id
                                : std::get<protocol::OperatorSignOutEverywhere>(action).operator_id;
  if (remove && id == actor.id) co_return refused(409, "not_allowed", "you cannot remove yourself");
  std::optional<OperatorSummary> target;
  std::int64_t ended = 0;
  const StoreWorker::JobOn<ModerationStore, OperatorStore> change = [&](ModerationStore& moderation,
                                                                        OperatorStore& operators) {
    for (OperatorSummary& o : operators.operators(unix_ms())) {
      if (o.id == id) target = std::move(o);
    }
    if (!target) return;
    ended = target->sessions;
    if (remove) {
      operators.remove_operator(id);
    } else {
      operators.end_operator_sessions(id);
    }
    moderation.audit(desk_entry(actor, remove ? "remove_operator" : "sign_out_operator", id,
                                target->name,
                                std::to_string(ended) + (ended == 1 ? " session" : " sessions")));
  };
  co_await store_.run(change);
  if (!target) co_return refused(404, "no_such_operator", "no operator with that id");
  co_return AdminAnswer{200, protocol::encode_admin_done()};
}

asio::awaitable<AdminAnswer> OperatorDesk::create(const Actor& actor, protocol::OperatorCreate c) {
  const std::string hash = co_await hasher_.hash(c.password);
  const OperatorRecord op{.id = random_hex(8),
                          .name = c.name,
                          .role = c.role,
                          .password_hash = hash,
                          .created_at = unix_ms()};
  const std::string key = protocol::operator_name_key(c.name).value_or(c.name);
  bool added = false;
  const StoreWorker::JobOn<ModerationStore, OperatorStore> save = [&](ModerationStore& moderation,
                                                                      OperatorStore& operators) {
    added = operators.add_operator(op, key);
    if (added)
      moderation.audit(desk_entry(actor, "create_operator", op.id, op.name, "role " + op.role));
  };
  co_await store_.run(save);
  if (!added) co_return refused(409, "name_taken", "another operator has that name");
  co_return AdminAnswer{200, protocol::encode_operator_created(view_of(op))};
}

asio::awaitable<AdminAnswer> OperatorDesk::confirm(const Actor& actor, const std::string& code) {
  const std::string key = protocol::operator_name_key(actor.name).value_or(actor.name);
  std::optional<OperatorRecord> op;
  const StoreWorker::JobOn<OperatorStore> find = [&](OperatorStore& s) {
    op = s.operator_named(key);
  };
  co_await store_.run(find);
  if (!op || op->totp_pending.empty()) {
    co_return refused(409, "not_enrolling", "start an enrolment first (totp_enrol)");
  }
  const std::optional<std::int64_t> step = step_of_code(op->totp_pending, code);
  if (!step) co_return refused(400, "bad_code", "that is not the new secret's code just now");
  bool confirmed = false;
  const AuditEntry entry = desk_entry(actor, "totp_confirm", actor.id, actor.name);
  const StoreWorker::JobOn<ModerationStore, OperatorStore> save = [&](ModerationStore& moderation,
                                                                      OperatorStore& operators) {
    confirmed = operators.confirm_totp(actor.id, *step);
    if (confirmed) moderation.audit(entry);
  };
  co_await store_.run(save);
  if (!confirmed) co_return refused(400, "code_used", "that code was used already");
  co_return AdminAnswer{200, protocol::encode_admin_done()};
}

asio::awaitable<AdminAnswer> OperatorDesk::me(Actor actor) {
  const std::string key = protocol::operator_name_key(actor.name).value_or(actor.name);
  std::optional<OperatorRecord> op;
  const StoreWorker::JobOn<OperatorStore> find = [&](OperatorStore& s) {
    op = s.operator_named(key);
  };
  co_await store_.run(find);
  if (!op) co_return refused(401, "unauthorized", "sign in again");
  co_return AdminAnswer{200, protocol::encode_operator_me(view_of(*op))};
}

asio::awaitable<AdminAnswer> OperatorDesk::operators() {
  std::vector<protocol::OperatorView> views;
  const StoreWorker::JobOn<OperatorStore> load = [&](OperatorStore& s) {
    for (OperatorSummary& o : s.operators(unix_ms())) {
      views.push_back({std::move(o.id), std::move(o.name), std::move(o.role), o.totp, o.created_at,
                       o.sessions, o.last_sign_in});
    }
  };
  co_await store_.run(load);
  co_return AdminAnswer{200, protocol::encode_operators(views)};
}

}  // namespace tilerace::server
