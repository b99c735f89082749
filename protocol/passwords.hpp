#pragma once
// What a new password must be: 8–128 characters, and none of the passwords people pick most
// (a small built-in list, compared without regard to ASCII case).
#include <optional>
#include <string>
#include <string_view>

namespace tilerace::protocol {

// Why password may not be set, in words for the player; nullopt if it may.
std::optional<std::string> password_problem(std::string_view password);

}  // namespace tilerace::protocol
