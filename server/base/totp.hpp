#pragma once
// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as every authenticator app
// reads them: HMAC-SHA1, 6 digits, 30-second steps, the secret shown in base32 (RFC 4648) and
// as an otpauth:// URI. The clock is the caller's: every function takes Unix seconds or a step.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilerace::server::totp {

inline constexpr int kDigits = 6;
inline constexpr std::int64_t kStepSeconds = 30;
inline constexpr std::size_t kSecretBytes = 20;  // 160 bits, as RFC 4226 recommends

// The step holding Unix second t.
constexpr std::int64_t step_of(std::int64_t t) { return t / kStepSeconds; }
// The code of key (raw bytes) at step: digits decimal digits, with leading zeros.
std::string code(std::string_view key, std::int64_t step, int digits = kDigits);
// The step within ±1 of now's step whose code is given (the latest, should two match), or
// nullopt. Compares in constant time.
std::optional<std::int64_t> matching_step(std::string_view key, std::string_view given,
                                          std::int64_t now_seconds);

// A new random secret, in base32.
std::string new_secret();
// base32 (RFC 4648, upper case, no padding) of bytes, and back (nullopt: not base32).
std::string base32(std::string_view bytes);
std::optional<std::string> from_base32(std::string_view text);
// The otpauth:// URI an authenticator app reads as a QR code or a link.
std::string uri(std::string_view issuer, std::string_view account, std::string_view secret);

}  // namespace tilerace::server::totp
