#include "protocol/messages.hpp"

#include <array>

namespace tilerace::protocol {

namespace {
constexpr std::array<std::string_view, 20> kErrorNames{
    "bad_json",     "unknown_type", "bad_field",    "not_hello",       "already_hello",
    "bad_token",    "no_game",      "game_over",    "stale",           "not_allowed",
    "no_such_room", "room_full",    "race_running", "already_in_room", "not_in_room",
    "not_started",  "not_a_player", "rate_limited", "internal",        "unavailable"};

}  // namespace

std::string_view to_string(ErrorCode code) noexcept { return kErrorNames[static_cast<int>(code)]; }

}  // namespace tilerace::protocol
