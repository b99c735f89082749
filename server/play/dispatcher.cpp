#include "server/play/dispatcher.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

#include "protocol/encode.hpp"
#include "server/base/address_limits.hpp"
#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/bot_racer.hpp"
#include "server/game/record_views.hpp"
#include "server/game/store_journal.hpp"
#include "server/play/bot_fallback.hpp"
#include "server/play/widening_search.hpp"
#include "server/rules/daily.hpp"
#include "server/rules/match_window.hpp"
#include "server/store/account_store.hpp"
#include "server/store/board_store.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

Dispatcher::Dispatcher(PlayServices& play, PlayerRegistry& players, RoomRegistry& rooms,
                       RoomDirectory& directory, StoreWorker& store, Metrics& metrics,
                       AddressLimits& limits, BotFallback* fallback, WideningSearch* widening)
    : players_(players),
      rooms_(rooms),
      directory_(directory),
      store_(store),
      metrics_(metrics),
      limits_(limits),
      fallback_(fallback),
      widening_(widening),
      play_(play) {}

// Hello first; then each message to its route. Checks that concern one message type live in
// its route; what a whole group shares (play, rooms) in the helper they call.
Dispatcher::Work Dispatcher::handle(Connection& c, const protocol::Decoded& decoded) {
  if (!decoded.ok()) {
    send_error(c, decoded.error(), decoded.rid);
    return std::nullopt;
  }
  const protocol::ClientMessage& message = decoded.message();
  const protocol::Rid& rid = decoded.rid;
  if (!c.player && !std::holds_alternative<protocol::Hello>(message) &&
      !std::holds_alternative<protocol::Login>(message)) {
    error(c, ErrorCode::not_hello, "say hello first", rid);
    return std::nullopt;
  }
  return std::visit(
      [&](const auto& m) -> Work {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, protocol::Move> || std::is_same_v<T, protocol::Slide> ||
                      std::is_same_v<T, protocol::Undo> || std::is_same_v<T, protocol::Resign>) {
          // A play changes a presence only by ending a solo game: the sweep sees that.
          return play(c, message, rid);
        } else {
          Work work = route(c, m, rid);
          if (work) return then_refresh(c, std::move(*work));
          if (c.player) play_.presence.refresh(*c.player);
          return std::nullopt;
        }
      },
      message);
}

asio::awaitable<void> Dispatcher::then_refresh(Connection& c, asio::awaitable<void> work) {
  co_await std::move(work);
  if (c.player) play_.presence.refresh(*c.player);
}

void Dispatcher::open_room(Connection& c, const std::shared_ptr<Room>& room,
                           const protocol::RoomOptions& options, const protocol::Rid& rid) {
  const auto self = c.self.lock();
  if (!self) return;  // the connection is going away
  room->join(c.player, self, rid);
  if (room_of(*c.player) != room) return;
  if (options.ghost) return room->seat_ghost();
  if (!options.bot) return;
  if (!BotRacer::seat(room, *options.bot)) {
    error(c, ErrorCode::not_allowed, "this server runs no computer opponents", rid);
  }
}

void Dispatcher::send_error(Connection& c, const protocol::ProtocolError& error,
                            const protocol::Rid& rid) {
  metrics_.count_error(error.code);
  c.send(protocol::encode_error(error, rid));
}

