#pragma once
// The daily challenge's seeds (docs/protocol.md, "The daily challenge"): each UTC day and daily
// mode has one, HMAC(the server's secret, the day and mode), so every node sharing the store
// derives it and nobody can compute tomorrow's.
#include <cstdint>
#include <string_view>

#include "protocol/daily.hpp"

namespace tilerace::server {

// The seed of day's game of mode under secret.
std::uint64_t daily_seed(std::string_view secret, std::string_view day,
                         const protocol::DailyMode& mode);

}  // namespace tilerace::server
