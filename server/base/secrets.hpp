#pragma once
// Random identifiers and secrets from OpenSSL's CSPRNG, and token hashing. A token is
// "<player-id>.<secret>"; only SHA-256(secret) is ever stored, as its session's key.
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

// The hash a token's session is stored under (SHA-256 of its secret, hex), or empty if the
// token is not of the token shape.
std::string token_hash(std::string_view token);
// The first 8 bytes (big-endian) of HMAC-SHA256(key, message): a number nobody without key
// can compute (the daily challenge's seeds). Throws if OpenSSL fails.
std::uint64_t hmac_u64(std::string_view key, std::string_view message);
// The first bytes (at most 32) of HMAC-SHA256(key, message), as hex. Throws if OpenSSL fails.
std::string hmac_hex(std::string_view key, std::string_view message, std::size_t bytes);

// The hash a one-time code (a link or reset code) is stored under: SHA-256 of it, hex. Such a
// code has at least 40 random bits and lives hours at most, so an unsalted fast hash is enough.
std::string code_hash(std::string_view code);

// A random code of length characters from alphabet (link codes).
std::string random_code(std::size_t length, std::string_view alphabet);

}  // namespace tilerace::server
