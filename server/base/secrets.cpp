#include "server/base/secrets.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

namespace tilerace::server {

namespace {

std::string to_hex(const unsigned char* data, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[data[i] >> 4];
    out[2 * i + 1] = kDigits[data[i] & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed");
  }
  return to_hex(digest.data(), length);
}

}  // namespace

std::string random_hex(std::size_t n) {
  std::vector<unsigned char> bytes(n);
  if (RAND_bytes(bytes.data(), static_cast<int>(n)) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  return to_hex(bytes.data(), n);
}

std::uint64_t random_u64() {
  std::uint64_t value = 0;
  if (RAND_bytes(reinterpret_cast<unsigned char*>(&value), sizeof value) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  return value;
}

IssuedToken issue_token(std::string_view player_id) {
  const std::string secret = random_hex(24);
  return {std::string(player_id) + "." + secret, sha256_hex(secret)};
}

std::string_view token_player(std::string_view token) noexcept {
  const auto dot = token.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot + 1 == token.size()) return {};
  return token.substr(0, dot);
}

std::string token_hash(std::string_view token) {
  const auto dot = token.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot + 1 == token.size()) return "";
  return sha256_hex(token.substr(dot + 1));
}

std::string code_hash(std::string_view code) { return sha256_hex(code); }

std::string random_code(std::size_t length, std::string_view alphabet) {
  std::string code;
  code.reserve(length);
  // Rejection sampling: an unbiased choice among the alphabet's letters.
  const auto limit =
      static_cast<std::uint64_t>(-1) - static_cast<std::uint64_t>(-1) % alphabet.size();
  while (code.size() < length) {
    const std::uint64_t r = random_u64();
    if (r < limit) code.push_back(alphabet[r % alphabet.size()]);
  }
  return code;
}

namespace {

std::array<unsigned char, EVP_MAX_MD_SIZE> hmac_sha256(std::string_view key,
                                                       std::string_view message) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest.data(),
           &length) == nullptr ||
      length != 32) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return digest;
}

}  // namespace

std::uint64_t hmac_u64(std::string_view key, std::string_view message) {
  const auto digest = hmac_sha256(key, message);
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = (value << 8) | digest[static_cast<std::size_t>(i)];
  return value;
}

std::string hmac_hex(std::string_view key, std::string_view message, std::size_t bytes) {
  return to_hex(hmac_sha256(key, message).data(), std::min<std::size_t>(bytes, 32));
}

}  // namespace tilerace::server
