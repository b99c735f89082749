#pragma once
// A small RAII layer over libpq: one connection, its results, prepared statements with text
// parameters, and transactions. Errors throw: StoreUnavailable when the server could not be
// reached or went away (or the transaction lost a serialization race: worth retrying), and
// std::runtime_error for everything else. Not thread-safe: one thread uses a connection at a
// time.
#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tilerace::server {

class PgResult {
 public:
  explicit PgResult(PGresult* result) : result_(result, &PQclear) {}
  int rows() const { return PQntuples(result_.get()); }
  int columns() const { return PQnfields(result_.get()); }
  // The rows a write changed (0 for other statements).
  std::int64_t changed() const;
  bool null(int row, int col) const { return PQgetisnull(result_.get(), row, col) != 0; }
  std::string_view text(int row, int col) const {
    return {PQgetvalue(result_.get(), row, col),
            static_cast<std::size_t>(PQgetlength(result_.get(), row, col))};
  }
  std::string string(int row, int col) const { return std::string(text(row, col)); }
  std::int64_t int64(int row, int col) const;
  int integer(int row, int col) const { return static_cast<int>(int64(row, col)); }
  bool boolean(int row, int col) const { return text(row, col) == "t"; }

 private:
  std::unique_ptr<PGresult, void (*)(PGresult*)> result_;
};

// One statement parameter in text form (null when empty optional).
using PgParam = std::optional<std::string>;

inline PgParam pg_param(std::string_view s) { return std::string(s); }
inline PgParam pg_param(const std::string& s) { return s; }
inline PgParam pg_param(const char* s) { return std::string(s); }
inline PgParam pg_param(bool b) { return std::string(b ? "t" : "f"); }
template <class Int>
requires std::is_integral_v<Int> PgParam pg_param(Int n) { return std::to_string(n); }

class PgConnection {
 public:
  // Connects to url (a libpq connection URI or key=value string); throws StoreUnavailable if
  // the server cannot be reached, std::runtime_error if it refuses (bad password, no such
  // database).
  explicit PgConnection(const std::string& url);

  bool healthy() const { return PQstatus(conn_.get()) == CONNECTION_OK; }
  int backend_pid() const { return PQbackendPID(conn_.get()); }
  int socket() const { return PQsocket(conn_.get()); }

  // Runs sql (one or more statements, no parameters); returns the last result.
  PgResult exec(const char* sql);
  // Prepares sql under name on this connection.
  void prepare(const std::string& name, const char* sql);
  // Runs the prepared statement name with params.
  PgResult run(const std::string& name, const std::vector<PgParam>& params);
  template <class... Args>
  PgResult call(const std::string& name, const Args&... args) {
    return run(name, {pg_param(args)...});
  }

  // Reads what the server sent (notifications); false if the connection is gone.
  bool consume_input() { return PQconsumeInput(conn_.get()) == 1; }
  // The next notification received, if any: (channel, payload, sender's backend pid).
  struct Notification {
    std::string channel, payload;
    int sender = 0;
  };
  std::optional<Notification> next_notification();

 private:
  PgResult check(PGresult* result, std::string_view what);

  std::unique_ptr<PGconn, void (*)(PGconn*)> conn_;
};

// begin (BEGIN and its options) now; ROLLBACK at scope end unless commit() was called.
class PgTransaction {
 public:
  explicit PgTransaction(PgConnection& conn, const char* begin = "BEGIN") : conn_(conn) {
    conn_.exec(begin);
  }
  ~PgTransaction();
  void commit() {
    conn_.exec("COMMIT");
    done_ = true;
  }

 private:
  PgConnection& conn_;
  bool done_ = false;
};

}  // namespace tilerace::server
