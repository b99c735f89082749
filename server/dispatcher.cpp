#include "server/dispatcher.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include <chrono>
#include <vector>

#include "protocol/encode.hpp"
#include "server/achievements.hpp"
#include "server/address_limits.hpp"
#include "server/apply_move.hpp"
#include "server/bot_fallback.hpp"
#include "server/cluster.hpp"
#include "server/journal.hpp"
#include "server/secrets.hpp"
#include "server/unix_time.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

GameRecord record_of(const Player& player, const SoloGame& solo) {
  const engine::Game& g = solo.game;
  return {solo.id,   player.id, g.config(),    g.history(),     g.score(), g.max_tile(),
          g.moves(), g.state(), solo.ranked(), solo.started_at, unix_ms(), ""};
}

protocol::GameView view_of(const SoloGame& solo) { return {solo.id, solo.game, solo.ranked()}; }

}  // namespace

void Dispatcher::open_room(Connection& c, const std::shared_ptr<Room>& room,
                           const protocol::RoomOptions& options, const protocol::Rid& rid) {
  room->join(c.player, c.out, rid);
  if (!options.bot || room_of(*c.player) != room) return;
  if (!room->add_bot(*options.bot)) {
    send_error(c, {ErrorCode::not_allowed, "this server runs no computer opponents", ""}, rid);
  }
}

std::shared_ptr<Room> Dispatcher::room_of(Player& p) {
  std::lock_guard lock(p.mutex);
  return p.room.lock();
}

void Dispatcher::send(Connection& c, std::string message) {
  c.out.deliver(std::make_shared<const std::string>(std::move(message)));
}

void Dispatcher::send_error(Connection& c, const protocol::ProtocolError& error,
                            const protocol::Rid& rid) {
  metrics_.count_error(error.code);
  send(c, protocol::encode_error(error, rid));
}

std::optional<asio::awaitable<void>> Dispatcher::handle(Connection& c,
                                                        const protocol::Decoded& decoded) {
  if (!decoded.ok()) {
    send_error(c, decoded.error(), decoded.rid);
    return std::nullopt;
  }
  const protocol::ClientMessage& message = decoded.message();
  const protocol::Rid& rid = decoded.rid;
  if (const auto* hello = std::get_if<protocol::Hello>(&message)) {
    if (!c.player) return on_hello(c, *hello, rid);
    send_error(c, {ErrorCode::already_hello, "hello was already accepted", ""}, rid);
    return std::nullopt;
  }
  if (!c.player) {
    send_error(c, {ErrorCode::not_hello, "say hello first", ""}, rid);
  } else if (std::holds_alternative<protocol::Ping>(message)) {
    send(c, protocol::encode_pong(rid));
  } else if (const auto* new_game = std::get_if<protocol::NewGame>(&message)) {
    if (!room_of(*c.player)) return on_new_game(c, *new_game, rid);
    send_error(c, {ErrorCode::already_in_room, "leave your room to play solo", ""}, rid);
  } else if (const auto* board = std::get_if<protocol::LeaderboardRequest>(&message)) {
    return on_leaderboard(c, *board, rid);
  } else if (std::holds_alternative<protocol::BotRecordRequest>(message)) {
    return on_bot_record(c, rid);
  } else if (const auto* emote = std::get_if<protocol::SendEmote>(&message)) {
    if (const auto room = room_of(*c.player)) {
      room->emote(*c.player, c.out, emote->emote, rid);
    } else {
      send_error(c, {ErrorCode::not_in_room, "emotes are for racers in a room", ""}, rid);
    }
  } else if (std::holds_alternative<protocol::Move>(message) ||
             std::holds_alternative<protocol::Slide>(message) ||
             std::holds_alternative<protocol::Undo>(message) ||
             std::holds_alternative<protocol::Resign>(message)) {
    if (auto room = room_of(*c.player)) {
      if (room->journaled()) return race_play(c, std::move(room), message, rid);
      room->play(*c.player, c.out, message, rid);
    } else if (c.spectating) {
      send_error(c, {ErrorCode::not_a_player, "spectators cannot play", ""}, rid);
    } else {
      return on_play(c, message, rid);
    }
  } else if (cluster_ != nullptr) {
    if (auto rest = on_cluster_room(c, message, rid)) return rest;
    on_room(c, message, rid);
  } else {
    on_room(c, message, rid);
  }
  return std::nullopt;
}

