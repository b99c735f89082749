#pragma once
// The Store tests' fixture: each test runs against both backends, SQLite in a temporary file
// and PostgreSQL in a fresh database of the test process's own server (tests/pg_cluster.hpp).
#include <SQLiteCpp/Database.h>
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "protocol/names.hpp"
#include "server/store/pg_dialect.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "tests/pg_cluster.hpp"
#include "tests/temp_dir.hpp"

namespace tilerace::server::testing {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

enum class Backend { sqlite, postgresql };

inline std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::sqlite ? "Sqlite" : "Postgresql";
}

class StoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (postgres()) url_ = tilerace::testing::PgCluster::shared().create_database();
    store_ = open();
  }
  void TearDown() override { store_.reset(); }
  bool postgres() const { return GetParam() == Backend::postgresql; }
  fs::path file() const { return dir_.path() / "tilerace.db"; }
  std::unique_ptr<Store> open(const std::string& node = "node-a") const {
    if (postgres()) return std::make_unique<PgStore>(url_, node);
    return std::make_unique<SqliteStore>(file());
  }
  // The one integer sql answers, asked of the database directly.
  std::int64_t query(const std::string& sql) const {
    if (postgres()) return PgConnection(url_).exec(sql.c_str()).int64(0, 0);
    SQLite::Database db(file().string());
    return db.execAndGet(sql).getInt64();
  }
  void execute(const std::string& sql) const {
    if (postgres()) {
      PgConnection(url_).exec(sql.c_str());
    } else {
      SQLite::Database(file().string(), SQLite::OPEN_READWRITE).exec(sql);
    }
  }

  // A player row as the schema before accounts wrote it (kBeforeAccounts applied).
  void add_bare(const std::string& id, const std::string& name, std::int64_t created_at) {
    execute(fmt::format(
        "INSERT INTO players (id, name, token_hash, created_at) VALUES ('{}', '{}', 'hash-{}', {})",
        id, name, id, created_at));
  }
  void add(const std::string& id, const std::string& name) {
    store_->add_player({id, name, protocol::name_key(name), 1000},
                       SessionRecord{"hash-" + id, id, 1000, 1000, "test"});
  }
  static GameRecord game(const std::string& id, const std::string& player, std::int64_t score,
                         std::int64_t max_tile, int moves, std::int64_t ended_at,
                         engine::Mode mode = engine::Mode::classic) {
    GameRecord g;
    g.id = id;
    g.player_id = player;
    g.config = {mode, 4, mode == engine::Mode::fifteen ? 0 : 2048, 42};
    g.moves = "LURD";
    g.score = score;
    g.max_tile = max_tile;
    g.move_count = moves;
    g.state = mode == engine::Mode::fifteen ? engine::GameState::solved : engine::GameState::over;
    g.ranked = true;
    g.started_at = ended_at - 1000;
    g.ended_at = ended_at;
    return g;
  }
  Leaderboard board(const std::string& me = "", int limit = 10,
                    engine::Mode mode = engine::Mode::classic) {
    return store_->leaderboard({mode, 4, BoardKind::score, limit, me, {}});
  }
  // The classic 4×4 board of the period named period, as seen by me.
  Leaderboard board_of(const std::string& period, const std::string& me = "") {
    return store_->leaderboard({engine::Mode::classic, 4, BoardKind::score, 10, me,
                                *protocol::period_from_string(period)});
  }
  // Who is on a board, in order, with their rank and score: "a#1:500 b#2:300".
  static std::string listing(const Leaderboard& b) {
    std::string out;
    for (const BoardEntry& e : b.entries) {
      out += fmt::format("{}{}#{}:{}", out.empty() ? "" : " ", e.player_id, e.rank, e.score);
    }
    return out;
  }

  tilerace::testing::TempDir dir_;  // declared first: outlives the store
  std::string url_;
  std::unique_ptr<Store> store_;
};

}  // namespace tilerace::server::testing
