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

// An outcome to apply a move into, one per thread: its vectors keep the capacity earlier moves
// gave them, so a move allocates nothing for them. The engine clears it; it is valid until the
// next move applied into it on the same thread.
engine::MoveOutcome& scratch_outcome();

}  // namespace tilerace::server