asio::awaitable<void> Dispatcher::on_hello(Connection& c, const protocol::Hello& m,
                                           const protocol::Rid& rid) {
  std::shared_ptr<Player> player;
  std::string token;
  if (m.token) {
    const std::string id(token_player(*m.token));
    if (!id.empty()) {
      player = players_.find(id);
      if (!player) {
        // Not in memory since this process started: load the player and the solo game the
        // journal kept for them.
        std::optional<PlayerRecord> record;
        std::optional<ActiveGameRecord> active;
        const StoreWorker::Job load = [&](Store& s) {
          record = s.find_player(id);
          if (record) active = s.find_active(id);
        };
        co_await store_.run(load);
        if (record) {
          player = players_.adopt(*record);
          if (active) restore_solo(*player, *active, metrics_);
        }
      }
    }
    if (!player || !token_matches(*m.token, player->token_hash)) {
      send_error(c, {ErrorCode::bad_token, "unknown or wrong token", "token"}, rid);
      co_return;
    }
    token = *m.token;
  } else {
    PlayerRecord record{random_hex(8), m.name, "", unix_ms()};
    IssuedToken issued = issue_token(record.id);
    record.token_hash = std::move(issued.hash);
    const StoreWorker::Job save = [&record](Store& s) { s.add_player(record); };
    co_await store_.run(save);
    player = players_.adopt(record);
    token = std::move(issued.token);
  }
  c.player = player;
  metrics_.players_online.fetch_add(1, std::memory_order_relaxed);
  players_.attach(*player, c.self.lock());
  send(c, protocol::encode_welcome({player->id, player->name}, token, m.token.has_value(), rid));
  std::string snapshot;
  {
    std::lock_guard lock(player->mutex);
    if (player->solo) snapshot = protocol::encode_game(view_of(*player->solo), {});
  }
  if (!snapshot.empty()) send(c, std::move(snapshot));
  if (const auto room = room_of(*player)) {
    room->reconnected(*player, c.out);
  } else if (cluster_ != nullptr && m.token) {
    asio::co_spawn(co_await asio::this_coro::executor, cluster_resume(c.self, player),
                   asio::detached);
  }
}

asio::awaitable<void> Dispatcher::race_play(Connection& c, std::shared_ptr<Room> room,
                                            const protocol::ClientMessage& message,
                                            protocol::Rid rid) {
  co_await room->play_acked(*c.player, c.out, message, std::move(rid));
}

asio::awaitable<void> Dispatcher::on_leaderboard(Connection& c,
                                                 const protocol::LeaderboardRequest& m,
                                                 const protocol::Rid& rid) {
  protocol::LeaderboardRequest answered = m;
  answered.period = protocol::period_at(m, unix_ms());
  const LeaderboardQuery query{m.mode, m.size, m.kind, m.limit, c.player->id, answered.period};
  Leaderboard board;
  const StoreWorker::Job load = [&](Store& s) { board = s.leaderboard(query); };
  co_await store_.run(load);
  send(c, protocol::encode_leaderboard(answered, board.entries, board.me, rid));
}

asio::awaitable<void> Dispatcher::on_bot_record(Connection& c, const protocol::Rid& rid) {
  std::vector<BotRecord> records;
  const StoreWorker::Job load = [&](Store& s) { records = s.bot_records(c.player->id); };
  co_await store_.run(load);
  std::vector<protocol::BotRecordView> views;
  for (const BotRecord& r : records) views.push_back({r.strength, r.wins, r.losses, r.draws});
  send(c, protocol::encode_bot_record(views, rid));
}

void Dispatcher::stop_spectating(Connection& c) {
  if (!c.spectating) return;
  c.spectating->remove_spectator(&c.out);
  c.spectating.reset();
}

