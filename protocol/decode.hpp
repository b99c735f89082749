#pragma once
// The only code that parses untrusted input: one text frame → a typed message or an error.
#include <string_view>
#include <variant>

#include "protocol/messages.hpp"

namespace tilerace::protocol {

// Decodes one client text (PROTOCOL.md §8). Never throws; any input yields a message or an
// error (bad_json, unknown_type or bad_field naming the field), with rid kept when valid.
Decoded decode_client(std::string_view text);

// Decodes the query string of GET /api/leaderboard (mode, size, kind, limit) with the same
// rules and errors as the leaderboard message.
std::variant<LeaderboardRequest, ProtocolError> decode_leaderboard_query(std::string_view query);

// True when text is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool valid_utf8(std::string_view text) noexcept;

}  // namespace tilerace::protocol
