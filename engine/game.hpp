#pragma once
// One game of any mode behind a single interface: what the server holds per player and what a
// replay rebuilds. Dispatches to TileGame (2048 modes) or Fifteen.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "engine/fifteen.hpp"
#include "engine/tile_game.hpp"
#include "engine/types.hpp"

namespace tilerace::engine {

class Game {
 public:
  // Requires valid_config(config). Without undo (races) no undo history is kept: undo()
  // refuses, and the game holds about a byte per move (its move string).
  explicit Game(const GameConfig& config, bool undo = true);

  void move(Direction d, MoveOutcome& out);
  MoveOutcome move(Direction d);
  // Fifteen's multi-tile slide; in the 2048 modes it changes nothing.
  void slide(Cell cell, MoveOutcome& out);
  bool undo();
  // Ends a playing game as resigned or forfeited; false if it was not playing.
  bool end(GameState final_state);

  const GameConfig& config() const noexcept;
  int size() const noexcept { return config().size; }
  // The wire value at (row, col): 2048 modes 0, 2^e or -1; fifteen 0 (blank) or the tile.
  std::int64_t cell(int row, int col) const noexcept;
  std::int64_t score() const noexcept;
  int moves() const noexcept;
  std::int64_t max_tile() const noexcept;  // fifteen: 0
  GameState state() const noexcept;
  bool won() const noexcept;
  int undos() const noexcept;
  int tiles_home() const noexcept;  // fifteen: tiles on their home cell; 2048 modes: 0
  // One letter per changing move (U D L R, Z for an undo): the replay's move string.
  const std::string& history() const noexcept;

 private:
  std::variant<TileGame, Fifteen> game_;
};

struct ReplayError {
  std::size_t position = 0;  // index of the offending letter in the move string
  std::string_view reason;
};

// Rebuilds a game from its config and move string (PROTOCOL.md §7). Every letter must be a
// changing move or a possible undo; otherwise returns nullopt and fills error if given.
// undo says whether the rebuilt game may be undone further (a move string with undos in it
// is rebuilt with undo either way).
std::optional<Game> replay(const GameConfig& config, std::string_view moves,
                           ReplayError* error = nullptr, bool undo = true);

}  // namespace tilerace::engine
