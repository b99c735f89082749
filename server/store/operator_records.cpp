// The Recorder's operators (docs/operations.md, "Operators"): their accounts, TOTP secrets and
// the steps whose codes were used, and their sessions, kept as hashes. Every node reads the
// same rows, so a sign-out or a used code holds on every node at once.
#include "server/store/record_rows.hpp"
#include "server/store/recorder.hpp"

namespace tilerace::server {

namespace {

// The columns of operator_by_key (and operator_of_session), row i.
OperatorRecord operator_row(const SqlResult& r, std::size_t i) {
  return {.id = r.string(i, 0),
          .name = r.string(i, 1),
          .role = r.string(i, 2),
          .password_hash = r.string(i, 3),
          .totp_secret = r.string(i, 4),
          .totp_pending = r.string(i, 5),
          .totp_step = r.int64(i, 6),
          .created_at = r.int64(i, 7)};
}

std::optional<OperatorRecord> first_operator(const SqlResult& r) {
  if (r.rows() == 0) return std::nullopt;
  return operator_row(r, 0);
}

}  // namespace

bool Recorder::add_operator(const OperatorRecord& op, std::string_view name_key) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return sql(Sql::insert_operator, op.id, op.name, name_key, op.role, op.password_hash,
               op.created_at)
               .changed() == 1;
  });
}

std::optional<OperatorRecord> Recorder::operator_named(std::string_view name_key) {
  return unit(SqlTx::none,
              [&](SqlSession& sql) { return first_operator(sql(Sql::operator_by_key, name_key)); });
}

std::vector<OperatorSummary> Recorder::operators(std::int64_t now) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::select_operators, now), [](const SqlResult& r, std::size_t i) {
      return OperatorSummary{.id = r.string(i, 0),
                             .name = r.string(i, 1),
                             .role = r.string(i, 2),
                             .totp = r.int64(i, 3) != 0,
                             .created_at = r.int64(i, 4),
                             .sessions = r.int64(i, 5),
                             .last_sign_in = r.int64(i, 6)};
    });
  });
}

void Recorder::set_totp_pending(std::string_view operator_id, std::string_view secret) {
  unit(SqlTx::write, [&](SqlSession& sql) { sql(Sql::set_totp_pending, operator_id, secret); });
}

bool Recorder::confirm_totp(std::string_view operator_id, std::int64_t step) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return sql(Sql::confirm_totp, operator_id, step).changed() == 1;
  });
}

bool Recorder::use_totp_step(std::string_view operator_id, std::int64_t step) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return sql(Sql::use_totp_step, operator_id, step).changed() == 1;
  });
}

void Recorder::add_operator_session(const OperatorSessionRecord& s) {
  unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::insert_operator_session, s.token_hash, s.operator_id, s.created_at, s.expires_at,
        s.address);
  });
}

std::optional<OperatorRecord> Recorder::operator_of_session(std::string_view token_hash,
                                                            std::int64_t now) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return first_operator(sql(Sql::operator_of_session, token_hash, now));
  });
}

void Recorder::end_operator_session(std::string_view token_hash) {
  unit(SqlTx::write, [&](SqlSession& sql) { sql(Sql::delete_operator_session, token_hash); });
}

std::int64_t Recorder::end_operator_sessions(std::string_view operator_id) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return sql(Sql::delete_operator_sessions, operator_id).changed();
  });
}

bool Recorder::remove_operator(std::string_view operator_id) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::delete_operator_sessions, operator_id);
    return sql(Sql::delete_operator, operator_id).changed() == 1;
  });
}

}  // namespace tilerace::server
