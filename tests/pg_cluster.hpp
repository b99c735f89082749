#pragma once
// A throwaway PostgreSQL server for tests: initdb into a temporary folder, started with pg_ctl
// on a free loopback port (and a socket in that folder), stopped and removed when the test
// process ends — also when it is killed: a watcher process stops the server then. As root the
// server runs as the postgres user (initdb refuses root).
#include <cstdint>
#include <string>

#include "tests/temp_dir.hpp"

namespace tilerace::testing {

class PgCluster {
 public:
  // The one server of this test process, started on first use.
  static PgCluster& shared();

  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // A new, empty database; returns its URL.
  std::string create_database();
  std::uint16_t port() const { return port_; }
  // url (one of create_database's) reached through another port instead: a relay's.
  std::string through(std::string url, std::uint16_t relay) const;

  // Stops the server (fast shutdown: connections are closed) and starts it again on the
  // same port and files; each returns once it is done.
  void stop();
  void start();

 private:
  PgCluster();
  // Runs a PostgreSQL program (initdb, pg_ctl) with args, as the postgres user when root.
  void run(const std::string& program, const std::string& args) const;

  TempDir dir_;
  std::string bin_;
  std::uint16_t port_ = 0;
  int databases_ = 0;
};

}  // namespace tilerace::testing
