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
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "server/store/rank_cache.hpp"
#include "server/store/sql.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

class Recorder : public Store {
 public:
  // Keys the names of older players and fills the rank cache through dialect, which is open
  // and migrated.
  explicit Recorder(std::unique_ptr<SqlDialect> dialect);
  ~Recorder() override;

  int concurrency() const override;
  void ping() override;
  bool add_player(const PlayerRecord& player, const std::optional<SessionRecord>& session) override;
  std::optional<PlayerRecord> find_player(std::string_view id) override;
  bool release_guest_name(std::string_view name, std::int64_t unused_since,
                          std::int64_t now) override;
  std::optional<SessionOwner> session_player(std::string_view token_hash, std::int64_t now,
                                             std::string_view address) override;
  void add_session(const SessionRecord& session) override;
  std::vector<SessionRecord> sessions(std::string_view player_id) override;
  void end_session(std::string_view token_hash) override;
  std::vector<std::string> end_other_sessions(std::string_view player_id,
                                              std::string_view keep) override;
  std::int64_t take_connection(std::string_view player_id) override;
  ConnectionStates check_connections(const std::vector<std::string>& players,
                                     const std::vector<std::string>& sessions) override;
  std::optional<Credentials> credentials(std::string_view name_key) override;
  void set_password(std::string_view player_id, std::string_view password_hash,
                    std::int64_t at) override;
  bool rename(std::string_view player_id, std::string_view name, std::string_view key,
              std::int64_t at) override;
  void add_link_code(std::string_view code, std::string_view player_id,
                     std::int64_t expires_at) override;
  std::optional<std::string> take_link_code(std::string_view code, std::int64_t now) override;
  FriendChangeRecord change_friendship(std::string_view player, std::string_view other,
                                       FriendAction action, std::int64_t at) override;
  std::vector<FriendRecord> friends_of(std::string_view player) override;
  std::string server_secret(std::string_view name, std::string_view candidate) override;
  bool claim_daily(const DailyAttempt& attempt) override;
  void finish_daily(std::string_view game_id) override;
  std::vector<DailyAttempt> daily_attempts(std::string_view day) override;
  std::vector<std::pair<DailyAttempt, std::optional<ActiveGameRecord>>> open_dailies(
      std::string_view day) override;
  std::vector<std::vector<Grant>> record_finished(std::span<const Finished> items) override;
  std::optional<GameRecord> find_game(std::string_view id) override;
  std::vector<std::string> journal(const std::vector<ActiveGameRecord>& games) override;
  std::optional<ActiveGameRecord> find_active(std::string_view player_id) override;
  std::optional<ActiveGameRecord> reclaim_active(std::string_view player_id,
                                                 std::string_view game_id,
                                                 std::int64_t epoch) override;
  std::vector<LostRace> journal_races(const std::vector<ActiveRaceRecord>& races) override;
  std::vector<ActiveRaceRecord> active_races() override;
  void drop_race(std::string_view race_id, std::string_view room, std::int64_t at) override;
  std::vector<ActiveRaceRecord> adopt_races(std::string_view node, std::string_view url) override;
  std::vector<ActiveRaceRecord> adopt_race(std::string_view node, std::string_view room,
                                           std::string_view url) override;
  std::optional<std::string> race_room_of(std::string_view player_id) override;
  std::vector<std::string> journal_tournaments(
      const std::vector<TournamentRecord>& tournaments) override;
  std::vector<TournamentRecord> open_tournaments() override;
  std::vector<TournamentRecord> adopt_tournaments(std::string_view node,
                                                  std::string_view url) override;
  std::optional<std::string> tournament_of(std::string_view player_id) override;
  bool note_tournament_creation(std::string_view player_id, std::int64_t now, int most,
                                std::int64_t window_ms) override;
  std::optional<RaceOutcome> race_in_room(std::string_view room, std::int64_t since) override;
  Leaderboard leaderboard(const LeaderboardQuery& query) override;
  std::optional<Profile> profile(std::string_view player_id) override;
  std::vector<BotRecord> bot_records(std::string_view player_id) override;
  // Moderation (moderation_records.cpp).
  void ban(const BanRecord& ban, const AuditEntry& entry) override;
  bool unban(std::string_view player_id, const AuditEntry& entry) override;
  std::optional<BanRecord> ban_of(std::string_view player_id, std::int64_t now) override;
  std::vector<std::string> lift_expired_bans(std::int64_t now) override;
  bool hide_game(std::string_view game_id, bool hidden, const AuditEntry& entry) override;
  void audit(const AuditEntry& entry) override;
  std::vector<AuditEntry> audit_log(std::int64_t before_id, int limit) override;
  bool add_report(const ReportRecord& report, std::string_view day) override;
  std::vector<ReportRecord> reports(bool open_only, int limit) override;
  bool resolve_report(std::int64_t id, std::string_view resolution,
                      const AuditEntry& entry) override;
  std::vector<std::string> banned_players() override;
  std::vector<std::pair<GameRecord, bool>> recent_games(std::string_view player_id,
                                                        int limit) override;
  std::vector<GameRecord> unanalysed_games(int limit) override;
  void save_signals(const SignalRecord& signals, std::int64_t at) override;
  std::vector<SignalRecord> suspicious_games(int limit) override;
  std::vector<PlayerRecord> search_players(std::string_view query, int limit) override;
  BotUpgrade upgrade_to_bot(std::string_view player_id) override;
  void add_bot_token(std::string_view player_id, std::string_view id, std::string_view token,
                     std::int64_t at) override;
  std::vector<BotTokenRecord> bot_tokens(std::string_view player_id) override;
  bool revoke_bot_token(std::string_view player_id, std::string_view id) override;
  std::optional<SessionOwner> bot_token_player(std::string_view token, std::int64_t now) override;
  int rated_races_since(std::string_view player_id, std::int64_t since) override;
  std::vector<std::pair<std::string, std::int64_t>> old_names(std::string_view player_id) override;
  // Operators (operator_records.cpp).
  bool add_operator(const OperatorRecord& op, std::string_view name_key) override;
  std::optional<OperatorRecord> operator_named(std::string_view name_key) override;
  std::vector<OperatorSummary> operators(std::int64_t now) override;
  void set_totp_pending(std::string_view operator_id, std::string_view secret) override;
  bool confirm_totp(std::string_view operator_id, std::int64_t step) override;
  bool use_totp_step(std::string_view operator_id, std::int64_t step) override;
  void add_operator_session(const OperatorSessionRecord& session) override;
  std::optional<OperatorRecord> operator_of_session(std::string_view token_hash,
                                                    std::int64_t now) override;
  void end_operator_session(std::string_view token_hash) override;
  std::int64_t end_operator_sessions(std::string_view operator_id) override;
  bool remove_operator(std::string_view operator_id) override;

