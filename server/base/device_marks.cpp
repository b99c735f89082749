#include "server/base/device_marks.hpp"

#include <openssl/crypto.h>

#include <charconv>

#include "server/base/secrets.hpp"

namespace tilerace::server {

namespace {
constexpr std::size_t kDeviceHex = 32;       // 128 random bits
constexpr std::size_t kSignatureBytes = 16;  // 128 bits of the HMAC
}  // namespace

std::string DeviceMarks::signature(std::string_view device, std::string_view issued,
                                   std::string_view player_id) const {
  std::string message = "device-mark\n";
  message.append(device).append("\n").append(issued).append("\n").append(player_id);
  return hmac_hex(secret_, message, kSignatureBytes);
}

std::string DeviceMarks::issue(std::string_view player_id, std::int64_t now,
                               std::string_view device) const {
  const std::string id =
      device.size() == kDeviceHex ? std::string(device) : random_hex(kDeviceHex / 2);
  const std::string issued = std::to_string(now);
  return id + "." + issued + "." + signature(id, issued, player_id);
}

std::optional<std::string> DeviceMarks::device_of(std::string_view mark, std::string_view player_id,
                                                  std::int64_t now) const {
  if (mark.size() > kMaxMarkBytes) return std::nullopt;
  const auto first = mark.find('.');
  if (first != kDeviceHex) return std::nullopt;
  const auto second = mark.find('.', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  const std::string_view device = mark.substr(0, first);
  const std::string_view issued = mark.substr(first + 1, second - first - 1);
  const std::string_view given = mark.substr(second + 1);
  std::int64_t at = 0;
  const auto [end, ec] = std::from_chars(issued.data(), issued.data() + issued.size(), at);
  if (ec != std::errc() || end != issued.data() + issued.size() || at > now + kSkewMs ||
      now - at > kLifeMs) {
    return std::nullopt;
  }
  const std::string expected = signature(device, issued, player_id);
  if (given.size() != expected.size() ||
      CRYPTO_memcmp(given.data(), expected.data(), expected.size()) != 0) {
    return std::nullopt;
  }
  return std::string(device);
}

}  // namespace tilerace::server
