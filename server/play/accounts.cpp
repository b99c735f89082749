#include "server/play/accounts.hpp"

#include <spdlog/spdlog.h>

#include <array>

#include "protocol/encode.hpp"
#include "protocol/moderation.hpp"
#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/room.hpp"
#include "server/game/store_journal.hpp"
#include "server/store/account_store.hpp"
#include "server/store/game_store.hpp"
#include "server/store/moderation_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

constexpr std::array<std::string_view, 16> kAdjectives{
    "brave", "calm",  "clever", "eager", "gentle", "happy", "jolly", "kind",
    "lucky", "merry", "nimble", "proud", "quick",  "sunny", "swift", "witty"};
constexpr std::array<std::string_view, 16> kAnimals{
    "otter",  "panda", "falcon", "fox",   "koala", "lynx", "moose", "owl",
    "puffin", "raven", "seal",   "tiger", "whale", "wolf", "yak",   "zebra"};

// "brave-otter-42": what a player who asks for no name is called.
std::string made_up_name() {
  const std::uint64_t r = random_u64();
  return std::string(kAdjectives[r % 16]) + "-" + std::string(kAnimals[(r >> 8) % 16]) + "-" +
         std::to_string(10 + (r >> 16) % 90);
}

}  // namespace

void Accounts::send_error(Connection& c, const protocol::ProtocolError& error,
                          const protocol::Rid& rid) {
  metrics_.count_error(error.code);
  c.send(protocol::encode_error(error, rid));
}

void Accounts::send_error(Connection& c, ErrorCode code, std::string message,
                          const protocol::Rid& rid, std::string field) {
  send_error(c, {code, std::move(message), std::move(field)}, rid);
}

bool Accounts::limited(Connection& c, std::int64_t wait, const protocol::Rid& rid) {
  if (wait == 0) return false;
  metrics_.login_limited_total.fetch_add(1, std::memory_order_relaxed);
  protocol::ProtocolError error{ErrorCode::rate_limited, "too many sign-in attempts: wait a little",
                                ""};
  error.retry_after_ms = wait;
  send_error(c, error, rid);
  return true;
}

asio::awaitable<std::shared_ptr<Player>> Accounts::load(const std::string& id) {
  if (auto player = players_.find(id)) {
    // A shared store: another node may have rated them since they were here (adopt takes the
    // store's ratings), or gone on with their solo game.
    std::optional<PlayerRecord> record;
    const StoreWorker::JobOn<AccountStore> fresh = [&](AccountStore& s) {
      record = s.find_player(id);
    };
    try {
      co_await store_.run(fresh);
    } catch (const std::exception& e) {
      spdlog::debug("{}: their ratings cannot be read now: {}", id, e.what());
    }
    if (record) players_.adopt(*record);
    std::optional<std::pair<std::string, std::int64_t>> mine;
    if (const auto slot = solo_.find(id)) {
      std::lock_guard lock(slot->mutex);
      if (slot->game && slot->game->game.state() == engine::GameState::playing) {
        mine.emplace(slot->game->id, slot->game->epoch);
      }
    }
    if (!mine) co_return player;
    std::optional<ActiveGameRecord> current;
    const StoreWorker::JobOn<GameStore> reclaim = [&](GameStore& s) {
      current = s.reclaim_active(id, mine->first, mine->second);
    };
    try {
      co_await store_.run(reclaim);
    } catch (const std::exception& e) {
      spdlog::debug("{}: whose solo game is current cannot be asked now: {}", id, e.what());
    }
    if (current) restore_solo(solo_, *current, metrics_, true);
    co_return player;
  }
  // Not in memory since this process started: the player and the solo game the journal kept.
  std::optional<PlayerRecord> record;
  std::optional<ActiveGameRecord> active;
  const StoreWorker::JobOn<AccountStore, GameStore> job = [&](AccountStore& accounts,
                                                              GameStore& games) {
    record = accounts.find_player(id);
    if (record) active = games.find_active(id);
  };
  co_await store_.run(job);
  if (!record) co_return nullptr;
  if (auto player = players_.find(id)) co_return player;  // loaded meanwhile by another hello
  auto player = players_.adopt(*record);
  if (active) restore_solo(solo_, *active, metrics_);
  co_return player;
}

