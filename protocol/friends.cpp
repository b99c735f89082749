#include "protocol/friends.hpp"

#include <nlohmann/json.hpp>

#include <array>

#include "protocol/json_out.hpp"

namespace tilerace::protocol {

namespace {

using json = nlohmann::json;

constexpr std::array<std::string_view, 5> kStatusNames{"offline", "online", "solo", "racing",
                                                       "spectating"};

void put_presence(json& j, const Presence& p) {
  j["status"] = to_string(p.status);
  if (!p.code.empty()) j["code"] = p.code;
  if (!p.with.empty()) j["with"] = p.with;
}

json ref(std::string_view id, std::string_view name) { return {{"id", id}, {"name", name}}; }

json refs(const std::vector<PlayerRef>& players) {
  json list = json::array();
  for (const PlayerRef& p : players) list.push_back(ref(p.id, p.name));
  return list;
}

json settings_json(const RoomOptions& o) {
  return {{"mode", engine::to_string(o.mode)},
          {"size", o.size},
          {"target", o.target},
          {"time_limit", o.time_limit}};
}

}  // namespace

std::string_view to_string(PresenceStatus status) noexcept {
  return kStatusNames[static_cast<int>(status)];
}

std::string encode_presence(std::string_view player, const Presence& presence) {
  json j{{"type", "presence"}, {"player", player}};
  put_presence(j, presence);
  return dump(j);
}

std::optional<std::pair<std::string, Presence>> decode_presence(std::string_view message) {
  const json j = json::parse(message, nullptr, false);
  if (!j.is_object() || j.value("type", "") != "presence") return std::nullopt;
  const auto player = j.find("player");
  const auto status = j.find("status");
  if (player == j.end() || !player->is_string() || status == j.end() || !status->is_string()) {
    return std::nullopt;
  }
  Presence p;
  std::size_t i = 0;
  while (i < kStatusNames.size() && kStatusNames[i] != status->get<std::string>()) ++i;
  if (i == kStatusNames.size()) return std::nullopt;
  p.status = static_cast<PresenceStatus>(i);
  if (const auto code = j.find("code"); code != j.end() && code->is_string()) {
    p.code = code->get<std::string>();
  }
  if (const auto with = j.find("with"); with != j.end() && with->is_array()) {
    for (const json& name : *with) {
      if (name.is_string()) p.with.push_back(name.get<std::string>());
    }
  }
  return std::pair{player->get<std::string>(), std::move(p)};
}

std::string encode_friends(const FriendsView& view, const Rid& rid) {
  json friends = json::array();
  for (const FriendView& f : view.friends) {
    json entry{{"id", f.id}, {"name", f.name}, {"rating", f.rating}};
    put_presence(entry, f.presence);
    friends.push_back(std::move(entry));
  }
  json j{{"type", "friends"},
         {"friends", std::move(friends)},
         {"incoming", refs(view.incoming)},
         {"outgoing", refs(view.outgoing)},
         {"blocked", refs(view.blocked)}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_friend_update(PlayerInfo other, std::string_view relation, const Rid& rid) {
  json j{{"type", "friend_update"}, {"player", ref(other.id, other.name)}, {"relation", relation}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_challenge_sent(const ChallengeView& c, const Rid& rid) {
  json j{{"type", "challenge_sent"},
         {"id", c.id},
         {"to", ref(c.to.id, c.to.name)},
         {"settings", settings_json(c.settings)},
         {"expires_at", c.expires_at}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_challenged(const ChallengeView& c) {
  return dump({{"type", "challenged"},
               {"id", c.id},
               {"from", ref(c.from.id, c.from.name)},
               {"settings", settings_json(c.settings)},
               {"expires_at", c.expires_at}});
}

std::string encode_challenge_closed(std::string_view type, std::string_view id, const Rid& rid,
                                    std::string_view reason) {
  json j{{"type", type}, {"id", id}};
  if (!reason.empty()) j["reason"] = reason;
  put_rid(j, rid);
  return dump(j);
}

}  // namespace tilerace::protocol