void Dispatcher::on_room(Connection& c, const protocol::ClientMessage& message,
                         const protocol::Rid& rid) {
  const std::shared_ptr<Player>& player = c.player;
  const std::shared_ptr<Room> room = room_of(*player);
  auto error = [&](ErrorCode code, std::string_view text) {
    send_error(c, {code, std::string(text), ""}, rid);
  };
  if (const auto* create = std::get_if<protocol::CreateRoom>(&message)) {
    if (room) return error(ErrorCode::already_in_room, "leave your room first");
    if (!limits_.create_room(c.address, AddressLimits::clock::now())) {
      return error(ErrorCode::rate_limited,
                   "too many rooms created from your address: try again in a minute");
    }
    leave_queue(*player);
    stop_spectating(c);
    open_room(c, rooms_.create(create->options), create->options, rid);
  } else if (const auto* join = std::get_if<protocol::JoinRoom>(&message)) {
    if (room) return error(ErrorCode::already_in_room, "leave your room first");
    const auto target = rooms_.find(join->code);
    if (!target) return error(ErrorCode::no_such_room, "no room with that code");
    leave_queue(*player);
    stop_spectating(c);
    target->join(player, c.out, rid);
  } else if (std::holds_alternative<protocol::LeaveRoom>(message)) {
    if (!room) return error(ErrorCode::not_in_room, "you are not in a room");
    room->leave(*player, c.out, rid);
  } else if (const auto* ready = std::get_if<protocol::Ready>(&message)) {
    if (!room) return error(ErrorCode::not_in_room, "you are not in a room");
    room->set_ready(*player, ready->ready, c.out, rid);
  } else if (const auto* quick = std::get_if<protocol::QuickMatch>(&message)) {
    if (room) return error(ErrorCode::already_in_room, "leave your room first");
    on_quick_match(c, *quick, rid);
  } else if (std::holds_alternative<protocol::CancelMatch>(message)) {
    matchmaker_.cancel(*player);
    send(c, protocol::encode_bare("match_cancelled", rid));
  } else if (std::holds_alternative<protocol::ListRooms>(message)) {
    if (cluster_ == nullptr) return send(c, protocol::encode_rooms(rooms_.public_rooms(), rid));
    if (!cluster_->available()) return send_unavailable(c, rid);
    send(c, protocol::encode_rooms(rooms_.public_rooms(), cluster_->remote_rooms(), rid));
  } else if (const auto* spectate = std::get_if<protocol::Spectate>(&message)) {
    if (room) return error(ErrorCode::already_in_room, "racers cannot spectate");
    const auto target = rooms_.find(spectate->code);
    if (!target) return error(ErrorCode::no_such_room, "no room with that code");
    const auto self = c.self.lock();
    if (!self) return;     // the connection is going away
    leave_queue(*player);  // spectating leaves the quick-match queue
    stop_spectating(c);
    if (target->add_spectator(self, rid)) c.spectating = target;
  } else if (std::holds_alternative<protocol::StopSpectating>(message)) {
    stop_spectating(c);
    send(c, protocol::encode_bare("stopped", rid));
  }
}

protocol::RoomOptions Dispatcher::quick_match_room(const protocol::QuickMatch& m) {
  protocol::RoomOptions options;
  options.mode = m.mode;
  options.size = m.size;
  options.target = m.mode == engine::Mode::fifteen ? 0 : 2048;
  options.is_public = true;  // strangers' races are there to be watched
  return options;
}

void Dispatcher::on_quick_match(Connection& c, const protocol::QuickMatch& m,
                                const protocol::Rid& rid) {
  stop_spectating(c);
  const protocol::RoomOptions options = quick_match_room(m);
  std::shared_ptr<Room> room;
  const auto outcome =
      matchmaker_.match({m.mode, m.size}, c.player, [&](const std::shared_ptr<Player>& waiting) {
        return rooms_.create_matched(options, waiting, c.player, room);
      });
  switch (outcome) {
    case Matchmaker::Outcome::queued:
      send(c, protocol::encode_bare("queued", rid));
      if (fallback_ != nullptr) fallback_->queued(c.player, options);
      return;
    case Matchmaker::Outcome::refused:
      return send_error(c, {ErrorCode::already_in_room, "leave your room first", ""}, rid);
    case Matchmaker::Outcome::paired: return room->announce(&c.out, rid);
  }
}

asio::awaitable<bool> Dispatcher::record(Connection& c, const GameRecord& game,
                                         const protocol::Rid& rid,
                                         std::vector<std::string>& earned) {
  bool committed = true;
  std::vector<Grant> granted;
  try {
    const StoreWorker::Job save = [&game, &granted](Store& s) { granted = s.record_game(game); };
    co_await store_.run(save);
  } catch (const std::exception& e) {
    committed = false;
    spdlog::error("recording game {} failed: {}", game.id, e.what());
  }
  if (!committed) {
    send_error(c, {ErrorCode::internal, "the game could not be recorded: try again", ""}, rid);
    co_return false;
  }
  metrics_.games_finished_total.fetch_add(1, std::memory_order_relaxed);
  for (auto& message : announcements_of(granted)) earned.push_back(std::move(message));
  co_return true;
}

asio::awaitable<void> Dispatcher::on_new_game(Connection& c, const protocol::NewGame& m,
                                              const protocol::Rid& rid) {
  engine::GameConfig config = m.config;
  if (!m.explicit_seed) config.seed = random_u64();
  Player& p = *c.player;
  // The game being replaced ends as resigned: recorded first, or it stays as it is.
  std::optional<GameRecord> ended;
  {
    std::lock_guard lock(p.mutex);
    if (p.solo && p.solo->game.state() == engine::GameState::playing) {
      ended = record_of(p, *p.solo);
      ended->state = engine::GameState::resigned;
    }
  }
  std::vector<std::string> earned;
  if (ended && !co_await record(c, *ended, rid, earned)) co_return;
  std::string reply;
  {
    std::lock_guard lock(p.mutex);
    if (ended && p.solo && p.solo->id == ended->id &&
        p.solo->game.end(engine::GameState::resigned)) {
      metrics_.games_active.fetch_sub(1, std::memory_order_relaxed);
    }
    p.solo.emplace(SoloGame{random_hex(8), engine::Game(config), m.explicit_seed, unix_ms()});
    p.journal_dirty = true;
    metrics_.games_active.fetch_add(1, std::memory_order_relaxed);
    reply = protocol::encode_game(view_of(*p.solo), rid);
  }
  send(c, std::move(reply));
  for (auto& message : earned) send(c, std::move(message));
}

