#pragma once
// The store's moderation (docs/operations.md, "Moderation"): bans, hidden games, reports, the
// signals of computer-assisted play and the audit log.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/types.hpp"
#include "server/rules/play_records.hpp"
#include "server/store/account_store.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

// Moderation (docs/operations.md, "Moderation"). One line of the append-only audit log: who
// did what to whom, why, when, and what else is worth keeping (detail: free text).
struct AuditEntry {
  std::int64_t id = 0;  // given by the store, increasing
  std::int64_t at = 0;  // Unix ms
  std::string actor;    // the operator's name ("operator" before operators had names), or a
                        // player's id for what players do
  std::string action;   // ban, unban, rename, reset_password, hide_game, show_game, …
  std::string target;   // a player's id, a game's id, a room's code, a report's id
  std::string reason;
  std::string detail;
  std::string actor_role;   // owner, moderator, viewer, or "token" (the owner's bootstrap)
  std::string target_name;  // the target player's name at that moment (else empty)
  std::string address;      // where the operator's request came from
};

// A ban in force.
struct BanRecord {
  std::string player_id;
  std::string reason;
  std::int64_t until = 0;  // Unix ms it ends; 0: until it is lifted
  std::int64_t at = 0;
};

// A player's report of another.
struct ReportRecord {
  std::int64_t id = 0;
  std::string reporter;
  std::string reporter_name;
  std::string player_id;
  std::string player_name;
  std::string reason;  // name, cheating or abuse
  std::string note;
  std::int64_t at = 0;
  std::int64_t resolved_at = 0;  // 0: open
  std::string resolution;
};

class ModerationStore {
 public:
  // Moderation (docs/operations.md, "Moderation"). Each action and its audit entry are
  // written in one transaction. A banned player is on no board (score, rating, daily, the
  // day's results) until unbanned; nothing of theirs is deleted. ban replaces a ban in force.
  virtual void ban(const BanRecord& ban, const AuditEntry& entry) = 0;
  // False, and nothing written, when player_id was not banned.
  virtual bool unban(std::string_view player_id, const AuditEntry& entry) = 0;
  // The ban on player_id in force at now.
  virtual std::optional<BanRecord> ban_of(std::string_view player_id, std::int64_t now) = 0;
  // Lifts the bans whose end has come by now, each with an audit entry; returns the players.
  virtual std::vector<std::string> lift_expired_bans(std::int64_t now) = 0;
  // Takes game_id off every board (hidden) or puts it back; the player's bests are worked out
  // again from their other games. False, and nothing written, for no such game or no change.
  virtual bool hide_game(std::string_view game_id, bool hidden, const AuditEntry& entry) = 0;
  // Appends entry to the audit log (for actions the store does not carry out itself).
  virtual void audit(const AuditEntry& entry) = 0;
  // The audit log, newest first: at most limit entries with ids below before_id.
  virtual std::vector<AuditEntry> audit_log(std::int64_t before_id, int limit) = 0;
  // Files report; false, and nothing written, when its reporter reported that player on that
  // day already.
  virtual bool add_report(const ReportRecord& report, std::string_view day) = 0;
  // Reports (only open ones when open_only), newest first.
  virtual std::vector<ReportRecord> reports(bool open_only, int limit) = 0;
  // Resolves an open report; false for no such open report.
  virtual bool resolve_report(std::int64_t id, std::string_view resolution,
                              const AuditEntry& entry) = 0;
  // The players with a ban (in force, or over and not yet lifted).
  virtual std::vector<std::string> banned_players() = 0;
  // player_id's newest games (at most limit), each with whether it is hidden.
  virtual std::vector<std::pair<GameRecord, bool>> recent_games(std::string_view player_id,
                                                                int limit) = 0;
  // Ranked games (not the computer's) whose signals are not worked out yet, newest first.
  virtual std::vector<GameRecord> unanalysed_games(int limit) = 0;
  virtual void save_signals(const SignalRecord& signals, std::int64_t at) = 0;
  // The games with the highest suspicion first.
  virtual std::vector<SignalRecord> suspicious_games(int limit) = 0;
  // Players whose id is query, or whose name (or a name they had) holds its key, by name.
  virtual std::vector<PlayerRecord> search_players(std::string_view query, int limit) = 0;

 protected:
  ~ModerationStore() = default;
};

}  // namespace tilerace::server
