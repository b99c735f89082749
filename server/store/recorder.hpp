#pragma once
// The Store, written once over any SQL dialect (server/store/sql.hpp): what recording a game
// or a race writes and in which order, the boards, ranks, profiles, achievements and the two
// journals. Each call is one unit of work of the dialect (one transaction for every write),
// so each call is atomic and may be retried after an ambiguous failure. Leaderboard ranks
// come from a RankCache filled at open and kept current on every write (and, for a shared
// database, on every other server's write).
//
// Threads: as the dialect allows (its concurrency()); the Recorder keeps no state of its own
// besides the thread-safe RankCache.
#include <memory>

#include "server/store/rank_cache.hpp"
#include "server/store/sql.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

class Recorder : public Store {
 public:
  // Fills the rank cache through dialect, which is open and migrated.
  explicit Recorder(std::unique_ptr<SqlDialect> dialect);
  ~Recorder() override;

  int concurrency() const override;
  void ping() override;
  void add_player(const PlayerRecord& player) override;
  std::optional<PlayerRecord> find_player(std::string_view id) override;
  std::vector<Grant> record_game(const GameRecord& game) override;
  std::optional<GameRecord> find_game(std::string_view id) override;
  std::vector<Grant> record_race(const RaceRecord& race) override;
  void journal(const std::vector<ActiveGameRecord>& games) override;
  std::optional<ActiveGameRecord> find_active(std::string_view player_id) override;
  void journal_races(const std::vector<ActiveRaceRecord>& races) override;
  std::vector<ActiveRaceRecord> active_races() override;
  std::vector<ActiveRaceRecord> adopt_races(std::string_view node) override;
  std::optional<std::string> race_room_of(std::string_view player_id) override;
  Leaderboard leaderboard(const LeaderboardQuery& query) override;
  std::optional<Profile> profile(std::string_view player_id) override;
  std::vector<BotRecord> bot_records(std::string_view player_id) override;

 private:
  // Runs work as one unit of the dialect and returns what it returns.
  template <class Work>
  auto unit(SqlTx tx, Work work);

  void fill_ranks(SqlSession& sql);
  Leaderboard score_board(SqlSession& sql, const LeaderboardQuery& query);
  Leaderboard rating_board(SqlSession& sql, const LeaderboardQuery& query);

  RankCache ranks_;  // declared first: the dialect may feed it until it is destroyed
  std::unique_ptr<SqlDialect> dialect_;
};

}  // namespace tilerace::server