 private:
  // Runs work as one unit of the dialect and returns what it returns.
  template <class Work>
  auto unit(SqlTx tx, Work work);

  void fill_ranks(SqlSession& sql, RankCache& ranks);
  // find_active's work, in a write transaction.
  std::optional<ActiveGameRecord> take_active(SqlSession& sql, std::string_view player_id);
  // Race id's owner when that is not this node under epoch: its journal entry's (locked until
  // the transaction ends), or whoever recorded it. nullopt: this node's, or nobody's yet.
  std::optional<RaceOwner> other_owner(SqlSession& sql, std::string_view id, std::int64_t epoch);
  // adopt_races (room empty) and adopt_race (node's race in room only).
  std::vector<ActiveRaceRecord> adopt(std::string_view node, std::string_view room,
                                      std::string_view url);
  // After a write that took entries off the boards or put them back (in the same
  // transaction): every node's ranks are filled afresh (a shared database tells them all).
  void ranks_changed(SqlSession& sql);
  void reload_ranks();
  // Works out player_id's rows on the score boards again from their games (hidden ones left
  // out), as recording each of them in order would have.
  void rebuild_bests(SqlSession& sql, std::string_view player_id);
  static void write_audit(SqlSession& sql, const AuditEntry& entry);
  // Gives every player without a name key one (players from before accounts): the oldest
  // holder of a key keeps the name, later ones become "name-2", "name-3"… (docs/operations.md,
  // "Unique names").
  void key_names(SqlSession& sql);
  Leaderboard score_board(SqlSession& sql, const LeaderboardQuery& query);
  Leaderboard rating_board(SqlSession& sql, const LeaderboardQuery& query);
  Leaderboard daily_board(SqlSession& sql, const LeaderboardQuery& query);

  // Puts finished game g (eligible_for_board) on its boards where it beats the player's best:
  // the periods where it did.
  std::vector<protocol::Period> put_on_boards(SqlSession& sql, const GameRecord& g);

  // A best result the rank cache takes once the unit that wrote it commits.
  struct RankChange {
    BoardId board;
    std::string player;
    RankKey key;
  };
  // record_finished's work for one game or race, within its unit: what it grants goes to
  // granted, the entries it changes on the boards to ranks.
  void record_in(SqlSession& sql, const GameRecord& g, std::vector<Grant>& granted,
                 std::vector<RankChange>& ranks);
  // (A race's games are on no score board, and ratings are ranked by query: no rank changes.)
  void record_in(SqlSession& sql, const RaceRecord& race, std::vector<Grant>& granted,
                 std::vector<RankChange>& ranks);
  // Fills player's ratings (PlayerRecord::ratings) from the store; returns the rows read
  // (Sql::ratings_of's columns).
  static SqlResult ratings_in(SqlSession& sql, PlayerRecord& player);

  RankCache ranks_;  // declared first: the dialect may feed it until it is destroyed
  std::unique_ptr<SqlDialect> dialect_;
};

template <class Work>
inline auto Recorder::unit(SqlTx tx, Work work) {
  using Result = decltype(work(std::declval<SqlSession&>()));
  if constexpr (std::is_void_v<Result>) {
    dialect_->session(tx, work);
  } else {
    std::optional<Result> result;
    dialect_->session(tx, [&](SqlSession& sql) { result = work(sql); });
    return std::move(*result);
  }
}

}  // namespace tilerace::server
