#include "tests/redis_process.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/core.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "tests/eventually.hpp"
#include "tests/free_port.hpp"

namespace tilerace::testing {

namespace {

bool answers(std::uint16_t port) {
  const std::string ping = fmt::format("redis-cli -p {} ping 2>/dev/null | grep -q PONG", port);
  return std::system(ping.c_str()) == 0;
}

}  // namespace

RedisProcess::RedisProcess() : port_(free_port()) {
  start();
  const std::string watcher = fmt::format(
      "(while kill -0 {} 2>/dev/null && [ -d {} ]; do sleep 1; done; "
      "[ -f {}/pid ] && kill -9 $(cat {}/pid)) >/dev/null 2>&1 </dev/null &",
      ::getpid(), dir_.path().string(), dir_.path().string(), dir_.path().string());
  if (std::system(watcher.c_str()) != 0) throw std::runtime_error("cannot start the watcher");
}

RedisProcess::~RedisProcess() {
  if (running_) stop();
}

void RedisProcess::start() {
  const std::string command = fmt::format(
      "redis-server --port {} --bind 127.0.0.1 --save '' --appendonly no --daemonize yes "
      "--dir {} --pidfile {}/pid --logfile {}/log",
      port_, dir_.path().string(), dir_.path().string(), dir_.path().string());
  if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot start redis-server");
  running_ = true;
  if (!eventually([this] { return answers(port_); }, std::chrono::seconds(10))) {
    throw std::runtime_error("redis-server does not answer");
  }
}

void RedisProcess::stop() {
  const std::string command =
      fmt::format("kill -9 $(cat {0}/pid) 2>/dev/null; rm -f {0}/pid", dir_.path().string());
  if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot stop redis-server");
  running_ = false;
  if (!eventually([this] { return !answers(port_); }, std::chrono::seconds(10))) {
    throw std::runtime_error("redis-server does not stop");
  }
}

}  // namespace tilerace::testing