void Dispatcher::error(Connection& c, ErrorCode code, std::string_view text,
                       const protocol::Rid& rid) {
  send_error(c, {code, std::string(text), ""}, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Hello& m,
                                   const protocol::Rid& rid) {
  if (!c.player) return on_hello(c, m, rid);
  error(c, ErrorCode::already_hello, "hello was already accepted", rid);
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Ping& m,
                                   const protocol::Rid& rid) {
  c.send(protocol::encode_pong(rid));
  if (m.rtt) {
    if (const auto room = room_of(*c.player)) room->round_trip(*c.player, *m.rtt);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::NewGame& m,
                                   const protocol::Rid& rid) {
  if (!room_of(*c.player)) return play_.solo.new_game(c, m, rid);
  error(c, ErrorCode::already_in_room, "leave your room to play solo", rid);
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::LeaderboardRequest& m,
                                   const protocol::Rid& rid) {
  return on_leaderboard(c, m, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::BotRecordRequest&,
                                   const protocol::Rid& rid) {
  return on_bot_record(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::SendEmote& m,
                                   const protocol::Rid& rid) {
  if (const auto room = room_of(*c.player)) {
    room->emote(*c.player, c.out, m.emote, rid);
  } else {
    error(c, ErrorCode::not_in_room, "emotes are for racers in a room", rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::play(Connection& c, const protocol::ClientMessage& m,
                                  const protocol::Rid& rid) {
  if (const auto room = room_of(*c.player)) {
    const auto self = c.self.lock();
    if (self) return room->play(*c.player, self, m, rid);
  } else if (c.spectating) {
    error(c, ErrorCode::not_a_player, "spectators cannot play", rid);
  } else {
    return play_.solo.play(c, m, rid);
  }
  return std::nullopt;
}

asio::awaitable<void> Dispatcher::on_hello(Connection& c, const protocol::Hello& m,
                                           const protocol::Rid& rid) {
  auto in = co_await play_.accounts.hello(c, m, rid);
  co_await signed_in(c, std::move(in), rid);
}

asio::awaitable<void> Dispatcher::on_login(Connection& c, const protocol::Login& m,
                                           const protocol::Rid& rid) {
  auto in = co_await play_.accounts.login(c, m, rid);
  co_await signed_in(c, std::move(in), rid);
}

asio::awaitable<void> Dispatcher::signed_in(Connection& c, std::optional<Accounts::SignedIn> in,
                                            const protocol::Rid& rid) {
  if (!in) co_return;
  const std::int64_t epoch = co_await play_.guard.take(in->player->id);
  co_await play_.solo.end_past_daily(in->player->id);  // never handed back as playing
  if (!welcome(c, std::move(*in), epoch, rid)) co_return;
  co_await play_.friends.signed_in(c.player);
}

bool Dispatcher::welcome(Connection& c, Accounts::SignedIn in, std::int64_t epoch,
                         const protocol::Rid& rid) {
  const std::shared_ptr<Player>& player = in.player;
  c.player = player;
  c.session = std::move(in.session);
  metrics_.players_online.fetch_add(1, std::memory_order_relaxed);
  // Superseded already (a newer sign-in on another node): closed with 4000, no welcome.
  if (!players_.attach(*player, c.self.lock(), epoch, c.session)) return false;
  c.send(protocol::encode_welcome({player->id, player->name(), player->is_bot()}, in.token,
                                  in.resumed, player->registered, in.device_mark, in.released_name,
                                  rid));
  if (std::string snapshot = play_.solo.snapshot(player->id); !snapshot.empty()) {
    c.send(std::move(snapshot));
  }
  play_.tournaments.presence(c, true);  // a member gets their tournament's snapshot
  if (const auto room = room_of(*player)) {
    if (const auto self = c.self.lock()) room->reconnected(*player, self);
  } else if (in.resumed) {
    directory_.follow_race(c.self, player);  // their race may run on another node
  }
  return true;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Login& m,
                                   const protocol::Rid& rid) {
  if (!c.player) return on_login(c, m, rid);
  error(c, ErrorCode::already_hello, "you are signed in already", rid);
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Register& m,
                                   const protocol::Rid& rid) {
  return play_.accounts.register_player(c, m, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::SessionsRequest&,
                                   const protocol::Rid& rid) {
  return play_.accounts.sessions(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Logout&,
                                   const protocol::Rid& rid) {
  return play_.accounts.logout(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::LogoutAll&,
                                   const protocol::Rid& rid) {
  return then_recheck(c, play_.accounts.logout_all(c, rid));
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::ChangePassword& m,
                                   const protocol::Rid& rid) {
  return then_recheck(c, play_.accounts.change_password(c, m, rid));
}

asio::awaitable<void> Dispatcher::then_recheck(Connection& c, asio::awaitable<void> work) {
  co_await std::move(work);
  play_.guard.changed(c.player->id);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::UpgradeToBot& m,
                                   const protocol::Rid& rid) {
  return play_.accounts.upgrade_to_bot(c, m, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::BotTokenRequest&,
                                   const protocol::Rid& rid) {
  return play_.accounts.bot_token(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::BotTokensRequest&,
                                   const protocol::Rid& rid) {
  return play_.accounts.bot_tokens(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::RevokeBotToken& m,
                                   const protocol::Rid& rid) {
  return revoke_bot_token(c, m, rid);
}

asio::awaitable<void> Dispatcher::revoke_bot_token(Connection& c, protocol::RevokeBotToken m,
                                                   protocol::Rid rid) {
  co_await play_.accounts.revoke_bot_token(c, m, rid);
  // A connection signed in with the token is signed out: this node's by the check, another
  // node's by its recheck.
  std::vector<std::string> bot{c.player->id};  // named: GCC 12 and braced lists in co_await
  co_await play_.guard.check(std::move(bot));
  play_.guard.changed(c.player->id);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::LinkCodeRequest&,
                                   const protocol::Rid& rid) {
  return play_.accounts.link_code(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Rename& m,
                                   const protocol::Rid& rid) {
  return then_recheck(c, play_.accounts.rename(c, m, rid));
}

asio::awaitable<void> Dispatcher::on_leaderboard(Connection& c,
                                                 const protocol::LeaderboardRequest& m,
                                                 const protocol::Rid& rid) {
  protocol::LeaderboardRequest answered = m;
  answered.period = protocol::period_at(m, unix_ms());
  const LeaderboardQuery query = query_of(answered, c.player->id);
  Leaderboard board;
  const StoreWorker::JobOn<BoardStore> load = [&](BoardStore& s) { board = s.leaderboard(query); };
  co_await store_.run(load);
  std::optional<protocol::LeaderboardEntry> me;
  if (board.me) me = view_of(*board.me);
  c.send(protocol::encode_leaderboard(answered, views_of(board.entries), me, rid));
}

asio::awaitable<void> Dispatcher::on_bot_record(Connection& c, const protocol::Rid& rid) {
  std::vector<BotRecord> records;
  const StoreWorker::JobOn<GameStore> load = [&](GameStore& s) {
    records = s.bot_records(c.player->id);
  };
  co_await store_.run(load);
  std::vector<protocol::BotRecordView> views;
  for (const BotRecord& r : records) views.push_back({r.strength, r.wins, r.losses, r.draws});
  c.send(protocol::encode_bot_record(views, rid));
}

void Dispatcher::stop_spectating(Connection& c) {
  if (!c.spectating) return;
  c.spectating->remove_spectator(&c.out);
  c.spectating.reset();
  if (c.player) {
    std::lock_guard lock(c.player->mutex);
    play_.presence.set_watching(c.player->id, "");
  }
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::CreateRoom& m,
                                   const protocol::Rid& rid) {
  if (room_of(*c.player)) {
    error(c, ErrorCode::already_in_room, "leave your room first", rid);
  } else if (!limits_.create_room(c.address, AddressLimits::clock::now())) {
    error(c, ErrorCode::rate_limited,
          "too many rooms created from your address: try again in a minute", rid);
  } else {
    return create_room(c, m.options, rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Report& m,
                                   const protocol::Rid& rid) {
  return play_.moderation.report(c, m, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Kick& m,
                                   const protocol::Rid& rid) {
  if (const auto room = room_of(*c.player)) {
    room->kick(*c.player, m.player, c.out, rid);
  } else {
    error(c, ErrorCode::not_in_room, "you are not in a room", rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::JoinRoom& m,
                                   const protocol::Rid& rid) {
  if (room_of(*c.player)) {
    error(c, ErrorCode::already_in_room, "leave your room first", rid);
  } else if (const auto target = rooms_.find(m.code)) {
    directory_.leave_queue(*c.player);
    stop_spectating(c);
    if (const auto self = c.self.lock()) target->join(c.player, self, rid);
  } else {
    return locate(c, m.code, "join_room", rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::LeaveRoom&,
                                   const protocol::Rid& rid) {
  if (const auto room = room_of(*c.player)) {
    room->leave(*c.player, c.out, rid);
  } else {
    error(c, ErrorCode::not_in_room, "you are not in a room", rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Ready& m,
                                   const protocol::Rid& rid) {
  if (const auto room = room_of(*c.player)) {
    room->set_ready(*c.player, m.ready, c.out, rid);
  } else {
    error(c, ErrorCode::not_in_room, "you are not in a room", rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::QuickMatch& m,
                                   const protocol::Rid& rid) {
  if (room_of(*c.player)) {
    error(c, ErrorCode::already_in_room, "leave your room first", rid);
  } else {
    return quick_match(c, m, rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::CancelMatch&,
                                   const protocol::Rid& rid) {
  return cancel_match(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::ListRooms&,
                                   const protocol::Rid& rid) {
  if (!directory_.available()) {
    send_unavailable(c, rid);
  } else {
    c.send(protocol::encode_rooms(rooms_.public_rooms(), directory_.remote_rooms(), rid));
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Spectate& m,
                                   const protocol::Rid& rid) {
  if (room_of(*c.player)) {
    error(c, ErrorCode::already_in_room, "racers cannot spectate", rid);
    return std::nullopt;
  }
  const auto target = rooms_.find(m.code);
  if (!target) {
    return locate(c, m.code, "spectate", rid);
  }
  const auto self = c.self.lock();
  if (!self) return std::nullopt;     // the connection is going away
  directory_.leave_queue(*c.player);  // spectating leaves the quick-match queue
  stop_spectating(c);
  if (target->add_spectator(self, rid)) {
    c.spectating = target;
    std::lock_guard lock(c.player->mutex);
    play_.presence.set_watching(c.player->id, target->code());
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::StopSpectating&,
                                   const protocol::Rid& rid) {
  stop_spectating(c);
  c.send(protocol::encode_bare("stopped", rid));
  return std::nullopt;
}

protocol::RoomOptions Dispatcher::quick_match_room(const protocol::QuickMatch& m) {
  protocol::RoomOptions options;
  options.mode = m.mode;
  options.size = m.size;
  options.target = m.mode == engine::Mode::fifteen ? 0 : 2048;
  options.is_public = true;  // strangers' races are there to be watched
  return options;
}

void Dispatcher::send_unavailable(Connection& c, const protocol::Rid& rid) {
  error(c, ErrorCode::unavailable,
        "rooms on other nodes cannot be reached right now (the cluster directory is down): "
        "try again shortly",
        rid);
}

asio::awaitable<std::shared_ptr<const GhostRun>> Dispatcher::load_ghost(Connection& c,
                                                                        const std::string& id,
                                                                        const protocol::Rid& rid) {
  std::optional<GameRecord> game;
  std::optional<PlayerRecord> owner;
  const StoreWorker::JobOn<AccountStore, GameStore> load = [&](AccountStore& accounts,
                                                               GameStore& games) {
    game = games.find_game(id);
    if (game) owner = accounts.find_player(game->player_id);
  };
  try {
    co_await store_.run(load);
  } catch (const std::exception& e) {
    spdlog::warn("loading game {} for a ghost race failed: {}", id, e.what());
    error(c, ErrorCode::internal, "the game could not be loaded: try again shortly", rid);
    co_return nullptr;
  }
  if (!game || !owner) {
    error(c, ErrorCode::no_such_game, "no recorded game with that id", rid);
    co_return nullptr;
  }
  if (const auto refusal = ghost_refusal(*game, day_of(unix_ms()))) {
    error(c, refusal->code, refusal->message, rid);
    co_return nullptr;
  }
  co_return std::make_shared<const GhostRun>(ghost_run_of(*game, owner->name, owner->ratings));
}

asio::awaitable<void> Dispatcher::create_room(Connection& c, protocol::RoomOptions options,
                                              const protocol::Rid& rid) {
  std::shared_ptr<const GhostRun> ghost;
  if (options.ghost) {
    ghost = co_await load_ghost(c, *options.ghost, rid);
    if (!ghost) co_return;
    options.mode = ghost->config.mode;
    options.size = ghost->config.size;
    options.target = ghost->config.target;
  }
  std::string code;
  try {
    co_await directory_.unqueue(c.player);
    code = co_await directory_.claim_code();
  } catch (const std::exception& e) {
    spdlog::debug("create_room: {}", e.what());
    send_unavailable(c, rid);
    co_return;
  }
  stop_spectating(c);
  // Room::join answers already_in_room (and closes the room, releasing the code) if a quick
  // match seated the player meanwhile.
  open_room(c, rooms_.create(options, std::move(code), std::move(ghost)), options, rid);
}

asio::awaitable<void> Dispatcher::locate(Connection& c, const std::string& code,
                                         std::string_view reason, const protocol::Rid& rid) {
  std::optional<std::string> url;
  try {
    url = co_await directory_.locate(code);
  } catch (const std::exception& e) {
    spdlog::debug("{} {}: {}", reason, code, e.what());
    send_unavailable(c, rid);
    co_return;
  }
  if (!url) {
    if (reason.ends_with("tournament")) {
      error(c, ErrorCode::no_such_tournament, "no tournament with that code", rid);
    } else {
      error(c, ErrorCode::no_such_room, "no room with that code", rid);
    }
    co_return;
  }
  metrics_.redirects_total.fetch_add(1, std::memory_order_relaxed);
  c.send(protocol::encode_redirect(*url, code, reason, rid));
}

asio::awaitable<void> Dispatcher::quick_match(Connection& c, const protocol::QuickMatch& m,
                                              const protocol::Rid& rid) {
  stop_spectating(c);
  protocol::RoomOptions options = quick_match_room(m);
  options.bot_queue = m.bots || c.player->is_bot();  // bots meet bots, and who asked for them
  if (c.player->bot_account && !co_await may_race_bots(c, rid)) co_return;
  const protocol::Variant variant = protocol::variant_of(options.mode, options.size);
  glicko2::Rating rating;
  {
    std::lock_guard lock(c.player->mutex);
    rating = c.player->ratings[protocol::index_of(variant)].at_time(unix_ms());
  }
  QuickMatchResult result;
  try {
    result = co_await directory_.quick_match(c.player, options, {rating.rating, rating.rd});
  } catch (const std::exception& e) {
    spdlog::debug("quick_match: {}", e.what());
    send_unavailable(c, rid);
    co_return;
  }
  switch (result.outcome) {
    case QuickMatchResult::Outcome::queued: {
      const MatchWindow& w = kMatchWindow;
      c.send(protocol::encode_queued({.variant = variant,
                                      .rating = shown(rating.rating),
                                      .rd = shown(rating.rd),
                                      .window = shown(w.at(rating.rd, {})),
                                      .window_step = shown(w.step),
                                      .window_every_ms = w.every.count(),
                                      .window_max = shown(w.max)},
                                     rid));
      if (fallback_ != nullptr) fallback_->queued(c.player, options);
      if (widening_ != nullptr) widening_->queued(c.player, options);
      break;
    }
    case QuickMatchResult::Outcome::gone:  // not asked again: only a rematch finds one gone
    case QuickMatchResult::Outcome::refused:
      error(c, ErrorCode::already_in_room, "leave your room first", rid);
      break;
    case QuickMatchResult::Outcome::paired: result.room->announce(&c.out, rid); break;
  }
}

asio::awaitable<bool> Dispatcher::may_race_bots(Connection& c, const protocol::Rid& rid) {
  const std::int64_t now = unix_ms();
  const std::int64_t day_start = now - now % 86'400'000;
  int races = 0;
  const std::string& id = c.player->id;
  const StoreWorker::JobOn<AccountStore> count = [&](AccountStore& s) {
    races = s.rated_races_since(id, day_start);
  };
  co_await store_.run(count);
  if (races < play_.bot_races_per_day) co_return true;
  error(c, ErrorCode::not_allowed,
        "this bot has had its " + std::to_string(play_.bot_races_per_day) +
            " races with bots today (UTC): more tomorrow",
        rid);
  co_return false;
}

asio::awaitable<void> Dispatcher::cancel_match(Connection& c, const protocol::Rid& rid) {
  try {
    co_await directory_.unqueue(c.player);
  } catch (const std::exception& e) {
    // Its entry stays until a pairing pops it; that pairing finds the player absent.
    spdlog::debug("cancel_match: {}", e.what());
  }
  c.send(protocol::encode_bare("match_cancelled", rid));
}

void Dispatcher::disconnected(Connection& c) {
  stop_spectating(c);
  play_.tournaments.stop_following(c);
  if (!c.player) return;
  metrics_.players_online.fetch_sub(1, std::memory_order_relaxed);
  if (!players_.detach(*c.player, &c.out)) return;  // replaced by a newer connection
  directory_.leave_queue(*c.player);
  if (const auto room = room_of(*c.player)) room->disconnected(*c.player);
  play_.tournaments.presence(c, false);
  play_.guard.settle(c.player, [this, player = c.player] { play_.presence.refresh(*player); });
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::FriendChange& m,
                                   const protocol::Rid& rid) {
  return play_.friends.change(c, m, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::FriendsRequest&,
                                   const protocol::Rid& rid) {
  return play_.friends.list(c, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Challenge& m,
                                   const protocol::Rid& rid) {
  if (m.player == c.player->id) {
    error(c, ErrorCode::not_allowed, "that is you", rid);
    return std::nullopt;
  }
  return play_.challenges.challenge(c, m, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::ChallengeAnswer& m,
                                   const protocol::Rid& rid) {
  return play_.challenges.answer(c, m, rid);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::Rematch&,
                                   const protocol::Rid& rid) {
  // A rematch is the room's next round of ready: same room, same settings, a new seed.
  if (const auto room = room_of(*c.player)) {
    room->set_ready(*c.player, true, c.out, rid);
  } else {
    error(c, ErrorCode::not_in_room, "the race's room is gone: there is nothing to rematch", rid);
  }
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::SpectatePlayer& m,
                                   const protocol::Rid& rid) {
  if (!play_.friend_lists.are_friends(c.player->id, m.player)) {
    error(c, ErrorCode::not_friends, "you can follow your friends only", rid);
    return std::nullopt;
  }
  if (room_of(*c.player)) {
    error(c, ErrorCode::already_in_room, "racers cannot spectate", rid);
    return std::nullopt;
  }
  return follow(c, m, rid);
}

asio::awaitable<void> Dispatcher::follow(Connection& c, const protocol::SpectatePlayer& m,
                                         const protocol::Rid& rid) {
  std::vector<std::string> who{m.player};  // named: GCC 12 and braced lists in co_await
  auto presences = co_await play_.presence.presences(std::move(who));
  const protocol::Presence& where = presences[m.player];
  if (where.status != protocol::PresenceStatus::racing &&
      where.status != protocol::PresenceStatus::spectating) {
    error(c, ErrorCode::no_such_room, "they are not in a room now", rid);
    co_return;
  }
  const protocol::Spectate spectate{where.code};  // outlives the work route returns
  Work rest = route(c, spectate, rid);
  if (rest) co_await std::move(*rest);
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::CreateTournament& m,
                                   const protocol::Rid& rid) {
  // A tournament takes one from the address's room quota: it opens rooms.
  if (!limits_.create_room(c.address, AddressLimits::clock::now())) {
    error(c, ErrorCode::rate_limited,
          "too many rooms and tournaments created from your address: try again in a minute", rid);
  } else {
    return create_tournament(c, m, rid);
  }
  return std::nullopt;
}

asio::awaitable<void> Dispatcher::create_tournament(Connection& c, protocol::CreateTournament m,
                                                    const protocol::Rid& rid) {
  if (!co_await play_.tournaments.may_create(c, store_, rid)) co_return;
  std::string code;
  try {
    code = co_await directory_.claim_code();
  } catch (const std::exception& e) {
    spdlog::debug("create_tournament: {}", e.what());
    send_unavailable(c, rid);
    co_return;
  }
  play_.tournaments.create(c, m, rid, std::move(code));
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::JoinTournament& m,
                                   const protocol::Rid& rid) {
  if (!play_.tournaments.hosts(m.code)) return locate(c, m.code, "join_tournament", rid);
  play_.tournaments.join(c, m, rid);
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::LeaveTournament&,
                                   const protocol::Rid& rid) {
  play_.tournaments.leave(c, rid);
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::StartTournament&,
                                   const protocol::Rid& rid) {
  play_.tournaments.start(c, rid);
  return std::nullopt;
}

Dispatcher::Work Dispatcher::route(Connection& c, const protocol::SpectateTournament& m,
                                   const protocol::Rid& rid) {
  if (!play_.tournaments.hosts(m.code)) return locate(c, m.code, "spectate_tournament", rid);
  play_.tournaments.spectate(c, m, rid);
  return std::nullopt;
}

}  // namespace tilerace::server
