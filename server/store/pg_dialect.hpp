#pragma once
// The shared database: PostgreSQL through libpq, for several servers (nodes) on one
// authority. Every write is one transaction and idempotent, so a call retried after an
// ambiguous failure (the connection lost during COMMIT) does no harm.
//
// Threads: units of work come from the StoreWorker's threads, concurrency() at once; each
// takes a connection from a small pool (connected and prepared on first use, dropped when
// broken and connected again by the next unit). One more thread listens on its own connection
// for the rank changes every node announces (NOTIFY tilerace_ranks, sent by the statements
// that change a rank), so `me` ranks include other nodes' results; when that connection is
// lost it reconnects and fills the cache again.
//
// Schema: versioned in tilerace_schema, migrated at open in one transaction under an advisory
// lock (two nodes starting at once migrate once).
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/store/pg_connection.hpp"
#include "server/store/recorder.hpp"
#include "server/store/sql.hpp"

namespace tilerace::server {

class PgDialect final : public SqlDialect {
 public:
  static constexpr int kSchemaVersion = 23;
  // How long PostgreSQL lets one of our transactions sit idle between statements before it
  // ends it (connect(), below).
  static constexpr std::chrono::seconds kIdleInTransactionLimit{3};
  static constexpr int kPoolSize = 4;

  // Connects to url and migrates. node names this server: the running races it journals are
  // its own, and only those come back to it after a restart. Throws std::runtime_error, with
  // the reason, if the database cannot be used.
  PgDialect(std::string url, std::string node);
  ~PgDialect() override;

  int concurrency() const override { return kPoolSize; }
  const std::string& node() const override { return node_; }
  void ping() override;
  void session(SqlTx tx, const std::function<void(SqlSession&)>& work) override;
  void keep_ranks(RankCache& ranks, FillRanks fill) override;
  bool hears_ranks_changed() const override { return true; }

 private:
  class Session;
  // A pooled connection for the length of one unit; a broken one is dropped, not returned.
  class Lease {
   public:
    explicit Lease(PgDialect& dialect);
    ~Lease();
    PgConnection* operator->() { return conn_.get(); }
    PgConnection& operator*() { return *conn_; }

   private:
    PgDialect& dialect_;
    std::unique_ptr<PgConnection> conn_;
  };

  // A new connection, the schema migrated and every statement prepared on it.
  std::unique_ptr<PgConnection> connect();
  void migrate(PgConnection& conn);
  // A new connection listening for rank changes, the ranks filled through it.
  std::unique_ptr<PgConnection> listening();
  // Fills a fresh cache through conn, in one snapshot, and swaps it in for the ranks.
  void refill(PgConnection& conn);
  void apply_notification(PgConnection& conn, std::string_view payload);
  void listen(std::unique_ptr<PgConnection> conn);

  const std::string url_;
  const std::string node_;
  RankCache* ranks_ = nullptr;  // set by keep_ranks
  FillRanks fill_;              // likewise

  std::mutex pool_mutex_;
  std::condition_variable pool_changed_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
  int open_ = 0;  // connections leased or idle

  std::mutex stop_mutex_;
  std::condition_variable stop_changed_;
  bool stopping_ = false;
  std::thread listener_;
};

// The Store on a PostgreSQL database shared by the nodes.
class PgStore final : public Recorder {
 public:
  static constexpr int kSchemaVersion = PgDialect::kSchemaVersion;
  PgStore(std::string url, std::string node)
      : Recorder(std::make_unique<PgDialect>(std::move(url), std::move(node))) {}
};

// url with its password, if any, replaced by ***: for logs and errors.
std::string redact_database_url(std::string_view url);

}  // namespace tilerace::server
