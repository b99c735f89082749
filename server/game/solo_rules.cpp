#include "server/game/solo_rules.hpp"

#include "protocol/encode.hpp"
#include "server/game/apply_move.hpp"
#include "server/game/game_record.hpp"

namespace tilerace::server {

namespace {

protocol::GameView view_of(const SoloGame& solo) { return {solo.id, solo.game, solo.ranked()}; }

}  // namespace

std::string solo_snapshot(const SoloGame& solo, const protocol::Rid& rid) {
  return protocol::encode_game(view_of(solo), rid);
}

SoloEffects solo_turn(SoloGame* solo, const std::string& player_id,
                      const protocol::ClientMessage& message, const protocol::Rid& rid,
                      std::int64_t now_ms) {
  SoloEffects fx;
  auto fail = [&](protocol::ErrorCode code, std::string_view text) {
    fx.error = code;
    fx.replies.push_back(protocol::encode_error(code, text, rid));
  };
  if (solo == nullptr) {
    fail(protocol::ErrorCode::no_game, "no game: send new_game first");
    return fx;
  }
  engine::Game& game = solo->game;
  if (game.state() != engine::GameState::playing) {
    fail(protocol::ErrorCode::game_over, "this game has ended: send new_game");
    return fx;
  }
  fx.before = game.history().size();
  if (std::holds_alternative<protocol::Move>(message) ||
      std::holds_alternative<protocol::Slide>(message)) {
    if (const auto refused = check_move(game, message)) {
      fail(refused->code, refused->message);
      if (refused->code == protocol::ErrorCode::stale) {
        fx.replies.push_back(solo_snapshot(*solo, rid));
      }
      return fx;
    }
    engine::MoveOutcome& outcome = scratch_outcome();
    const std::optional<engine::Direction> dir = apply_move(game, message, outcome);
    fx.moved = fx.changed = outcome.changed;
    fx.replies.push_back(protocol::encode_moved(view_of(*solo), dir, outcome, rid));
  } else if (std::holds_alternative<protocol::Undo>(message)) {
    if (!game.undo()) {
      fail(protocol::ErrorCode::not_allowed, "nothing to undo");
      return fx;
    }
    fx.changed = true;
    fx.replies.push_back(solo_snapshot(*solo, rid));
  } else if (std::holds_alternative<protocol::Resign>(message)) {
    game.end(engine::GameState::resigned);
    fx.replies.push_back(solo_snapshot(*solo, rid));
  }
  if (game.state() != engine::GameState::playing) {
    fx.finished = game_record(game, solo->id, player_id, solo->ranked(), solo->started_at, now_ms);
  }
  return fx;
}

SoloGame solo_start(const protocol::NewGame& m, std::string id, std::uint64_t seed,
                    std::int64_t now_ms) {
  engine::GameConfig config = m.config;
  if (!m.explicit_seed) config.seed = seed;
  return SoloGame{std::move(id), engine::Game(config), m.explicit_seed, now_ms};
}

std::optional<GameRecord> solo_replaced(const SoloGame& solo, const std::string& player_id,
                                        std::int64_t now_ms) {
  if (solo.game.state() != engine::GameState::playing) return std::nullopt;
  GameRecord ended =
      game_record(solo.game, solo.id, player_id, solo.ranked(), solo.started_at, now_ms);
  ended.state = engine::GameState::resigned;
  return ended;
}

bool take_back(SoloGame& solo, std::size_t before) {
  auto earlier = engine::replay(solo.game.config(), solo.game.history().substr(0, before));
  if (!earlier) return false;
  solo.game = std::move(*earlier);
  solo.journaled = 0;  // the history was cut back: the journal is rewritten whole
  return true;
}

}  // namespace tilerace::server
