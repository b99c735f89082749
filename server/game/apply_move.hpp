#pragma once
// The rule for a `move` or `slide` message, shared by solo play and races: what refuses it
// (a stale at_move, a slide outside Fifteen) and how it is applied.
#include <optional>

#include "engine/game.hpp"
#include "protocol/messages.hpp"

namespace tilerace::server {

// Why message (a Move or a Slide) must not be applied to game, or nullopt. A `stale` error
// is to be followed by a snapshot of the game.
std::optional<protocol::ProtocolError> check_move(const engine::Game& game,
                                                  const protocol::ClientMessage& message);

// Applies message (a Move or a Slide that passed check_move) into out; returns the direction
// the tiles moved (none for a slide that moved nothing).
std::optional<engine::Direction> apply_move(engine::Game& game,
                                            const protocol::ClientMessage& message,
                                            engine::MoveOutcome& out);

}  // namespace tilerace::server
