#include "engine/game.hpp"

namespace tilerace::engine {

namespace {
std::variant<TileGame, Fifteen> make(const GameConfig& config, bool undo) {
  if (config.mode == Mode::fifteen) return Fifteen(config, undo);
  return TileGame(config, undo);
}
template <class... Fs>
struct overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
overloaded(Fs...) -> overloaded<Fs...>;  // clang 14 (the fuzz build) needs the guide
}  // namespace

Game::Game(const GameConfig& config, bool undo) : game_(make(config, undo)) {}

void Game::move(Direction d, MoveOutcome& out) {
  std::visit([&](auto& g) { g.move(d, out); }, game_);
}

MoveOutcome Game::move(Direction d) {
  MoveOutcome out;
  move(d, out);
  return out;
}

void Game::slide(Cell cell, MoveOutcome& out) {
  std::visit(overloaded{[&](Fifteen& g) { g.slide(cell, out); },
                        [&](TileGame& g) {
                          out.clear();
                          out.state = g.state();
                          out.won = g.won();
                        }},
             game_);
}

bool Game::undo() {
  return std::visit([](auto& g) { return g.undo(); }, game_);
}
bool Game::end(GameState final_state) {
  return std::visit([&](auto& g) { return g.end(final_state); }, game_);
}
const GameConfig& Game::config() const noexcept {
  return std::visit([](const auto& g) -> const GameConfig& { return g.config(); }, game_);
}
std::int64_t Game::cell(int row, int col) const noexcept {
  return std::visit(
      overloaded{[&](const Fifteen& g) -> std::int64_t { return g.grid().at(row, col); },
                 [&](const TileGame& g) { return cell_value(g.grid().at(row, col)); }},
      game_);
}
std::int64_t Game::score() const noexcept {
  return std::visit([](const auto& g) { return g.score(); }, game_);
}
int Game::moves() const noexcept {
  return std::visit([](const auto& g) { return g.moves(); }, game_);
}
std::int64_t Game::max_tile() const noexcept {
  return std::visit(overloaded{[](const Fifteen&) -> std::int64_t { return 0; },
                               [](const TileGame& g) { return g.max_tile(); }},
                    game_);
}
GameState Game::state() const noexcept {
  return std::visit([](const auto& g) { return g.state(); }, game_);
}
bool Game::won() const noexcept {
  return std::visit([](const auto& g) { return g.won(); }, game_);
}
int Game::undos() const noexcept {
  return std::visit([](const auto& g) { return g.undos(); }, game_);
}
int Game::tiles_home() const noexcept {
  return std::visit(overloaded{[](const Fifteen& g) { return g.tiles_home(); },
                               [](const TileGame&) { return 0; }},
                    game_);
}
const std::string& Game::history() const noexcept {
  return std::visit([](const auto& g) -> const std::string& { return g.history(); }, game_);
}

std::optional<Game> replay(const GameConfig& config, std::string_view moves, ReplayError* error,
                           bool undo) {
  auto fail = [&](std::size_t at, std::string_view why) -> std::optional<Game> {
    if (error != nullptr) *error = {at, why};
    return std::nullopt;
  };
  if (!valid_config(config)) return fail(0, "invalid game settings");
  Game game(config, undo || moves.find('Z') != std::string_view::npos);
  MoveOutcome out;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (moves[i] == 'Z') {
      if (!game.undo()) return fail(i, "nothing to undo");
      continue;
    }
    const auto d = direction_from_letter(moves[i]);
    if (!d) return fail(i, "not a move letter");
    game.move(*d, out);
    if (!out.changed) return fail(i, "move changes nothing");
  }
  return game;
}

}  // namespace tilerace::engine
