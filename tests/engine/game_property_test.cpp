// Properties over thousands of seeded random games per mode and size: replays reproduce the
// game, score is the sum of gains, spawns land on empty cells, motions explain every slide,
// undo-then-redo repeats the spawn, "over" means no direction changes the board, and moving
// obstacles live exactly five changing moves.
#include <gtest/gtest.h>

#include "tests/engine/print.hpp"

#include <bit>
#include <cstdlib>
#include <tuple>

#include "engine/game.hpp"
#include "engine/grid.hpp"

namespace tilerace::engine {
namespace {

#ifdef TILERACE_SANITIZED
constexpr int kGamesPerCase = 100;
#else
constexpr int kGamesPerCase = 1000;
#endif
constexpr int kMovesPerGame = 150;
constexpr std::array<Direction, 4> kDirections{Direction::up, Direction::down, Direction::left,
                                               Direction::right};

Grid grid_of(const Game& game) {
  Grid g;
  g.size = game.size();
  for (int r = 0; r < g.size; ++r) {
    for (int c = 0; c < g.size; ++c) {
      const std::int64_t v = game.cell(r, c);
      g.at(r, c) = v == kObstacleValue ? kObstacle
                   : v == 0
                       ? kEmpty
                       : static_cast<std::uint8_t>(std::countr_zero(static_cast<std::uint64_t>(v)));
    }
  }
  return g;
}

std::int64_t tile_sum(const Grid& g) {
  std::int64_t sum = 0;
  for (int i = 0; i < g.count(); ++i) {
    if (g.cells[i] != kObstacle) sum += cell_value(g.cells[i]);
  }
  return sum;
}

// Rebuilds the slid grid from `before` and the motions alone, as a client animating would.
Grid apply_motions(Grid g, const std::vector<Motion>& motions) {
  auto encode = [](std::int64_t v) {
    return v == kObstacleValue ? kObstacle
                               : static_cast<std::uint8_t>(std::countr_zero(std::uint64_t(v)));
  };
  for (const Motion& m : motions) g.at(m.from.row, m.from.col) = kEmpty;
  for (const Motion& m : motions) {
    if (!m.merged) g.at(m.to.row, m.to.col) = encode(m.value);
  }
  for (const Motion& m : motions) {
    if (m.merged) g.at(m.to.row, m.to.col) += 1;
  }
  return g;
}

void expect_same_game(const Game& a, const Game& b) {
  ASSERT_EQ(grid_of(a), grid_of(b));
  ASSERT_EQ(a.score(), b.score());
  ASSERT_EQ(a.moves(), b.moves());
  ASSERT_EQ(a.state(), b.state());
  ASSERT_EQ(a.won(), b.won());
  ASSERT_EQ(a.max_tile(), b.max_tile());
  ASSERT_EQ(a.undos(), b.undos());
}

struct Lifetimes {
  std::vector<std::pair<Cell, int>> alive;  // obstacle cell and changing moves lived so far
};

class TileGameProperties : public ::testing::TestWithParam<std::tuple<Mode, int>> {};

TEST_P(TileGameProperties, HoldOverThousandsOfSeededGames) {
  const auto [mode, size] = GetParam();
  const ObstacleRule rule =
      mode == Mode::moving_obstacle ? ObstacleRule::moving : ObstacleRule::fixed;
  MoveOutcome out, redo;
  for (int g = 0; g < kGamesPerCase; ++g) {
    const GameConfig config{mode, size, size == 3 ? 64 : 2048, static_cast<std::uint64_t>(g)};
    Game game(config);
    SplitMix64 chooser(0xC0FFEE + static_cast<std::uint64_t>(g));
    std::int64_t gained_total = 0;
    Lifetimes life;
    const bool watch_life = mode == Mode::moving_obstacle && g % 2 == 0;  // these never undo
    const Grid start = grid_of(game);
    const int fixed_obstacles = mode == Mode::fixed_obstacle ? 1 : 0;
    for (int step = 0; step < kMovesPerGame && game.state() == GameState::playing; ++step) {
      const Grid before = grid_of(game);
      const Direction d = kDirections[chooser.below(4)];
      Grid slid = before;
      SlideResult expect;
      slide(slid, d, rule, expect, nullptr);
      game.move(d, out);
      ASSERT_EQ(out.changed, expect.changed);
      if (!out.changed) {
        ASSERT_TRUE(out.spawned.empty());
        ASSERT_EQ(grid_of(game), before);
        continue;
      }
      ASSERT_EQ(out.gained, expect.gained);
      gained_total += out.gained;
      ASSERT_EQ(game.score(), gained_total);
      ASSERT_EQ(tile_sum(slid), tile_sum(before)) << "a slide conserves the tile sum";
      ASSERT_EQ(apply_motions(before, out.motions), slid) << "motions explain the slide";
      for (const Cell& c : out.vanished) {
        ASSERT_EQ(slid.at(c.row, c.col), kObstacle);
        slid.at(c.row, c.col) = kEmpty;
      }
      for (const Spawn& s : out.spawned) {
        ASSERT_EQ(slid.at(s.at.row, s.at.col), kEmpty) << "spawn on an occupied cell";
        if (s.value == kObstacleValue) {
          ASSERT_EQ(mode, Mode::moving_obstacle);
          slid.at(s.at.row, s.at.col) = kObstacle;
        } else {
          ASSERT_TRUE(s.value == 2 || s.value == 4);
          slid.at(s.at.row, s.at.col) = s.value == 2 ? 1 : 2;
        }
      }
      ASSERT_EQ(slid, grid_of(game)) << "board = slide + spawns";
      ASSERT_EQ(out.state, game.state());
      ASSERT_EQ(game.won(), game.max_tile() >= config.target);

      // "over" exactly when no direction changes the board.
      bool any = false;
      for (Direction probe : kDirections) {
        Grid g2 = grid_of(game);
        SlideResult r;
        slide(g2, probe, rule, r, nullptr);
        any = any || r.changed;
      }
      ASSERT_EQ(game.state() == GameState::over, !any);

      int obstacles = 0;
      for (int i = 0; i < slid.count(); ++i) obstacles += slid.cells[i] == kObstacle;
      if (mode == Mode::fixed_obstacle) {
        ASSERT_EQ(obstacles, 1);
        for (int i = 0; i < start.count(); ++i) {
          ASSERT_EQ(start.cells[i] == kObstacle, slid.cells[i] == kObstacle) << "fixed moved";
        }
      }
      if (mode == Mode::classic) {
        ASSERT_EQ(obstacles, 0);
      }
      ASSERT_LE(obstacles, mode == Mode::moving_obstacle ? kMaxMovingObstacles : fixed_obstacles);

      if (watch_life) {
        // Follow each obstacle through its motions; it must vanish after exactly 5 moves.
        for (auto& [cell, lived] : life.alive) {
          for (const Motion& m : out.motions) {
            if (m.value == kObstacleValue && m.from == cell) {
              cell = m.to;
              break;
            }
          }
          ++lived;
        }
        std::vector<Cell> expired;
        std::erase_if(life.alive, [&](const auto& o) {
          if (o.second < kObstacleLife) return false;
          expired.push_back(o.first);
          return true;
        });
        ASSERT_EQ(out.vanished, expired);
        for (const Spawn& s : out.spawned) {
          if (s.value == kObstacleValue) life.alive.push_back({s.at, 0});
        }
        ASSERT_EQ(static_cast<int>(life.alive.size()), obstacles);
      } else if (chooser.below(8) == 0 && game.state() == GameState::playing) {
        // Undo, then the same move: the same spawn comes back (unless a penalty landed).
        const Grid after = grid_of(game);
        ASSERT_TRUE(game.undo());
        if (grid_of(game) == before) {
          game.move(d, redo);
          ASSERT_EQ(redo.spawned, out.spawned);
          ASSERT_EQ(grid_of(game), after);
        } else {
          ASSERT_EQ(mode, Mode::moving_obstacle) << "only moving-obstacle undo adds a penalty";
        }
        gained_total = game.score();
      }
    }
    ReplayError error;
    const auto again = replay(config, game.history(), &error);
    ASSERT_TRUE(again.has_value()) << error.reason << " at " << error.position;
    expect_same_game(*again, game);
  }
}

// Undo checkpoints change no result: a game that keeps a snapshot before every move (as undo
// once did) and games with sparser checkpoints, fed the same moves and runs of undos — some
// deep enough to cross several checkpoints — agree on every outcome, board and score.
TEST_P(TileGameProperties, UndoCheckpointsChangeNoResult) {
  const auto [mode, size] = GetParam();
  for (int g = 0; g < kGamesPerCase / 10; ++g) {
    const GameConfig config{mode, size, 1 << 17, static_cast<std::uint64_t>(g) + 7};
    std::vector<TileGame> games{TileGame(config, true, 1), TileGame(config, true, 3),
                                TileGame(config, true, 16), TileGame(config)};
    SplitMix64 chooser(0xBADC0DE + static_cast<std::uint64_t>(g));
    std::vector<MoveOutcome> outs(games.size());
    for (int step = 0; step < 4 * kMovesPerGame && games[0].state() == GameState::playing; ++step) {
      const std::uint64_t roll = chooser.below(16);
      if (roll < 3) {
        // A run of undos: now and then a deep one.
        const int run = static_cast<int>(roll == 0 ? chooser.below(80) + 1 : chooser.below(3) + 1);
        for (int k = 0; k < run; ++k) {
          const bool undone = games[0].undo();
          for (std::size_t i = 1; i < games.size(); ++i) ASSERT_EQ(games[i].undo(), undone);
          if (!undone) break;
        }
      } else {
        const Direction d = kDirections[chooser.below(4)];
        for (std::size_t i = 0; i < games.size(); ++i) games[i].move(d, outs[i]);
        for (std::size_t i = 1; i < games.size(); ++i) {
          ASSERT_EQ(outs[i].changed, outs[0].changed);
          ASSERT_EQ(outs[i].motions, outs[0].motions);
          ASSERT_EQ(outs[i].spawned, outs[0].spawned);
          ASSERT_EQ(outs[i].vanished, outs[0].vanished);
        }
      }
      for (std::size_t i = 1; i < games.size(); ++i) {
        ASSERT_EQ(games[i].grid(), games[0].grid()) << "game " << g << " step " << step;
        ASSERT_EQ(games[i].score(), games[0].score());
        ASSERT_EQ(games[i].moves(), games[0].moves());
        ASSERT_EQ(games[i].state(), games[0].state());
        ASSERT_EQ(games[i].won(), games[0].won());
        ASSERT_EQ(games[i].undos(), games[0].undos());
        ASSERT_EQ(games[i].history(), games[0].history());
      }
    }
  }
}

TEST(TileGameWithoutUndo, KeepsNoHistoryForUndoAndPlaysTheSame) {
  const GameConfig config{Mode::moving_obstacle, 5, 2048, 99};
  TileGame with(config), without(config, false);
  MoveOutcome a, b;
  for (int i = 0; i < 200 && with.state() == GameState::playing; ++i) {
    with.move(kDirections[i % 4], a);
    without.move(kDirections[i % 4], b);
    ASSERT_EQ(a.spawned, b.spawned);
    ASSERT_EQ(with.grid(), without.grid());
  }
  EXPECT_GT(without.moves(), 0);
  EXPECT_FALSE(without.undo());
  EXPECT_EQ(without.history(), with.history());
}

INSTANTIATE_TEST_SUITE_P(ModesAndSizes, TileGameProperties,
                         ::testing::Combine(::testing::Values(Mode::classic, Mode::fixed_obstacle,
                                                              Mode::moving_obstacle),
                                            ::testing::Range(kMinSize, kMaxSize + 1)),
                         [](const auto& info) {
                           std::string name(to_string(std::get<0>(info.param)));
                           std::erase(name, '-');
                           return name + "_" + std::to_string(std::get<1>(info.param));
                         });

class FifteenProperties : public ::testing::TestWithParam<int> {};

TEST_P(FifteenProperties, RandomPlayReplaysAndUndoesExactly) {
  const int size = GetParam();
  MoveOutcome out;
  for (int g = 0; g < kGamesPerCase; ++g) {
    const GameConfig config{Mode::fifteen, size, 0, static_cast<std::uint64_t>(g)};
    Game game(config);
    SplitMix64 chooser(g);
    for (int step = 0; step < kMovesPerGame && game.state() == GameState::playing; ++step) {
      const Grid before = grid_of(game);
      const std::uint64_t pick = chooser.below(10);
      const int moves = game.moves();
      if (pick < 6) {
        game.move(kDirections[pick % 4], out);
      } else if (pick < 9) {
        game.slide({static_cast<int>(chooser.below(size)), static_cast<int>(chooser.below(size))},
                   out);
      } else {
        if (game.undo()) {
          ASSERT_EQ(game.moves(), moves - 1);
        }
        continue;
      }
      ASSERT_EQ(game.moves(), moves + static_cast<int>(out.motions.size()));
      ASSERT_EQ(out.changed, !out.motions.empty());
      ASSERT_EQ(game.score(), game.moves());
      // Every motion is one tile stepping into the neighbouring blank.
      Grid g2 = before;
      for (const Motion& m : out.motions) {
        ASSERT_EQ(g2.at(m.to.row, m.to.col), 0);
        ASSERT_EQ(std::abs(m.from.row - m.to.row) + std::abs(m.from.col - m.to.col), 1);
        g2.at(m.to.row, m.to.col) = g2.at(m.from.row, m.from.col);
        g2.at(m.from.row, m.from.col) = 0;
      }
      ASSERT_EQ(g2, grid_of(game));
    }
    ReplayError error;
    const auto again = replay(config, game.history(), &error);
    ASSERT_TRUE(again.has_value()) << error.reason << " at " << error.position;
    expect_same_game(*again, game);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, FifteenProperties, ::testing::Range(kMinSize, kMaxFifteenSize + 1));

TEST(Replay, RejectsBadLettersImpossibleUndosAndNoOpMoves) {
  const GameConfig config{Mode::classic, 4, 2048, 1};
  ReplayError error;
  EXPECT_FALSE(replay(config, "Z", &error).has_value());
  EXPECT_EQ(error.position, 0u);
  EXPECT_FALSE(replay(config, "LX", &error).has_value());
  EXPECT_EQ(error.position, 1u);
  Game game(config);
  Direction stuck = Direction::up;
  bool found = false;
  for (Direction d : kDirections) {
    Grid g = grid_of(game);
    SlideResult r;
    slide(g, d, ObstacleRule::fixed, r, nullptr);
    if (!r.changed) {
      stuck = d;
      found = true;
    }
  }
  if (found) {
    EXPECT_FALSE(replay(config, std::string(1, to_letter(stuck)), &error).has_value());
    EXPECT_EQ(error.reason, "move changes nothing");
  }
  EXPECT_FALSE(replay({Mode::classic, 2, 2048, 1}, "", &error).has_value());
  EXPECT_TRUE(replay(config, "", &error).has_value());
}

}  // namespace
}  // namespace tilerace::engine
