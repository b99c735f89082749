#include "server/store/pg_connection.hpp"

#include <charconv>
#include <stdexcept>

#include "server/store/store.hpp"

namespace tilerace::server {

namespace {

// SQLSTATE classes that mean "try again later": connection exceptions (08), the server
// shutting down or starting (57P01..57P03), serialization failure and deadlock (40001,
// 40P01). Anything else is an error in what we asked.
bool transient(std::string_view state) {
  return state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03" ||
         state == "40001" || state == "40P01";
}

std::string first_line(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::int64_t PgResult::int64(int row, int col) const {
  const std::string_view t = text(row, col);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc() || end != t.data() + t.size()) {
    throw std::runtime_error("PostgreSQL: not an integer: " + std::string(t));
  }
  return value;
}

std::int64_t PgResult::changed() const {
  const std::string_view t = PQcmdTuples(result_.get());
  std::int64_t value = 0;
  std::from_chars(t.data(), t.data() + t.size(), value);
  return value;
}

PgConnection::PgConnection(const std::string& url) : conn_(PQconnectdb(url.c_str()), &PQfinish) {
  if (!conn_) throw std::bad_alloc();
  if (PQstatus(conn_.get()) == CONNECTION_OK) {
    // Notices (CREATE … IF NOT EXISTS skipping) are not errors: no output from them.
    PQsetNoticeProcessor(
        conn_.get(), [](void*, const char*) {}, nullptr);
    return;
  }
  const std::string message = first_line(PQerrorMessage(conn_.get()));
  // libpq gives no SQLSTATE for a failed connection. A server that is down or unreachable
  // says so in these words; a server that answered and refused (authentication, no such
  // database) is a configuration error that waiting will not fix.
  for (const char* unreachable :
       {"Connection refused", "could not connect", "timeout expired", "the database system is",
        "No such file or directory", "server closed the connection"}) {
    if (message.find(unreachable) != std::string::npos &&
        message.find("authentication") == std::string::npos &&
        message.find("does not exist") == std::string::npos) {
      throw StoreUnavailable("PostgreSQL unreachable: " + message);
    }
  }
  throw std::runtime_error("PostgreSQL refused the connection: " + message);
}

PgResult PgConnection::check(PGresult* raw, std::string_view what) {
  PgResult result(raw);
  const ExecStatusType status = PQresultStatus(raw);
  if (raw != nullptr && (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)) return result;
  const char* state = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
  std::string message = first_line(raw ? PQresultErrorMessage(raw) : PQerrorMessage(conn_.get()));
  if (message.empty()) message = first_line(PQerrorMessage(conn_.get()));
  message = "PostgreSQL (" + std::string(what) + "): " + message;
  if (PQstatus(conn_.get()) != CONNECTION_OK || state == nullptr || transient(state)) {
    throw StoreUnavailable(message);
  }
  throw std::runtime_error(message);
}

PgResult PgConnection::exec(const char* sql) { return check(PQexec(conn_.get(), sql), sql); }

void PgConnection::prepare(const std::string& name, const char* sql) {
  check(PQprepare(conn_.get(), name.c_str(), sql, 0, nullptr), name);
}

PgResult PgConnection::run(const std::string& name, const std::vector<PgParam>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const PgParam& p : params) values.push_back(p ? p->c_str() : nullptr);
  return check(PQexecPrepared(conn_.get(), name.c_str(), static_cast<int>(values.size()),
                              values.data(), nullptr, nullptr, 0),
               name);
}

std::optional<PgConnection::Notification> PgConnection::next_notification() {
  PGnotify* raw = PQnotifies(conn_.get());
  if (raw == nullptr) return std::nullopt;
  Notification n{raw->relname, raw->extra, raw->be_pid};
  PQfreemem(raw);
  return n;
}

PgTransaction::~PgTransaction() {
  if (done_ || !conn_.healthy()) return;
  try {
    conn_.exec("ROLLBACK");
  } catch (const std::exception&) {
    // The connection is unusable; the pool drops it.
  }
}

}  // namespace tilerace::server
