#include "server/rules/solo_rules.hpp"

#include "protocol/encode.hpp"
#include "protocol/message_pool.hpp"
#include "server/rules/apply_move.hpp"
#include "server/rules/daily.hpp"
#include "server/rules/game_record.hpp"

namespace tilerace::server {

namespace {

protocol::GameView view_of(const SoloGame& solo) {
  return {solo.id, solo.game, solo.ranked(), solo.daily, solo.day_over};
}

// The record of solo ended at now_ms (a daily game names its day).
GameRecord record_of(const SoloGame& solo, const std::string& player_id, std::int64_t now_ms) {
  GameRecord record = game_record(solo.game, solo.id, player_id, solo.ranked(), solo.started_at,
                                  now_ms, {}, solo.times);
  record.daily = solo.daily;
  return record;
}

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
  if (std::optional<GameRecord> ended = solo_day_over(*solo, player_id, now_ms)) {
    // The day is over: the attempt ended as it stood, and the message is not played.
    fail(protocol::ErrorCode::game_over, "this daily challenge's day is over");
    fx.replies.push_back(solo_snapshot(*solo, rid));
    fx.finished = std::move(ended);
    return fx;
  }
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
    stamp(solo->times, game.history().size(), now_ms - solo->started_at);
    fx.replies.push_back(protocol::encode_moved(view_of(*solo), dir, outcome, rid,
                                                protocol::message_pool::buffer()));
  } else if (std::holds_alternative<protocol::Undo>(message)) {
    if (!solo->daily.empty()) {
      fail(protocol::ErrorCode::not_allowed, "undo is off in daily games");
      return fx;
    }
    if (!game.undo()) {
      fail(protocol::ErrorCode::not_allowed, "nothing to undo");
      return fx;
    }
    fx.changed = true;
    stamp(solo->times, game.history().size(), now_ms - solo->started_at);  // the Z
    fx.replies.push_back(solo_snapshot(*solo, rid));
  } else if (std::holds_alternative<protocol::Resign>(message)) {
    game.end(engine::GameState::resigned);
    fx.replies.push_back(solo_snapshot(*solo, rid));
  }
  if (game.state() != engine::GameState::playing) {
    fx.finished = record_of(*solo, player_id, now_ms);
  }
  return fx;
}

std::optional<GameRecord> solo_day_over(SoloGame& solo, const std::string& player_id,
                                        std::int64_t now_ms) {
  if (solo.daily.empty() || solo.game.state() != engine::GameState::playing ||
      day_of(now_ms) <= solo.daily) {
    return std::nullopt;
  }
  solo.game.end(engine::GameState::resigned);
  solo.day_over = true;
  return record_of(solo, player_id, day_end(solo.daily));
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
  GameRecord ended = record_of(solo, player_id, now_ms);
  ended.state = engine::GameState::resigned;
  return ended;
}

bool take_back(SoloGame& solo, std::size_t before) {
  auto earlier = engine::replay(solo.game.config(), solo.game.history().substr(0, before));
  if (!earlier) return false;
  solo.game = std::move(*earlier);
  solo.day_over = false;
  if (solo.times && solo.times->size() > before) solo.times->resize(before);
  solo.journaled = 0;  // the history was cut back: the journal is rewritten whole
  return true;
}

}  // namespace tilerace::server