std::optional<asio::awaitable<void>> Dispatcher::on_play(Connection& c,
                                                         const protocol::ClientMessage& message,
                                                         const protocol::Rid& rid) {
  Player& p = *c.player;
  std::vector<std::string> replies;
  std::optional<GameRecord> finished;
  std::size_t recorded_moves = 0;  // the history's length before the message, to take it back
  auto fail = [&](ErrorCode code, std::string_view text) {
    metrics_.count_error(code);
    replies.push_back(protocol::encode_error(code, text, rid));
  };
  {
    std::lock_guard lock(p.mutex);
    if (!p.solo) {
      fail(ErrorCode::no_game, "no game: send new_game first");
    } else if (p.solo->game.state() != engine::GameState::playing) {
      fail(ErrorCode::game_over, "this game has ended: send new_game");
    } else {
      SoloGame& solo = *p.solo;
      engine::Game& game = solo.game;
      recorded_moves = game.history().size();
      if (std::holds_alternative<protocol::Move>(message) ||
          std::holds_alternative<protocol::Slide>(message)) {
        if (const auto refused = check_move(game, message)) {
          fail(refused->code, refused->message);
          if (refused->code == ErrorCode::stale) {
            replies.push_back(protocol::encode_game(view_of(solo), rid));
          }
        } else {
          engine::MoveOutcome outcome;
          const std::optional<engine::Direction> dir = apply_move(game, message, outcome);
          if (outcome.changed) {
            metrics_.moves_total.fetch_add(1, std::memory_order_relaxed);
            p.journal_dirty = true;
          }
          replies.push_back(protocol::encode_moved(view_of(solo), dir, outcome, rid));
        }
      } else if (std::holds_alternative<protocol::Undo>(message)) {
        if (game.undo()) {
          p.journal_dirty = true;
          replies.push_back(protocol::encode_game(view_of(solo), rid));
        } else {
          fail(ErrorCode::not_allowed, "nothing to undo");
        }
      } else if (std::holds_alternative<protocol::Resign>(message)) {
        game.end(engine::GameState::resigned);
        replies.push_back(protocol::encode_game(view_of(solo), rid));
      }
      if (game.state() != engine::GameState::playing) {
        finished = record_of(p, solo);
        metrics_.games_active.fetch_sub(1, std::memory_order_relaxed);
      }
    }
  }
  // Durability: a finished game is committed before the message announcing it is sent.
  if (finished)
    return finish_play(c, std::move(replies), std::move(*finished), recorded_moves, rid);
  for (auto& reply : replies) send(c, std::move(reply));
  return std::nullopt;
}

asio::awaitable<void> Dispatcher::finish_play(Connection& c, std::vector<std::string> replies,
                                              GameRecord finished, std::size_t recorded_moves,
                                              const protocol::Rid& rid) {
  // If the store fails, the message that ended the game is taken back: the game is as last
  // recorded.
  std::vector<std::string> earned;
  if (!co_await record(c, finished, rid, earned)) {
    Player& p = *c.player;
    std::lock_guard lock(p.mutex);
    if (p.solo && p.solo->id == finished.id) {
      const std::string& history = p.solo->game.history();
      if (auto before = engine::replay(p.solo->game.config(), history.substr(0, recorded_moves))) {
        p.solo->game = std::move(*before);
        p.solo->journaled = 0;  // the history was cut back: the journal is rewritten whole
        p.journal_dirty = true;
        metrics_.games_active.fetch_add(1, std::memory_order_relaxed);
      }
    }
    co_return;
  }
  for (auto& reply : replies) send(c, std::move(reply));
  for (auto& message : earned) send(c, std::move(message));
}

void Dispatcher::disconnected(Connection& c) {
  stop_spectating(c);
  if (!c.player) return;
  metrics_.players_online.fetch_sub(1, std::memory_order_relaxed);
  if (!players_.detach(*c.player, &c.out)) return;  // replaced by a newer connection
  leave_queue(*c.player);
  if (const auto room = room_of(*c.player)) room->disconnected(*c.player);
}

}  // namespace tilerace::server
