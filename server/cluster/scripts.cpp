#include "server/cluster/scripts.hpp"

#include <stdexcept>

#include "server/cluster/redis_connection.hpp"

namespace tilerace::server {

boost::asio::awaitable<RedisReply> eval(RedisConnection& connection, std::string_view script,
                                        const std::vector<std::string>& args) {
  std::vector<std::string> command{"EVAL", std::string(script), "0"};
  command.insert(command.end(), args.begin(), args.end());
  RedisReply reply = co_await connection.command(std::move(command));
  if (reply.error()) throw std::runtime_error("redis: " + reply.str);
  co_return reply;
}

}  // namespace tilerace::server
