#include "server/game/daily_seed.hpp"

#include <string>

#include "server/base/secrets.hpp"

namespace tilerace::server {

std::uint64_t daily_seed(std::string_view secret, std::string_view day,
                         const protocol::DailyMode& mode) {
  return hmac_u64(secret, std::string("tilerace daily|").append(day).append("|").append(mode.key));
}

}  // namespace tilerace::server
