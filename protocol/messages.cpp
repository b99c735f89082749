#include "protocol/messages.hpp"

#include <array>

namespace tilerace::protocol {

namespace {
constexpr std::array<std::string_view, 19> kErrorNames{
    "bad_json",     "unknown_type", "bad_field",    "not_hello",       "already_hello",
    "bad_token",    "no_game",      "game_over",    "stale",           "not_allowed",
    "no_such_room", "room_full",    "race_running", "already_in_room", "not_in_room",
    "not_started",  "not_a_player", "rate_limited", "internal"};

template <class... Fs>
struct overloaded : Fs... {
  using Fs::operator()...;
};
}  // namespace

std::string_view to_string(ErrorCode code) noexcept { return kErrorNames[static_cast<int>(code)]; }

std::string_view type_name(const ClientMessage& message) noexcept {
  return std::visit(
      overloaded{[](const Hello&) { return "hello"; }, [](const Ping&) { return "ping"; },
                 [](const NewGame&) { return "new_game"; }, [](const Move&) { return "move"; },
                 [](const Slide&) { return "slide"; }, [](const Undo&) { return "undo"; },
                 [](const Resign&) { return "resign"; }},
      message);
}

}  // namespace tilerace::protocol
