#include "server/rules/apply_move.hpp"

namespace tilerace::server {

using protocol::ErrorCode;

std::optional<protocol::ProtocolError> check_move(const engine::Game& game,
                                                  const protocol::ClientMessage& message) {
  const auto* move = std::get_if<protocol::Move>(&message);
  const auto* slide = std::get_if<protocol::Slide>(&message);
  const std::optional<std::int32_t> at_move = move ? move->at_move : slide->at_move;
  if (at_move && *at_move != game.moves()) {
    return protocol::ProtocolError{ErrorCode::stale, "at_move differs from the game's move count",
                                   ""};
  }
  if (slide && game.config().mode != engine::Mode::fifteen) {
    return protocol::ProtocolError{ErrorCode::not_allowed, "slide is only for fifteen games", ""};
  }
  return std::nullopt;
}

std::optional<engine::Direction> apply_move(engine::Game& game,
                                            const protocol::ClientMessage& message,
                                            engine::MoveOutcome& out) {
  if (const auto* move = std::get_if<protocol::Move>(&message)) {
    game.move(move->dir, out);
    return move->dir;
  }
  game.slide(std::get<protocol::Slide>(message).cell, out);
  if (out.motions.empty()) return std::nullopt;
  return engine::direction_of(out.motions.front());
}

engine::MoveOutcome& scratch_outcome() {
  thread_local engine::MoveOutcome outcome;
  return outcome;
}

}  // namespace tilerace::server
