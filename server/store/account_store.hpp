#pragma once
// The store's players and accounts: who plays, their sessions (one per signed-in device), link
// codes, names and the one live connection per player (store.hpp says how calls fail).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/rules/variant_rating.hpp"

namespace tilerace::server {

struct PlayerRecord {
  std::string id;
  std::string name;
  std::string name_key;         // protocol::name_key(name): unique among players
  std::int64_t created_at = 0;  // Unix milliseconds
  PlayerRatings ratings;        // per variant (protocol::index_of)
  int wins = 0;
  int losses = 0;
  std::int64_t registered_at = 0;  // when they set a password; 0: a guest
  std::int64_t renamed_at = 0;     // their last rename; 0: never
  bool bot = false;                // a bot account (docs/bots.md), the computer's included
};

// One of a bot's API tokens, as listed: never its secret (the store keeps its code_hash).
struct BotTokenRecord {
  std::string id;
  std::int64_t created_at = 0;
  std::int64_t last_used = 0;  // 0: never
};

// What upgrade_to_bot found.
enum class BotUpgrade : std::uint8_t { upgraded, played, no_such_player };

// One signed-in device of a player: what its token proves.
struct SessionRecord {
  std::string token_hash;  // SHA-256 of the token's secret, hex (server/base/secrets.hpp)
  std::string player_id;
  std::int64_t created_at = 0;
  std::int64_t last_seen = 0;
  std::string label;    // the device, as the client described it
  std::string address;  // where it was last seen from
};

// Who a session signs in.
struct SessionOwner {
  std::string player_id;
  std::string name;
  std::string released_name;  // the guest name they lost since they were last told, else ""
  bool operator==(const SessionOwner&) const = default;
};

// What a node re-checks of its open connections (Store::check_connections).
struct ConnectionStates {
  struct Player {
    std::int64_t epoch = 0;  // the newest connection's (Store::take_connection)
    std::string name;
  };
  std::map<std::string, Player, std::less<>> players;  // of those asked, the ones that exist
  std::set<std::string, std::less<>> sessions;         // of those asked, the ones not ended
};

// What signing in with a name checks.
struct Credentials {
  std::string player_id;
  std::string password_hash;  // '' for a guest, who cannot sign in with a password
  bool bot = false;           // a bot account, which never signs in with a password
};

// What accounts, sessions and names ask of the store.
class AccountStore {
 public:
  // Adds player with their first session (none for the computer opponents), at once. False,
  // and nothing written, when another player holds the name's key; adding the same player
  // again changes nothing (true).
  virtual bool add_player(const PlayerRecord& player,
                          const std::optional<SessionRecord>& session) = 0;
  virtual std::optional<PlayerRecord> find_player(std::string_view id) = 0;

  // Guest names come free (docs/operations.md, "Accounts and names"): when every player holding
  // name's keys is a guest last used before unused_since — their creation, a session's last
  // sign-in, a game's end — each is renamed to a generated name (their old one kept in
  // old_names, and in released_name until they are told), and true; else false, nothing
  // changed.
  virtual bool release_guest_name(std::string_view name, std::int64_t unused_since,
                                  std::int64_t now) = 0;

  // Accounts (docs/protocol.md, "Accounts"). The player a session's token hash signs in
  // (their id, current name, and the guest name they lost if not told yet: told by this call,
  // the next says ""), marking the session seen at now from address; nullopt for no such
  // session.
  virtual std::optional<SessionOwner> session_player(std::string_view token_hash, std::int64_t now,
                                                     std::string_view address = {}) = 0;
  virtual void add_session(const SessionRecord& session) = 0;
  // player_id's sessions, oldest first.
  virtual std::vector<SessionRecord> sessions(std::string_view player_id) = 0;
  virtual void end_session(std::string_view token_hash) = 0;
  // Ends every session of player_id except keep; the token hashes of those ended.
  virtual std::vector<std::string> end_other_sessions(std::string_view player_id,
                                                      std::string_view keep) = 0;
  // One live connection per player, cluster-wide: a welcome's connection takes the player's
  // next epoch (above every earlier connection's, on any node), returned.
  virtual std::int64_t take_connection(std::string_view player_id) = 0;
  // For each of players, their newest connection's epoch and their name; and which of
  // sessions (token hashes) have not ended. One read, however many are asked.
  virtual ConnectionStates check_connections(const std::vector<std::string>& players,
                                             const std::vector<std::string>& sessions) = 0;
  // Who holds the name with this key, and their password hash.
  virtual std::optional<Credentials> credentials(std::string_view name_key) = 0;
  // Sets player_id's password hash (registering them, or a new password) at at.
  virtual void set_password(std::string_view player_id, std::string_view password_hash,
                            std::int64_t at) = 0;
  // Renames player_id at at, keeping their old name for moderation. False, and nothing
  // written, when another player holds the key.
  virtual bool rename(std::string_view player_id, std::string_view name, std::string_view key,
                      std::int64_t at) = 0;
  // A link code (or a password reset's) for player_id, kept only as its hash (code_hash).
  virtual void add_link_code(std::string_view code, std::string_view player_id,
                             std::int64_t expires_at) = 0;
  // The player a link code signs in, once: the code is spent whether or not it is still valid
  // at now. nullopt for an unknown, spent or expired code.
  virtual std::optional<std::string> take_link_code(std::string_view code, std::int64_t now) = 0;

  // Bot accounts (docs/bots.md). Makes player_id a bot, for good, if they have no recorded game
  // (played: they have; nothing changed). A bot again is upgraded (nothing to change).
  virtual BotUpgrade upgrade_to_bot(std::string_view player_id) = 0;
  // A new API token of bot player_id (id, secret token; the store keeps code_hash(token)).
  virtual void add_bot_token(std::string_view player_id, std::string_view id,
                             std::string_view token, std::int64_t at) = 0;
  virtual std::vector<BotTokenRecord> bot_tokens(std::string_view player_id) = 0;
  // Revokes player_id's token id; false when they have none such.
  virtual bool revoke_bot_token(std::string_view player_id, std::string_view id) = 0;
  // The bot a token signs in (marking it used at now); nullopt for an unknown or revoked one.
  virtual std::optional<SessionOwner> bot_token_player(std::string_view token,
                                                       std::int64_t now) = 0;
  // How many rated races player_id has had since since (Unix ms): a bot's are with bots.
  virtual int rated_races_since(std::string_view player_id, std::int64_t since) = 0;

  // The names player_id had before, oldest first (name, until: Unix ms it was given up).
  virtual std::vector<std::pair<std::string, std::int64_t>> old_names(
      std::string_view player_id) = 0;

 protected:
  ~AccountStore() = default;
};

}  // namespace tilerace::server