asio::awaitable<bool> Accounts::banned(Connection& c, const std::string& player_id,
                                       const protocol::Rid& rid) {
  std::optional<BanRecord> ban;
  const StoreWorker::JobOn<ModerationStore> find = [&](ModerationStore& s) {
    ban = s.ban_of(player_id, unix_ms());
  };
  co_await store_.run(find);
  if (!ban) co_return false;
  metrics_.count_error(ErrorCode::banned);
  c.send(protocol::encode_banned(ban->reason, ban->until, rid));
  co_return true;
}

asio::awaitable<Accounts::SignedIn> Accounts::new_session(const Connection& c,
                                                          const std::string& player_id,
                                                          const std::string& device) {
  IssuedToken issued = issue_token(player_id);
  const std::int64_t now = unix_ms();
  const SessionRecord session{issued.hash, player_id, now, now, device, c.address};
  const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) { s.add_session(session); };
  co_await store_.run(save);
  std::shared_ptr<Player> player = co_await load(player_id);
  co_return SignedIn{std::move(player), std::move(issued.token), session.token_hash, true};
}

asio::awaitable<std::optional<Accounts::SignedIn>> Accounts::hello(Connection& c,
                                                                   const protocol::Hello& m,
                                                                   const protocol::Rid& rid) {
  if (m.bot_token) co_return co_await bot_sign_in(c, *m.bot_token, rid);
  if (m.token) co_return co_await resume(c, *m.token, rid);
  if (!m.link_code && !c.bearer.empty()) co_return co_await bot_sign_in(c, c.bearer, rid);
  if (m.link_code) {
    if (limited(c, limits_.admit_address(c.address), rid)) co_return std::nullopt;
    std::optional<std::string> player_id;
    const std::string& code = *m.link_code;
    const StoreWorker::JobOn<AccountStore> take = [&](AccountStore& s) {
      player_id = s.take_link_code(code, unix_ms());
    };
    co_await store_.run(take);
    if (!player_id) {
      metrics_.login_failures_total.fetch_add(1, std::memory_order_relaxed);
      send_error(c, ErrorCode::bad_credentials, "unknown, used or expired link code", rid,
                 "link_code");
      co_return std::nullopt;
    }
    if (co_await banned(c, *player_id, rid)) co_return std::nullopt;
    metrics_.logins_total.fetch_add(1, std::memory_order_relaxed);
    SignedIn in = co_await new_session(c, *player_id, m.device);
    in.device_mark = marks_.issue(*player_id, unix_ms());
    co_return in;
  }
  co_return co_await new_guest(c, m, rid);
}

std::string Accounts::name_taken_text() const {
  const std::int64_t days = guest_name_ms_ / 86'400'000;
  return "this name is taken by an account, or by a guest who played in the last " +
         std::to_string(days) + (days == 1 ? " day" : " days") + ": pick another";
}

asio::awaitable<std::optional<Accounts::SignedIn>> Accounts::resume(Connection& c,
                                                                    const std::string& token,
                                                                    const protocol::Rid& rid) {
  const std::string id(token_player(token));
  const std::string hash = token_hash(token);
  std::optional<SessionOwner> owner;
  if (!hash.empty()) {
    const StoreWorker::JobOn<AccountStore> find = [&](AccountStore& s) {
      owner = s.session_player(hash, unix_ms(), c.address);
    };
    co_await store_.run(find);
  }
  const bool known = owner && owner->player_id == id;
  if (known) {
    const bool refused = co_await banned(c, id, rid);  // no co_await inside &&: GCC 12
    if (refused) co_return std::nullopt;
  }
  std::shared_ptr<Player> player;
  if (known) player = co_await load(id);
  if (!player) {
    send_error(c, ErrorCode::bad_token, "unknown or wrong token", rid, "token");
    co_return std::nullopt;
  }
  if (player->name() != owner->name) {  // renamed on another node meanwhile
    player->set_name(owner->name);
    if (const auto room = room_of(*player)) room->renamed(player->id, owner->name);
  }
  co_return SignedIn{std::move(player),
                     token,
                     hash,
                     true,
                     marks_.issue(id, unix_ms()),
                     std::move(owner->released_name)};
}

