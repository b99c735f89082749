#pragma once
// The embedded Store: one SQLite file in WAL mode with synchronous=FULL, its schema versioned
// by PRAGMA user_version and migrated at open, prepared statements only, every write in a
// transaction. Leaderboard ranks come from a RankCache filled at open and kept current on
// every write. Not thread-safe: one thread at a time (the StoreWorker's).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <filesystem>
#include <memory>

#include "server/store/rank_cache.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

class SqliteStore final : public Store {
 public:
  // Opens (creating if needed) the database file at path and migrates it.
  explicit SqliteStore(const std::filesystem::path& path);

  static constexpr int kSchemaVersion = 7;

  void add_player(const PlayerRecord& player) override;
  std::optional<PlayerRecord> find_player(std::string_view id) override;
  std::vector<Grant> record_game(const GameRecord& game) override;
  std::optional<GameRecord> find_game(std::string_view id) override;
  std::vector<Grant> record_race(const RaceRecord& race) override;
  void journal(const std::vector<ActiveGameRecord>& games) override;
  std::optional<ActiveGameRecord> find_active(std::string_view player_id) override;
  void journal_races(const std::vector<ActiveRaceRecord>& races) override;
  std::vector<ActiveRaceRecord> active_races() override;
  Leaderboard leaderboard(const LeaderboardQuery& query) override;
  std::vector<BotRecord> bot_records(std::string_view player_id) override;
  std::optional<Profile> profile(std::string_view player_id) override;

 private:
  void migrate();
  void fill_ranks();
  bool insert_game(const GameRecord& game);  // false if it was already there
  // Grants achievement for game unless its player has it; adds it to granted if so.
  void grant(const GameRecord& game, std::string_view achievement, std::vector<Grant>& granted);
  Leaderboard score_board(const LeaderboardQuery& query);
  Leaderboard rating_board(const LeaderboardQuery& query);

  SQLite::Database db_;
  // Prepared once, reset after each use.
  std::unique_ptr<SQLite::Statement> insert_player_, select_player_, insert_game_, select_game_,
      upsert_best_2048_, upsert_best_fifteen_, delete_active_, insert_race_, update_rating_,
      upsert_active_, select_active_, delete_pieces_, insert_piece_, select_pieces_, upsert_race_,
      delete_racers_, insert_racer_, delete_race_, top_2048_, top_fifteen_, best_of_, top_rating_,
      rating_of_, upsert_bot_record_, select_bot_records_, insert_rating_point_,
      insert_achievement_;
  RankCache ranks_;
};

}  // namespace tilerace::server
