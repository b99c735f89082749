#pragma once
// What a Redis command gives back, and where Redis is (server/redis_connection.hpp talks to it).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilerace::server {

struct RedisReply {
  enum class Type { nil, status, error, integer, string, array };
  Type type = Type::nil;
  std::string str;  // status, error or string
  long long integer = 0;
  std::vector<RedisReply> elements;

  bool nil() const noexcept { return type == Type::nil; }
  bool error() const noexcept { return type == Type::error; }
};

// Redis could not be reached, or the connection dropped before the reply came.
class RedisUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RedisAddress {
  std::string host = "127.0.0.1";
  std::uint16_t port = 6379;
};

}  // namespace tilerace::server
