#pragma once
// Server messages → JSON text. Every function returns one complete message, ready to send
// (and, for broadcasts, to share between recipients). Client-derived strings are escaped
// safely; invalid UTF-8 is replaced, never thrown on.
#include <optional>
#include <string>
#include <string_view>

#include "engine/game.hpp"
#include "protocol/messages.hpp"

namespace tilerace::protocol {

struct PlayerInfo {
  std::string_view id;
  std::string_view name;
};

// A game as PROTOCOL.md §2 "G" describes it.
struct GameView {
  std::string_view id;
  const engine::Game& game;
  bool ranked;
};

std::string encode_welcome(PlayerInfo player, std::string_view token, bool resumed, const Rid& rid);
std::string encode_pong(const Rid& rid);
std::string encode_game(const GameView& game, const Rid& rid);
std::string encode_moved(const GameView& game, std::optional<engine::Direction> dir,
                         const engine::MoveOutcome& outcome, const Rid& rid);
std::string encode_error(const ProtocolError& error, const Rid& rid);
std::string encode_error(ErrorCode code, std::string_view message, const Rid& rid);
std::string encode_shutdown();

}  // namespace tilerace::protocol
