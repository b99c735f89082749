#pragma once
// What every encoder shares (for protocol/*.cpp only: it brings nlohmann/json): the one way a
// message is dumped, and the rid echoed.
#include <nlohmann/json.hpp>

#include <string>

#include "protocol/messages.hpp"

namespace tilerace::protocol {

// Compact; invalid UTF-8 replaced rather than thrown on.
inline std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Sets j's "rid" when the request had one.
inline void put_rid(nlohmann::json& j, const Rid& rid) {
  if (const auto* s = std::get_if<std::string>(&rid)) j["rid"] = *s;
  if (const auto* i = std::get_if<std::int64_t>(&rid)) j["rid"] = *i;
}

}  // namespace tilerace::protocol