asio::awaitable<std::optional<Accounts::SignedIn>> Accounts::bot_sign_in(Connection& c,
                                                                         const std::string& token,
                                                                         const protocol::Rid& rid) {
  if (limited(c, limits_.admit_address(c.address), rid)) co_return std::nullopt;
  std::optional<SessionOwner> owner;
  const StoreWorker::JobOn<AccountStore> find = [&](AccountStore& s) {
    owner = s.bot_token_player(token, unix_ms());
  };
  co_await store_.run(find);
  if (!owner) {
    metrics_.login_failures_total.fetch_add(1, std::memory_order_relaxed);
    send_error(c, ErrorCode::bad_token, "unknown or revoked bot token", rid, "bot_token");
    co_return std::nullopt;
  }
  const bool refused = co_await banned(c, owner->player_id, rid);
  if (refused) co_return std::nullopt;
  std::shared_ptr<Player> player = co_await load(owner->player_id);
  if (!player) {
    send_error(c, ErrorCode::bad_token, "unknown or revoked bot token", rid, "bot_token");
    co_return std::nullopt;
  }
  metrics_.logins_total.fetch_add(1, std::memory_order_relaxed);
  // The session is the token's hash: revoking the token signs its connections out.
  co_return SignedIn{std::move(player), "", code_hash(token), true};
}

bool Accounts::refuse_unless_bot(Connection& c, const protocol::Rid& rid) {
  if (c.player->bot_account) return false;
  send_error(c, ErrorCode::not_allowed,
             "only a bot account has API tokens: upgrade_to_bot first (docs/bots.md)", rid);
  return true;
}

asio::awaitable<void> Accounts::upgrade_to_bot(Connection& c, const protocol::UpgradeToBot& m,
                                               const protocol::Rid& rid) {
  Player& player = *c.player;
  if (player.bot_account) {
    send_error(c, ErrorCode::not_allowed, "this account is a bot already", rid);
    co_return;
  }
  if (!player.registered) {
    send_error(c, ErrorCode::not_allowed, "a guest cannot become a bot: register first", rid);
    co_return;
  }
  const std::string key = protocol::name_key(player.name());
  const protocol::ProtocolError wrong{ErrorCode::bad_credentials, "wrong password", "password"};
  if (!co_await check_password(c, player.name(), key, m.password, "", "session:" + c.session, wrong,
                               rid)) {
    co_return;
  }
  BotUpgrade outcome = BotUpgrade::no_such_player;
  const std::string& id = player.id;
  const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) {
    outcome = s.upgrade_to_bot(id);
  };
  co_await store_.run(save);
  if (outcome != BotUpgrade::upgraded) {
    send_error(c, ErrorCode::not_allowed,
               "only an account that has never finished a game may become a bot", rid);
    co_return;
  }
  player.bot_account = true;
  spdlog::info("player {} became a bot account", player.id);
  c.send(protocol::encode_upgraded({player.id, player.name(), true}, rid));
}

asio::awaitable<void> Accounts::bot_token(Connection& c, const protocol::Rid& rid) {
  if (refuse_unless_bot(c, rid)) co_return;
  const std::string id = random_hex(protocol::kBotTokenIdLength / 2);
  const std::string token = "tb_" + random_hex(24);
  const std::int64_t now = unix_ms();
  const std::string& player_id = c.player->id;
  const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) {
    s.add_bot_token(player_id, id, token, now);
  };
  co_await store_.run(save);
  c.send(protocol::encode_bot_token(token, id, rid));
}

