#include "protocol/messages.hpp"

#include <array>

namespace tilerace::protocol {

namespace {
constexpr std::array<std::string_view, kErrorCodes> kErrorNames{"bad_json",
                                                                "unknown_type",
                                                                "bad_field",
                                                                "not_hello",
                                                                "already_hello",
                                                                "bad_token",
                                                                "no_game",
                                                                "game_over",
                                                                "stale",
                                                                "not_allowed",
                                                                "no_such_room",
                                                                "room_full",
                                                                "race_running",
                                                                "already_in_room",
                                                                "not_in_room",
                                                                "not_started",
                                                                "not_a_player",
                                                                "rate_limited",
                                                                "internal",
                                                                "unavailable",
                                                                "name_taken",
                                                                "bad_credentials",
                                                                "no_such_player",
                                                                "not_friends",
                                                                "offline",
                                                                "no_such_challenge",
                                                                "no_such_game",
                                                                "banned",
                                                                "no_such_tournament",
                                                                "tournament_full",
                                                                "tournament_started",
                                                                "already_in_tournament",
                                                                "not_in_tournament"};
static_assert(!kErrorNames.back().empty(), "every error code has its name");
constexpr std::array<std::string_view, 6> kEmoteNames{"hi", "gl", "gg", "nice", "wow", "oops"};

}  // namespace

std::string_view to_string(ErrorCode code) noexcept { return kErrorNames[static_cast<int>(code)]; }
std::string_view to_string(ReportReason reason) noexcept {
  static constexpr std::array<std::string_view, 3> kNames{"name", "cheating", "abuse"};
  return kNames[static_cast<int>(reason)];
}
std::string_view to_string(TournamentFormat format) noexcept {
  static constexpr std::array<std::string_view, 3> kNames{"single_elimination", "swiss", "arena"};
  return kNames[static_cast<int>(format)];
}
std::string_view to_string(DeclineReason reason) noexcept {
  static constexpr std::array<std::string_view, 5> kNames{"generic", "later", "no_bots",
                                                          "only_bots", "settings"};
  return kNames[static_cast<int>(reason)];
}
std::string_view to_string(Emote e) noexcept { return kEmoteNames[static_cast<int>(e)]; }

std::optional<Emote> emote_from_string(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kEmoteNames.size(); ++i) {
    if (kEmoteNames[i] == name) return static_cast<Emote>(i);
  }
  return std::nullopt;
}

}  // namespace tilerace::protocol
