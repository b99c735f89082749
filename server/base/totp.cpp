#include "server/base/totp.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <cctype>
#include <stdexcept>

namespace tilerace::server::totp {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// Percent-encodes what is not unreserved (RFC 3986) for the URI's label and parameters.
std::string escaped(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.append({'%', kHex[c >> 4], kHex[c & 15]});
    }
  }
  return out;
}

}  // namespace

std::string code(std::string_view key, std::int64_t step, int digits) {
  std::array<unsigned char, 8> counter{};
  for (int i = 7; i >= 0; --i) {
    counter[static_cast<std::size_t>(i)] = static_cast<unsigned char>(step & 0xff);
    step >>= 8;
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int length = 0;
  if (HMAC(EVP_sha1(), key.data(), static_cast<int>(key.size()), counter.data(), counter.size(),
           mac.data(), &length) == nullptr ||
      length != 20) {
    throw std::runtime_error("HMAC-SHA1 failed");
  }
  // RFC 4226 §5.3: dynamic truncation.
  const unsigned offset = mac[19] & 0x0f;
  std::uint32_t binary = (static_cast<std::uint32_t>(mac[offset] & 0x7f) << 24) |
                         (static_cast<std::uint32_t>(mac[offset + 1]) << 16) |
                         (static_cast<std::uint32_t>(mac[offset + 2]) << 8) | mac[offset + 3];
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = static_cast<char>('0' + binary % 10);
    binary /= 10;
  }
  return out;
}

std::optional<std::int64_t> matching_step(std::string_view key, std::string_view given,
                                          std::int64_t now_seconds) {
  if (given.size() != static_cast<std::size_t>(kDigits)) return std::nullopt;
  const std::int64_t now = step_of(now_seconds);
  std::optional<std::int64_t> found;
  for (std::int64_t step = now - 1; step <= now + 1; ++step) {
    const std::string expected = code(key, step);
    if (CRYPTO_memcmp(expected.data(), given.data(), expected.size()) == 0) found = step;
  }
  return found;
}

std::string new_secret() {
  std::array<unsigned char, kSecretBytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  return base32(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::string base32(std::string_view bytes) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const unsigned char b : bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out.push_back(kAlphabet[(buffer >> (bits - 5)) & 31]);
      bits -= 5;
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 31]);
  return out;
}

std::optional<std::string> from_base32(std::string_view text) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const auto at = kAlphabet.find(c);
    if (at == std::string_view::npos) return std::nullopt;
    buffer = (buffer << 5) | static_cast<std::uint32_t>(at);
    bits += 5;
    if (bits >= 8) {
      out.push_back(static_cast<char>((buffer >> (bits - 8)) & 0xff));
      bits -= 8;
    }
  }
  return out;
}

std::string uri(std::string_view issuer, std::string_view account, std::string_view secret) {
  return "otpauth://totp/" + escaped(issuer) + ":" + escaped(account) +
         "?secret=" + std::string(secret) + "&issuer=" + escaped(issuer) +
         "&algorithm=SHA1&digits=" + std::to_string(kDigits) +
         "&period=" + std::to_string(kStepSeconds);
}

}  // namespace tilerace::server::totp
