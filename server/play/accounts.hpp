#pragma once
// Who a connection is, and the account messages (docs/protocol.md, "Accounts"): hello as a new
// guest, with a session's token or with a link code; login with a name and password; and, once
// signed in, register, sessions, logout, logout_all, change_password and link_code.
//
// A player has any number of sessions (one per signed-in device; the token is the session's
// secret, the store keeps its hash) but one connection at a time on a node (PlayerRegistry):
// signing in on a second device replaces the first device's connection, which stays signed in.
// Passwords are hashed on the PasswordHasher's threads; sign-in attempts are counted by
// SignInLimits before any hashing, each device that signed in before by its mark (DeviceMarks).
// No password, token, link code or mark is ever logged.
#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>

#include "protocol/messages.hpp"
#include "protocol/names.hpp"
#include "server/base/device_marks.hpp"
#include "server/base/metrics.hpp"
#include "server/base/password_hasher.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/solo_games.hpp"
#include "server/play/connection.hpp"
#include "server/play/sign_in_limits.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class Accounts {
 public:
  static constexpr std::int64_t kLinkCodeMs = 5 * 60 * 1000;  // a link code's life
  static constexpr std::int64_t kRenameEveryMs = 30LL * 24 * 3600 * 1000;
  // A guest name unused this long goes to whoever asks for it (Store::release_guest_name).
  static constexpr std::int64_t kGuestNameMs = 30LL * 24 * 3600 * 1000;

  // solo: where a player loaded here gets the solo game the journal kept.
  Accounts(PlayerRegistry& players, SoloGames& solo, StoreWorker& store, PasswordHasher& hasher,
           SignInLimits& limits, const DeviceMarks& marks, const protocol::NamePolicy& names,
           std::int64_t guest_name_ms, Metrics& metrics)
      : players_(players),
        solo_(solo),
        store_(store),
        hasher_(hasher),
        limits_(limits),
        marks_(marks),
        names_(names),
        guest_name_ms_(guest_name_ms),
        metrics_(metrics) {}

  // A player signed in on a connection, and the token that connection's device keeps.
  struct SignedIn {
    std::shared_ptr<Player> player;
    std::string token;
    std::string session;        // the token's hash
    bool resumed = false;       // an existing player came back
    std::string device_mark;    // a signed-in device's new mark (not for a new guest)
    std::string released_name;  // the guest name they lost meanwhile, told once
  };
  // The player hello names: the owner of the token's session, the player a link code was made
  // for (a new session), or a new guest (named as asked, or a made-up name). nullopt when it
  // was refused; the error has been sent to c.
  boost::asio::awaitable<std::optional<SignedIn>> hello(Connection& c, const protocol::Hello& m,
                                                        const protocol::Rid& rid);
  // login: the player whose name and password these are, with a new session.
  boost::asio::awaitable<std::optional<SignedIn>> login(Connection& c, const protocol::Login& m,
                                                        const protocol::Rid& rid);

  // The messages of a signed-in connection (c.player and c.session set).
  boost::asio::awaitable<void> register_player(Connection& c, const protocol::Register& m,
                                               const protocol::Rid& rid);
  boost::asio::awaitable<void> sessions(Connection& c, const protocol::Rid& rid);
  boost::asio::awaitable<void> logout(Connection& c, const protocol::Rid& rid);
  boost::asio::awaitable<void> logout_all(Connection& c, const protocol::Rid& rid);
  boost::asio::awaitable<void> change_password(Connection& c, const protocol::ChangePassword& m,
                                               const protocol::Rid& rid);
  boost::asio::awaitable<void> link_code(Connection& c, const protocol::Rid& rid);
  // Bot accounts (docs/bots.md): a registered player who has finished no game becomes a bot
  // for good; a bot makes, lists and revokes its API tokens (a revoked token's connections are
  // signed out by the SessionGuard's recheck, which the dispatcher asks for).
  boost::asio::awaitable<void> upgrade_to_bot(Connection& c, const protocol::UpgradeToBot& m,
                                              const protocol::Rid& rid);
  boost::asio::awaitable<void> bot_token(Connection& c, const protocol::Rid& rid);
  boost::asio::awaitable<void> bot_tokens(Connection& c, const protocol::Rid& rid);
  boost::asio::awaitable<void> revoke_bot_token(Connection& c, const protocol::RevokeBotToken& m,
                                                const protocol::Rid& rid);
  // A registered player's new name, at most once every kRenameEveryMs; the old one is kept.
  boost::asio::awaitable<void> rename(Connection& c, const protocol::Rename& m,
                                      const protocol::Rid& rid);

 private:
  boost::asio::awaitable<std::optional<SignedIn>> resume(Connection& c, const std::string& token,
                                                         const protocol::Rid& rid);
  // The bot a bot token signs in (its session: the token's code_hash; no token to keep).
  boost::asio::awaitable<std::optional<SignedIn>> bot_sign_in(Connection& c,
                                                              const std::string& token,
                                                              const protocol::Rid& rid);
  // not_allowed, sent to c, unless c's player is a bot account.
  bool refuse_unless_bot(Connection& c, const protocol::Rid& rid);
  // name_taken's words: who may hold a name (never which of them does).
  std::string name_taken_text() const;
  boost::asio::awaitable<std::optional<SignedIn>> new_guest(Connection& c, const protocol::Hello& m,
                                                            const protocol::Rid& rid);
  // A new session for player_id on device, seen from c's address; the player loaded if need be.
  boost::asio::awaitable<SignedIn> new_session(const Connection& c, const std::string& player_id,
                                               const std::string& device);
  // Whether player_id is banned; if so, c is told (`banned`, with the reason and the end).
  boost::asio::awaitable<bool> banned(Connection& c, const std::string& player_id,
                                      const protocol::Rid& rid);
  // The player with this id, from memory or loaded with their journaled solo game.
  boost::asio::awaitable<std::shared_ptr<Player>> load(const std::string& id);
  // Whose password this was, and the device id of the mark they came with (empty: none valid).
  struct Checked {
    std::string player_id;
    std::string device;
    bool bot = false;  // a bot account's password
  };
  // The player whose name (as given; key, its key) has this password, tried from a device:
  // own_device when the connection's is known (a signed-in session), else the one mark names
  // (if it is one of ours for that player; else an unknown device). Counted by the limits;
  // else nullopt, with rate_limited or wrong sent to c. An empty key is no one's, checked at
  // the same cost.
  boost::asio::awaitable<std::optional<Checked>> check_password(
      Connection& c, const std::string& name, const std::string& key, const std::string& password,
      const std::string& mark, const std::string& own_device, const protocol::ProtocolError& wrong,
      const protocol::Rid& rid);
  // rate_limited, sent to c, when wait_ms (a limit's answer) is not 0.
  bool limited(Connection& c, std::int64_t wait_ms, const protocol::Rid& rid);
  // Sends error to c, counted in the metrics.
  void send_error(Connection& c, const protocol::ProtocolError& error, const protocol::Rid& rid);
  void send_error(Connection& c, protocol::ErrorCode code, std::string message,
                  const protocol::Rid& rid, std::string field = "");

  PlayerRegistry& players_;
  SoloGames& solo_;
  StoreWorker& store_;
  PasswordHasher& hasher_;
  SignInLimits& limits_;
  const DeviceMarks& marks_;
  const protocol::NamePolicy& names_;
  std::int64_t guest_name_ms_;
  Metrics& metrics_;
};

}  // namespace tilerace::server
