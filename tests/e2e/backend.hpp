#pragma once
// End-to-end tests that run once per storage backend: SQLite in the test's data folder, and
// PostgreSQL in a fresh database of the test process's own server (tests/pg_cluster.hpp).
// Every server a test starts through args() uses the same database, so restarts find it.
#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "server/store/pg_connection.hpp"
#include "tests/pg_cluster.hpp"

namespace tilerace::e2e {

enum class Backend { sqlite, postgresql };

inline std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::sqlite ? "Sqlite" : "Postgresql";
}

class BackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  BackendTest()
      : url_(GetParam() == Backend::postgresql
                 ? tilerace::testing::PgCluster::shared().create_database()
                 : "") {}

  // The server arguments plus, for PostgreSQL, the database and a node name that stays the
  // same across restarts (node names the races a server gets back).
  std::vector<std::string> args(std::vector<std::string> more = {},
                                const std::string& node = "node-a") const {
    if (!url_.empty()) more.insert(more.end(), {"--database", url_, "--node-name", node});
    return more;
  }
  // The one integer sql answers, asked of the database directly (SQLite: tilerace.db in data).
  std::int64_t query(const std::string& sql, const std::filesystem::path& data) const {
    if (!url_.empty()) return server::PgConnection(url_).exec(sql.c_str()).int64(0, 0);
    SQLite::Database db((data / "tilerace.db").string());
    return db.execAndGet(sql).getInt64();
  }
  bool postgres() const { return !url_.empty(); }

  std::string url_;
};

#define TILERACE_BOTH_BACKENDS(suite)       \
  INSTANTIATE_TEST_SUITE_P(Backends, suite, \
                           ::testing::Values(Backend::sqlite, Backend::postgresql), backend_name)

}  // namespace tilerace::e2e
