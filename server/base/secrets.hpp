#pragma once
// Random identifiers and secrets from OpenSSL's CSPRNG, and token hashing. A token is
// "<player-id>.<secret>"; only SHA-256(secret) is ever stored.
#include <cstdint>
#include <string>
#include <string_view>

namespace tilerace::server {

// n random bytes from RAND_bytes, as 2n lowercase hex characters. Throws if the CSPRNG fails.
std::string random_hex(std::size_t n);
std::uint64_t random_u64();

struct IssuedToken {
  std::string token;  // give to the client once
  std::string hash;   // store this
};
// A new token for player_id with a 192-bit secret.
IssuedToken issue_token(std::string_view player_id);

// The player id a token claims, or empty if the token is not of the token shape.
std::string_view token_player(std::string_view token) noexcept;

// Constant-time check of token's secret against a stored hash.
bool token_matches(std::string_view token, std::string_view stored_hash);

}  // namespace tilerace::server
