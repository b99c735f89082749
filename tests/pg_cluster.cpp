#include "tests/pg_cluster.hpp"

#include <unistd.h>

#include <fmt/core.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "server/store/pg_connection.hpp"
#include "tests/free_port.hpp"

namespace tilerace::testing {

namespace fs = std::filesystem;

namespace {

// The newest installed PostgreSQL's programs.
std::string find_bin() {
  std::string best;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql")) {
    const fs::path bin = entry.path() / "bin";
    if (fs::exists(bin / "initdb") && bin.string() > best) best = bin.string();
  }
  if (best.empty())
    throw std::runtime_error("PostgreSQL is not installed (scripts/install-deps.sh)");
  return best;
}

}  // namespace

PgCluster& PgCluster::shared() {
  static PgCluster cluster;
  return cluster;
}

void PgCluster::run(const std::string& program, const std::string& args) const {
  std::string command =
      bin_ + "/" + program + " " + args + " >" + (dir_.path() / "log").string() + ".tool 2>&1";
  if (::geteuid() == 0) command = "runuser -u postgres -- " + command;
  if (std::system(command.c_str()) != 0) {
    throw std::runtime_error("test PostgreSQL: " + program + " failed: " + command);
  }
}

PgCluster::PgCluster() : bin_(find_bin()), port_(free_port()) {
  if (::geteuid() == 0) {
    const std::string chown = "chown postgres: " + dir_.path().string();
    if (std::system(chown.c_str()) != 0)
      throw std::runtime_error("cannot chown the PostgreSQL folder");
  }
  run("initdb", "-D " + (dir_.path() / "data").string() +
                    " -A trust -U postgres -E UTF8 --locale=C --no-sync");
  start();
  // Stops the server if this process dies without running its destructors (a test killed on
  // timeout): it outlives us by at most a second.
  const std::string pg_ctl = (::geteuid() == 0 ? "runuser -u postgres -- " : "") + bin_ +
                             "/pg_ctl -D " + (dir_.path() / "data").string() + " stop -m immediate";
  const std::string watcher = fmt::format(
      "(while kill -0 {} 2>/dev/null; do sleep 1; done; {}; rm -rf {}) >/dev/null 2>&1 "
      "</dev/null &",
      ::getpid(), pg_ctl, dir_.path().string());
  if (std::system(watcher.c_str()) != 0) throw std::runtime_error("cannot start the watcher");
}

PgCluster::~PgCluster() {
  try {
    stop();
  } catch (const std::exception&) {
    // The watcher stops it.
  }
}

void PgCluster::start() {
  const std::string options = "-c listen_addresses=127.0.0.1 -p " + std::to_string(port_) +
                              " -c unix_socket_directories=" + dir_.path().string() +
                              " -c max_connections=200";
  run("pg_ctl", "-D " + (dir_.path() / "data").string() + " -l " + (dir_.path() / "log").string() +
                    " -w -t 30 -o '" + options + "' start");
}

void PgCluster::stop() {
  run("pg_ctl", "-D " + (dir_.path() / "data").string() + " -w -t 30 -m fast stop");
}

std::string PgCluster::through(std::string url, std::uint16_t relay) const {
  const std::string own = fmt::format(":{}/", port_);
  url.replace(url.find(own), own.size(), fmt::format(":{}/", relay));
  return url;
}

std::string PgCluster::create_database() {
  const std::string name = fmt::format("t{}", ++databases_);
  const std::string base = "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/";
  server::PgConnection admin(base + "postgres");
  admin.exec(("CREATE DATABASE " + name).c_str());
  return base + name;
}

}  // namespace tilerace::testing