asio::awaitable<void> Accounts::bot_tokens(Connection& c, const protocol::Rid& rid) {
  if (refuse_unless_bot(c, rid)) co_return;
  std::vector<BotTokenRecord> records;
  const std::string& player_id = c.player->id;
  const StoreWorker::JobOn<AccountStore> load = [&](AccountStore& s) {
    records = s.bot_tokens(player_id);
  };
  co_await store_.run(load);
  std::vector<protocol::BotTokenView> views;
  for (const BotTokenRecord& r : records) views.push_back({r.id, r.created_at, r.last_used});
  c.send(protocol::encode_bot_tokens(views, rid));
}

asio::awaitable<void> Accounts::revoke_bot_token(Connection& c, const protocol::RevokeBotToken& m,
                                                 const protocol::Rid& rid) {
  if (refuse_unless_bot(c, rid)) co_return;
  bool revoked = false;
  const std::string& player_id = c.player->id;
  const std::string& id = m.id;
  const StoreWorker::JobOn<AccountStore> revoke = [&](AccountStore& s) {
    revoked = s.revoke_bot_token(player_id, id);
  };
  co_await store_.run(revoke);
  if (!revoked) {
    send_error(c, ErrorCode::bad_field, "you have no bot token with that id", rid, "id");
    co_return;
  }
  c.send(protocol::encode_bot_token_revoked(m.id, rid));
}

asio::awaitable<std::optional<Accounts::SignedIn>> Accounts::new_guest(Connection& c,
                                                                       const protocol::Hello& m,
                                                                       const protocol::Rid& rid) {
  // A made-up name may be taken too: a few tries, then the player is asked for one.
  for (int attempt = 0; attempt < (m.name ? 1 : 5); ++attempt) {
    const std::string name = m.name ? *m.name : made_up_name();
    PlayerRecord record{random_hex(8), name, protocol::name_key(name), unix_ms()};
    if (const auto refused = names_.refuses(name)) {
      send_error(c, protocol::name_error(*refused), rid);
      co_return std::nullopt;
    }
    IssuedToken issued = issue_token(record.id);
    const SessionRecord session{issued.hash,       record.id, record.created_at,
                                record.created_at, m.device,  c.address};
    bool added = false;
    const std::int64_t unused_since = record.created_at - guest_name_ms_;
    const bool asked = m.name.has_value();
    const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) {
      added = s.add_player(record, session);
      // A name asked for, held by a guest who has not played for the window, comes free.
      if (!added && asked && s.release_guest_name(name, unused_since, record.created_at)) {
        added = s.add_player(record, session);
      }
    };
    co_await store_.run(save);
    if (added) {
      co_return SignedIn{players_.adopt(record), std::move(issued.token), session.token_hash,
                         false};
    }
  }
  send_error(c, ErrorCode::name_taken, name_taken_text(), rid, "name");
  co_return std::nullopt;
}

