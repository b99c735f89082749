#pragma once
// The embedded database: one SQLite file in WAL mode with synchronous=FULL, its schema
// versioned by PRAGMA user_version and migrated at open, each statement prepared once. The
// path ":memory:" opens a database that lives only as long as the dialect: fast tests. Not
// thread-safe: one unit of work at a time (the StoreWorker's one thread).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <array>
#include <filesystem>
#include <memory>

#include "server/store/recorder.hpp"
#include "server/store/sql.hpp"

namespace tilerace::server {

class SqliteDialect final : public SqlDialect {
 public:
  static constexpr int kSchemaVersion = 23;

  // Opens (creating if needed) the database file at path and migrates it.
  explicit SqliteDialect(const std::filesystem::path& path);
  ~SqliteDialect() override;

  const std::string& node() const override { return node_; }
  void session(SqlTx tx, const std::function<void(SqlSession&)>& work) override;
  void keep_ranks(RankCache& ranks, FillRanks fill) override;

  // How SQLite runs statement: EXPLAIN QUERY PLAN, a line per step ("" for a statement this
  // dialect does not have). Tests hold the statements to the indexes meant for them.
  std::string plan(Sql statement);

 private:
  class Session;
  void migrate();

  const std::string node_;  // none: the file is this server's own
  SQLite::Database db_;
  std::array<std::unique_ptr<SQLite::Statement>, kSqlCount> statements_;
};

// The Store on a SQLite file.
class SqliteStore final : public Recorder {
 public:
  static constexpr int kSchemaVersion = SqliteDialect::kSchemaVersion;
  explicit SqliteStore(const std::filesystem::path& path)
      : Recorder(std::make_unique<SqliteDialect>(path)) {}
};

}  // namespace tilerace::server
