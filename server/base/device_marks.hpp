#pragma once
// Device marks (OWASP's device cookies; docs/protocol.md, "Sign-in limits"): an opaque string a
// device is given when it signs in as a player, and brings back with its next login, so that
// its failed attempts count against that device alone and a lockout of the account's unknown
// devices does not keep it out. A mark is "<device>.<issued-ms>.<signature>": a random device
// id, when it was issued, and an HMAC-SHA256 of both and the player's id under the server's
// secret (the store's, so every node of a cluster reads every node's marks). It names no one
// and holds no secret: a mark of one player is worth nothing for another. Thread-safe.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilerace::server {

class DeviceMarks {
 public:
  static constexpr std::int64_t kLifeMs = 365LL * 24 * 3600 * 1000;  // a mark's life
  static constexpr std::size_t kMaxMarkBytes = 80;                   // longer: no mark of ours
  static constexpr std::int64_t kSkewMs = 5 * 60 * 1000;  // nodes' clocks may differ this much

  explicit DeviceMarks(std::string secret) : secret_(std::move(secret)) {}

  // A new mark for a device that has just signed in as player_id at now (Unix ms). A device
  // that brought a valid mark keeps its device id (pass it as device).
  std::string issue(std::string_view player_id, std::int64_t now,
                    std::string_view device = {}) const;
  // The device id of mark when it is one of ours, issued for player_id within kLifeMs of now;
  // else nullopt (anything at all, forged, of another player, expired).
  std::optional<std::string> device_of(std::string_view mark, std::string_view player_id,
                                       std::int64_t now) const;

 private:
  std::string signature(std::string_view device, std::string_view issued,
                        std::string_view player_id) const;

  std::string secret_;
};

}  // namespace tilerace::server
