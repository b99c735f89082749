#pragma once
// The friends messages (our addition; docs/protocol.md, "Friends"): what a friend is doing
// (presence), the friends list, friendship changes and challenges, as the wire shows them.
// Presence is also what nodes of a cluster pass each other (encode_presence, read back by
// decode_presence), so a node forwards a remote player's presence as it was written.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/encode.hpp"
#include "protocol/messages.hpp"

namespace tilerace::protocol {

enum class PresenceStatus : std::uint8_t { offline, online, solo, racing, spectating };
std::string_view to_string(PresenceStatus status) noexcept;

// What a player is doing: racing and spectating name the room (code); racing names the other
// racers (with).
struct Presence {
  PresenceStatus status = PresenceStatus::offline;
  std::string code;
  std::vector<std::string> with;
  friend bool operator==(const Presence&, const Presence&) = default;
};

// {"type":"presence","player","status","code"?,"with"?}
std::string encode_presence(std::string_view player, const Presence& presence);
// The player and presence of an encode_presence message; nullopt for anything else.
std::optional<std::pair<std::string, Presence>> decode_presence(std::string_view message);

struct FriendView {
  std::string id;
  std::string name;
  int rating = 0;
  Presence presence;
};
struct PlayerRef {
  std::string id;
  std::string name;
};
struct FriendsView {
  std::vector<FriendView> friends;
  std::vector<PlayerRef> incoming;  // requests to the player
  std::vector<PlayerRef> outgoing;  // the player's requests
  std::vector<PlayerRef> blocked;   // whom the player blocked
};
std::string encode_friends(const FriendsView& view, const Rid& rid);

// How the player now stands to other: "friend", "requested" (the player asked), "incoming"
// (other asked), "blocked" (the player blocked them) or "none".
// {"type":"friend_update","player":{"id","name"},"relation"}
std::string encode_friend_update(PlayerInfo other, std::string_view relation, const Rid& rid);

struct ChallengeView {
  std::string id;
  PlayerInfo from;
  PlayerInfo to;
  RoomOptions settings;         // mode, size, target, time_limit
  std::int64_t expires_at = 0;  // Unix ms
};
// To the challenger: {"type":"challenge_sent","id","to":{"id","name"},"settings","expires_at"}
std::string encode_challenge_sent(const ChallengeView& c, const Rid& rid);
// To the friend: {"type":"challenged","id","from":{"id","name"},"settings","expires_at"}
std::string encode_challenged(const ChallengeView& c);
// {"type":type,"id"}: challenge_declined (to the challenger), challenge_expired (to both),
// challenge_cancelled (to the friend: the challenger went away).
// reason: a decline's (protocol::DeclineReason), or empty.
std::string encode_challenge_closed(std::string_view type, std::string_view id, const Rid& rid,
                                    std::string_view reason = {});

}  // namespace tilerace::protocol
