#pragma once
// A throwaway redis-server for tests: on a free loopback port with its files in a temporary
// folder, nothing persisted (Redis restarted comes back empty, as a lost cache would), stopped
// when the object goes — also when the test process is killed: a watcher process stops it.
#include <cstdint>

#include "tests/temp_dir.hpp"

namespace tilerace::testing {

class RedisProcess {
 public:
  RedisProcess();  // started, answering PING
  ~RedisProcess();
  RedisProcess(const RedisProcess&) = delete;
  RedisProcess& operator=(const RedisProcess&) = delete;

  std::uint16_t port() const { return port_; }
  // Stops the server (the port stops answering), and starts it again on the same port.
  void stop();
  void start();

 private:
  TempDir dir_;
  std::uint16_t port_ = 0;
  bool running_ = false;
};

}  // namespace tilerace::testing
