#include "server/play/friends.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/friends.hpp"
#include "protocol/names.hpp"
#include "server/store/account_store.hpp"
#include "server/store/social_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

// How the player whose view pair is stands to the other, as friend_update names it.
std::string_view relation(const FriendPair& pair) {
  if (pair.mine == Link::friends) return "friend";
  if (pair.mine == Link::blocked) return "blocked";
  if (pair.mine == Link::requested) return "requested";
  if (pair.theirs == Link::requested) return "incoming";
  return "none";
}

FriendPair swapped(const FriendPair& pair) { return {pair.theirs, pair.mine}; }

FriendAction action_of(protocol::FriendVerb verb) {
  switch (verb) {
    case protocol::FriendVerb::request: return FriendAction::request;
    case protocol::FriendVerb::accept: return FriendAction::accept;
    case protocol::FriendVerb::decline: return FriendAction::decline;
    case protocol::FriendVerb::remove: return FriendAction::remove;
    case protocol::FriendVerb::block: return FriendAction::block;
    case protocol::FriendVerb::unblock: return FriendAction::unblock;
  }
  return FriendAction::request;
}

// The refusal an outcome is, or nothing for one that is answered with friend_update.
std::optional<std::pair<ErrorCode, std::string_view>> refusal(FriendOutcome outcome) {
  switch (outcome) {
    case FriendOutcome::changed:
    case FriendOutcome::unchanged:
    case FriendOutcome::dropped: return std::nullopt;
    case FriendOutcome::no_request:
      return std::pair{ErrorCode::not_friends, "they have not asked to be your friend"};
    case FriendOutcome::not_friends:
      return std::pair{ErrorCode::not_friends, "you are not friends and have not asked them"};
    case FriendOutcome::not_blocked:
      return std::pair{ErrorCode::not_allowed, "you have not blocked them"};
    case FriendOutcome::i_blocked:
      return std::pair{ErrorCode::not_allowed, "you blocked them: unblock them first"};
    case FriendOutcome::already:
      return std::pair{ErrorCode::not_allowed, "you are friends already"};
    case FriendOutcome::too_many:
      return std::pair{ErrorCode::not_allowed, "a player has at most 200 friends"};
    case FriendOutcome::too_many_requests:
      return std::pair{ErrorCode::not_allowed,
                       "at most 50 friend requests wait for an answer: some must be answered "
                       "or cancelled first"};
  }
  return std::nullopt;
}

std::vector<std::string> friend_ids(const std::vector<FriendRecord>& records) {
  std::vector<std::string> ids;
  for (const FriendRecord& r : records) {
    if (r.link == Link::friends) ids.push_back(r.id);
  }
  return ids;
}

}  // namespace

Friends::Friends(PlayerRegistry& players, FriendLists& lists, StoreWorker& store,
                 PresenceBoard& presence, Metrics& metrics, PlayerReach* reach, Clock now)
    : players_(players),
      lists_(lists),
      store_(store),
      presence_(presence),
      metrics_(metrics),
      reach_(reach),
      now_(std::move(now)) {}

