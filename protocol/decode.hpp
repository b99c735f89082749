#pragma once
// The only code that parses untrusted input: one text frame → a typed message or an error.
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/messages.hpp"
#include "protocol/moderation.hpp"

namespace tilerace::protocol {

// Decodes one client text (PROTOCOL.md §8). Never throws; any input yields a message or an
// error (bad_json, unknown_type or bad_field naming the field), with rid kept when valid.
Decoded decode_client(std::string_view text);

// Decodes the query string of GET /api/leaderboard (mode, size, kind, limit) with the same
// rules and errors as the leaderboard message.
std::variant<LeaderboardRequest, ProtocolError> decode_leaderboard_query(std::string_view query);

// Decodes an operator action's JSON body (POST /admin/api/<action>): unknown_type for an
// action there is none of, else as decode_client (bad_json, bad_field naming the field).
std::variant<AdminAction, ProtocolError> decode_admin(std::string_view action,
                                                      std::string_view body);
// Whether action is one of the operator desk's (sign_in, sign_out, totp_enrol, totp_confirm,
// create_operator, sign_out_operator, remove_operator).
bool is_desk_action(std::string_view action);
// Decodes an operator desk action's body (an empty body is {}): unknown_type for an action the
// desk has none of, else as decode_admin.
std::variant<DeskAction, ProtocolError> decode_desk(std::string_view action, std::string_view body);

// The value of key in a URL query ("a=1&q=b%20c"), percent-decoded ('+' is a space); nullopt
// when it is absent, badly escaped or not UTF-8.
std::optional<std::string> query_value(std::string_view query, std::string_view key);

// True when text is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool valid_utf8(std::string_view text) noexcept;

}  // namespace tilerace::protocol
