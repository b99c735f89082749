#pragma once
// The shared Store: PostgreSQL through libpq, for several nodes on one authority. The same
// semantics as SqliteStore (server/store.hpp): every write one transaction, idempotent, so a
// call retried after an ambiguous failure (the connection lost during COMMIT) does no harm.
//
// Threads: calls come from the StoreWorker's threads, concurrency() at once; each takes a
// connection from a small pool (connected and prepared on first use, dropped when broken and
// connected again by the next call). One more thread listens on its own connection for the
// rank changes every node announces (NOTIFY tilerace_ranks), so `me` ranks include other
// nodes' results; when that connection is lost it reconnects and refills the cache.
//
// Schema: versioned in tilerace_schema, migrated at open in one transaction under an advisory
// lock (two nodes starting at once migrate once).
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/store/pg_connection.hpp"
#include "server/store/rank_cache.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

class PgStore final : public Store {
 public:
  static constexpr int kSchemaVersion = 5;
  static constexpr int kPoolSize = 4;

  // Connects to url, migrates, fills the rank cache and starts listening. node names this
  // server: the running races it journals are its own, and only those come back to it after
  // a restart. Throws std::runtime_error, with the reason, if the database cannot be used.
  PgStore(std::string url, std::string node);
  ~PgStore() override;

  int concurrency() const override { return kPoolSize; }
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
  std::vector<BotRecord> bot_records(std::string_view player_id) override;
  std::optional<Profile> profile(std::string_view player_id) override;

 private:
  // A pooled connection for the length of one call; a broken one is dropped, not returned.
  class Lease {
   public:
    explicit Lease(PgStore& store);
    ~Lease();
    PgConnection* operator->() { return conn_.get(); }
    PgConnection& operator*() { return *conn_; }

   private:
    PgStore& store_;
    std::unique_ptr<PgConnection> conn_;
  };

  std::unique_ptr<PgConnection> connect();
  void migrate(PgConnection& conn);
  void fill_ranks(PgConnection& conn);
  void apply_notification(std::string_view payload);
  void listen(std::unique_ptr<PgConnection> conn);
  bool insert_game(PgConnection& conn, const GameRecord& game);
  // The races in r (rows of active_races' journal columns) with their racers.
  std::vector<ActiveRaceRecord> races_of(PgConnection& conn, const PgResult& r);
  // Grants achievement for game unless its player has it; adds it to granted if so.
  void grant(PgConnection& conn, const GameRecord& game, std::string_view achievement,
             std::vector<Grant>& granted);
  Leaderboard score_board(PgConnection& conn, const LeaderboardQuery& query);
  Leaderboard rating_board(PgConnection& conn, const LeaderboardQuery& query);

  const std::string url_;
  const std::string node_;
  RankCache ranks_;

  std::mutex pool_mutex_;
  std::condition_variable pool_changed_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
  int open_ = 0;  // connections leased or idle

  std::mutex stop_mutex_;
  std::condition_variable stop_changed_;
  bool stopping_ = false;
  std::thread listener_;
};

// url with its password, if any, replaced by ***: for logs and errors.
std::string redact_database_url(std::string_view url);

}  // namespace tilerace::server