asio::awaitable<std::optional<Accounts::Checked>> Accounts::check_password(
    Connection& c, const std::string& name, const std::string& key, const std::string& password,
    const std::string& mark, const std::string& own_device, const protocol::ProtocolError& wrong,
    const protocol::Rid& rid) {
  if (limited(c, limits_.admit_address(c.address), rid)) co_return std::nullopt;
  std::optional<Credentials> credentials;
  if (!key.empty()) {
    const StoreWorker::JobOn<AccountStore> find = [&](AccountStore& s) {
      credentials = s.credentials(key);
    };
    co_await store_.run(find);
  }
  std::string device = own_device;
  if (device.empty() && credentials && !mark.empty()) {
    device = marks_.device_of(mark, credentials->player_id, unix_ms()).value_or("");
  }
  if (limited(c, limits_.admit(key, device), rid)) co_return std::nullopt;
  // Unknown names and guests are checked against no hash, at the same cost as a real one.
  const std::string stored = credentials ? credentials->password_hash : std::string();
  if (!co_await hasher_.verify(password, stored)) {
    const SignInLimits::Failure failure = limits_.failed(key, device);
    if (failure.lockout_ms > 0) {
      metrics_.login_lockouts_total.fetch_add(1, std::memory_order_relaxed);
      // A name that passed the rules holds no control character; anything else is not shown.
      spdlog::warn("sign-in lockout: {} of '{}' for {} s, after a failure from {}",
                   failure.unknown_device ? "the unknown devices" : "a known device",
                   key.empty() ? "(not a name)" : name, (failure.lockout_ms + 999) / 1000,
                   c.address);
    }
    metrics_.login_failures_total.fetch_add(1, std::memory_order_relaxed);
    send_error(c, wrong, rid);
    co_return std::nullopt;
  }
  co_return Checked{credentials->player_id, device, credentials->bot};
}

asio::awaitable<std::optional<Accounts::SignedIn>> Accounts::login(Connection& c,
                                                                   const protocol::Login& m,
                                                                   const protocol::Rid& rid) {
  // A name that is no name cannot be anyone's: the same answer as a wrong password.
  const std::string trimmed = protocol::trim_name(m.name);
  const std::string key = protocol::name_problem(trimmed) ? "" : protocol::name_key(trimmed);
  const protocol::ProtocolError wrong{ErrorCode::bad_credentials, "wrong name or password", ""};
  const auto checked =
      co_await check_password(c, trimmed, key, m.password, m.device_mark, "", wrong, rid);
  if (!checked) co_return std::nullopt;
  if (checked->bot) {  // after the password: a bot's name is told nothing new
    send_error(c, ErrorCode::not_allowed,
               "a bot signs in with hello and its bot_token, never with a password", rid);
    co_return std::nullopt;
  }
  if (co_await banned(c, checked->player_id, rid)) co_return std::nullopt;
  metrics_.logins_total.fetch_add(1, std::memory_order_relaxed);
  SignedIn in = co_await new_session(c, checked->player_id, m.device);
  // A device with a mark keeps its id (its own failures stay its own).
  in.device_mark = marks_.issue(checked->player_id, unix_ms(), checked->device);
  co_return in;
}

asio::awaitable<void> Accounts::register_player(Connection& c, const protocol::Register& m,
                                                const protocol::Rid& rid) {
  Player& player = *c.player;
  if (player.registered) {
    send_error(c, ErrorCode::not_allowed, "you have an account already", rid);
    co_return;
  }
  const std::string hash = co_await hasher_.hash(m.password);
  const std::int64_t now = unix_ms();
  const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) {
    s.set_password(player.id, hash, now);
  };
  co_await store_.run(save);
  player.registered = true;
  metrics_.registrations_total.fetch_add(1, std::memory_order_relaxed);
  c.send(protocol::encode_registered({player.id, player.name()}, rid));
}

asio::awaitable<void> Accounts::sessions(Connection& c, const protocol::Rid& rid) {
  std::vector<SessionRecord> records;
  const std::string& id = c.player->id;
  const StoreWorker::JobOn<AccountStore> load = [&](AccountStore& s) { records = s.sessions(id); };
  co_await store_.run(load);
  std::vector<protocol::SessionView> views;
  for (const SessionRecord& r : records) {
    views.push_back({r.token_hash.substr(0, 16), r.created_at, r.last_seen, r.label,
                     r.token_hash == c.session});
  }
  c.send(protocol::encode_sessions(views, rid));
}

