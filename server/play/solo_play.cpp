#include "server/play/solo_play.hpp"

#include <spdlog/spdlog.h>

#include "protocol/encode.hpp"
#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/apply_move.hpp"
#include "server/game/game_record.hpp"
#include "server/game/record_views.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

namespace {

GameRecord record_of(const Player& player, const SoloGame& solo) {
  return game_record(solo.game, solo.id, player.id, solo.ranked(), solo.started_at, unix_ms());
}

protocol::GameView view_of(const SoloGame& solo) { return {solo.id, solo.game, solo.ranked()}; }

}  // namespace

std::string SoloPlay::snapshot(Player& player) {
  std::lock_guard lock(player.mutex);
  return player.solo ? protocol::encode_game(view_of(*player.solo), {}) : std::string();
}

void SoloPlay::send_error(Connection& c, ErrorCode code, std::string_view text,
                          const protocol::Rid& rid) {
  metrics_.count_error(code);
  c.send(protocol::encode_error(code, text, rid));
}

asio::awaitable<bool> SoloPlay::record(Connection& c, const GameRecord& game,
                                       const protocol::Rid& rid, std::vector<std::string>& earned) {
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
    send_error(c, ErrorCode::internal, "the game could not be recorded: try again", rid);
    co_return false;
  }
  metrics_.games_finished_total.fetch_add(1, std::memory_order_relaxed);
  for (auto& message : announcements_of(granted)) earned.push_back(std::move(message));
  co_return true;
}

asio::awaitable<void> SoloPlay::new_game(Connection& c, const protocol::NewGame& m,
                                         protocol::Rid rid) {
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
  c.send(std::move(reply));
  for (auto& message : earned) c.send(std::move(message));
}

std::optional<asio::awaitable<void>> SoloPlay::play(Connection& c,
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
  if (finished) return finish(c, std::move(replies), std::move(*finished), recorded_moves, rid);
  for (auto& reply : replies) c.send(std::move(reply));
  return std::nullopt;
}

asio::awaitable<void> SoloPlay::finish(Connection& c, std::vector<std::string> replies,
                                       GameRecord finished, std::size_t recorded_moves,
                                       protocol::Rid rid) {
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
  for (auto& reply : replies) c.send(std::move(reply));
  for (auto& message : earned) c.send(std::move(message));
}

}  // namespace tilerace::server