bool Friends::admit_request(const std::string& player) {
  const std::int64_t now = now_();
  std::lock_guard lock(mutex_);
  for (auto it = requests_.begin(); it != requests_.end();) {  // forget the quiet ones
    std::erase_if(it->second, [&](std::int64_t at) { return at <= now - 60'000; });
    it = it->second.empty() && it->first != player ? requests_.erase(it) : std::next(it);
  }
  auto& recent = requests_[player];
  if (static_cast<int>(recent.size()) >= kRequestsPerMinute) return false;
  recent.push_back(now);
  return true;
}

asio::awaitable<std::string> Friends::resolve(Connection& c, const protocol::FriendChange& m,
                                              const protocol::Rid& rid) {
  std::string id;
  const std::string key = m.name.empty() ? std::string() : protocol::name_key(m.name);
  const StoreWorker::JobOn<AccountStore> find = [&](AccountStore& s) {
    if (!key.empty()) {
      if (const auto who = s.credentials(key)) id = who->player_id;
    } else if (s.find_player(m.player)) {
      id = m.player;
    }
  };
  co_await store_.run(find);
  if (id.empty()) send_error(c, metrics_, ErrorCode::no_such_player, "no player by that name", rid);
  co_return id;
}

asio::awaitable<void> Friends::change(Connection& c, const protocol::FriendChange& m,
                                      const protocol::Rid& rid) {
  const std::shared_ptr<Player> me = c.player;
  if (m.verb == protocol::FriendVerb::request && !admit_request(me->id)) {
    send_error(c, metrics_, ErrorCode::rate_limited,
               "at most 5 friend requests a minute: try again shortly", rid);
    co_return;
  }
  const std::string other = co_await resolve(c, m, rid);
  if (other.empty()) co_return;
  if (other == me->id) {
    send_error(c, metrics_, ErrorCode::not_allowed, "that is you", rid);
    co_return;
  }
  FriendChangeRecord result;
  std::string other_name;
  const FriendAction action = action_of(m.verb);
  const std::int64_t now = now_();
  const StoreWorker::JobOn<AccountStore, SocialStore> save = [&](AccountStore& accounts,
                                                                 SocialStore& social) {
    result = social.change_friendship(me->id, other, action, now);
    if (const auto record = accounts.find_player(other)) other_name = record->name;
  };
  co_await store_.run(save);
  if (const auto refused = refusal(result.step.outcome)) {
    send_error(c, metrics_, refused->first, std::string(refused->second), rid);
    co_return;
  }
  const FriendPair& before = result.before;
  const FriendPair& after = result.step.after;
  const bool changed = result.step.outcome == FriendOutcome::changed;
  const bool became = changed && after.mine == Link::friends && before.mine != Link::friends;
  const bool ended = changed && before.mine == Link::friends && after.mine != Link::friends;
  if (became || ended) {
    lists_.set_friend(me->id, other, became);
    if (players_.find(other)) lists_.set_friend(other, me->id, became);
  }
  // The other is told what changed for them before the asker's answer goes out — except that
  // a block shows as a removal, and only when they saw something to remove (a friendship, a
  // request either way).
  const bool visible = before.mine == Link::requested || before.theirs == Link::requested ||
                       before.mine == Link::friends;
  const bool told =
      changed && action != FriendAction::unblock && (action != FriendAction::block || visible);
  if (told) {
    const std::string_view theirs =
        action == FriendAction::block ? std::string_view("none") : relation(swapped(after));
    std::string update = protocol::encode_friend_update({me->id, me->name()}, theirs, {});
    co_await send_anywhere(players_, reach_, other, std::move(update), became || ended);
  }
  if (became) {
    std::string presence = protocol::encode_presence(me->id, presence_.presence_of(*me));
    co_await send_anywhere(players_, reach_, other, std::move(presence), false);
  }
  // A dropped request looks sent: the blocked player is not told.
  const std::string_view mine = result.step.outcome == FriendOutcome::dropped
                                    ? std::string_view("requested")
                                    : relation(after);
  c.send(protocol::encode_friend_update({other, other_name}, mine, rid));
  if (became) co_await presence_.tell(me->id, other);
}

asio::awaitable<void> Friends::list(Connection& c, const protocol::Rid& rid) {
  std::vector<FriendRecord> records;
  const std::string& id = c.player->id;
  const StoreWorker::JobOn<SocialStore> load = [&](SocialStore& s) { records = s.friends_of(id); };
  co_await store_.run(load);
  std::vector<std::string> ids = friend_ids(records);
  lists_.set(id, ids);
  auto presences = co_await presence_.presences(ids);
  protocol::FriendsView view;
  for (FriendRecord& r : records) {
    protocol::PlayerRef ref{r.id, r.name};
    switch (r.link) {
      case Link::friends:
        view.friends.push_back({r.id, r.name, r.rating, std::move(presences[r.id])});
        break;
      case Link::requested:
        (r.incoming ? view.incoming : view.outgoing).push_back(std::move(ref));
        break;
      case Link::blocked: view.blocked.push_back(std::move(ref)); break;
      case Link::none: break;
    }
  }
  c.send(protocol::encode_friends(view, rid));
}

asio::awaitable<void> Friends::reload(std::shared_ptr<Player> player) {
  std::vector<FriendRecord> records;
  const std::string& id = player->id;
  const StoreWorker::JobOn<SocialStore> load = [&](SocialStore& s) { records = s.friends_of(id); };
  co_await store_.run(load);
  std::vector<std::string> ids = friend_ids(records);
  lists_.set(id, std::move(ids));
}

asio::awaitable<void> Friends::signed_in(std::shared_ptr<Player> player) {
  try {
    co_await reload(player);
  } catch (const std::exception& e) {
    spdlog::warn("friends of {}: {}", player->id, e.what());  // the next `friends` loads them
  }
  presence_.refresh(*player);
  // The connection's next message is answered once other nodes can reach the player.
  if (reach_ == nullptr) co_return;
  try {
    co_await reach_->flush();
  } catch (const std::exception& e) {
    spdlog::debug("presence of {}: {}", player->id, e.what());
  }
}

}  // namespace tilerace::server