asio::awaitable<void> Accounts::logout(Connection& c, const protocol::Rid& rid) {
  const std::string& session = c.session;
  const StoreWorker::JobOn<AccountStore> end = [&](AccountStore& s) { s.end_session(session); };
  co_await store_.run(end);
  c.send(protocol::encode_logged_out(rid));
  c.out.close(1000);
}

asio::awaitable<void> Accounts::logout_all(Connection& c, const protocol::Rid& rid) {
  const std::string& id = c.player->id;
  const std::string& keep = c.session;
  const StoreWorker::JobOn<AccountStore> end = [&](AccountStore& s) {
    s.end_other_sessions(id, keep);
  };
  co_await store_.run(end);
  co_await sessions(c, rid);
}

asio::awaitable<void> Accounts::change_password(Connection& c, const protocol::ChangePassword& m,
                                                const protocol::Rid& rid) {
  Player& player = *c.player;
  if (!player.registered) {
    send_error(c, ErrorCode::not_allowed, "register first: you have no password yet", rid);
    co_return;
  }
  const std::string key = protocol::name_key(player.name());
  const protocol::ProtocolError wrong{ErrorCode::bad_credentials, "wrong password", "old_password"};
  if (!co_await check_password(c, player.name(), key, m.old_password, "", "session:" + c.session,
                               wrong, rid)) {
    co_return;
  }
  const std::string hash = co_await hasher_.hash(m.password);
  const std::int64_t now = unix_ms();
  const std::string& keep = c.session;
  const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) {
    s.set_password(player.id, hash, now);
    s.end_other_sessions(player.id, keep);
  };
  co_await store_.run(save);
  co_await sessions(c, rid);
}

asio::awaitable<void> Accounts::link_code(Connection& c, const protocol::Rid& rid) {
  const std::string code = random_code(protocol::kLinkCodeLength, protocol::kRoomCodeAlphabet);
  const std::int64_t expires_at = unix_ms() + kLinkCodeMs;
  const std::string& id = c.player->id;
  const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) {
    s.add_link_code(code, id, expires_at);
  };
  co_await store_.run(save);
  c.send(protocol::encode_link_code(code, expires_at, rid));
}

asio::awaitable<void> Accounts::rename(Connection& c, const protocol::Rename& m,
                                       const protocol::Rid& rid) {
  Player& player = *c.player;
  if (!player.registered) {
    send_error(c, ErrorCode::not_allowed,
               "guests cannot rename: register first, or play under another name", rid);
    co_return;
  }
  const std::string key = protocol::name_key(m.name);
  if (const auto refused = names_.refuses(m.name)) {
    send_error(c, protocol::name_error(*refused), rid);
    co_return;
  }
  const std::int64_t now = unix_ms();
  std::int64_t next_rename = 0;  // when this player may rename again; 0: any time
  bool renamed = false;
  const std::string& id = player.id;
  const std::string& name = m.name;
  const StoreWorker::JobOn<AccountStore> save = [&](AccountStore& s) {
    const std::optional<PlayerRecord> record = s.find_player(id);
    if (record && record->renamed_at != 0) next_rename = record->renamed_at + kRenameEveryMs;
    if (!record || now < next_rename) return;
    renamed = s.rename(id, name, key, now);
    if (!renamed && s.release_guest_name(name, now - guest_name_ms_, now)) {
      renamed = s.rename(id, name, key, now);
    }
  };
  co_await store_.run(save);
  if (now < next_rename) {
    const std::int64_t days = (next_rename - now + 86'400'000 - 1) / 86'400'000;
    send_error(c, ErrorCode::not_allowed,
               "one rename every 30 days: the next in " + std::to_string(days) + " days", rid);
    co_return;
  }
  if (!renamed) {
    send_error(c, ErrorCode::name_taken, name_taken_text(), rid, "name");
    co_return;
  }
  player.set_name(m.name);
  c.send(protocol::encode_renamed({player.id, m.name}, rid));
  if (const auto room = room_of(player)) room->renamed(player.id, m.name);
}

}  // namespace tilerace::server
