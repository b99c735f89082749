#pragma once
// Moderation on the wire (docs/operations.md, "Moderation"): the operator API's actions, as
// decode_admin reads them from a POST body, and what the API answers; and what a banned player
// sees (the error, the close reason).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/encode.hpp"
#include "protocol/messages.hpp"

namespace tilerace::protocol {

// POST /admin/api/<action>. reason: what the audit log keeps (required where an action takes
// something away), at most kMaxNoteChars characters.
struct AdminBan {
  std::string player;
  std::string reason;
  std::int64_t until = 0;  // Unix ms it ends; 0: until lifted
};
struct AdminUnban {
  std::string player;
  std::string reason;
};
struct AdminRename {
  std::string player;
  std::string name;  // a valid name (protocol/names.hpp)
  std::string reason;
};
struct AdminResetPassword {
  std::string player;
  std::string reason;
};
struct AdminHideGame {
  std::string game;
  bool hidden = true;  // hide_game; show_game puts it back
  std::string reason;
};
struct AdminCloseRoom {
  std::string code;
  std::string reason;
};
struct AdminResolveReport {
  std::int64_t id = 0;
  std::string resolution;
};
using AdminAction = std::variant<AdminBan, AdminUnban, AdminRename, AdminResetPassword,
                                 AdminHideGame, AdminCloseRoom, AdminResolveReport>;

// banned's error — to hello, login and link_code, and before a banned player's connection is
// closed (4003): the reason, and when it ends (0: not set).
std::string encode_banned(std::string_view reason, std::int64_t until, const Rid& rid);

// {"type":"reported","player"}: a player's report was filed.
std::string encode_reported(std::string_view player, const Rid& rid);

// What the operator API answers, JSON: each a plain object or array, no "type".
// An action done: {"ok":true}, with the link code of a password reset.
std::string encode_admin_done();
std::string encode_admin_reset(std::string_view link_code, std::int64_t expires_at);
// An action or read refused: {"error":<code>,"message"}.
std::string encode_admin_error(std::string_view error, std::string_view message);
struct AuditView {
  std::int64_t id = 0;
  std::int64_t at = 0;
  std::string actor, action, target, reason, detail;
};
std::string encode_audit(const std::vector<AuditView>& entries);
// Owns its data: the console's view of a player keeps it past the store's records.
struct ReportView {
  std::int64_t id = 0;
  std::string reporter_id, reporter_name;
  std::string player_id, player_name;
  std::string reason;
  std::string note;
  std::int64_t at = 0;
  std::int64_t resolved_at = 0;
  std::string resolution;
};
std::string encode_reports(const std::vector<ReportView>& reports);
// A player as the console lists them.
struct PlayerSummary {
  std::string id;
  std::string name;
  int rating = 0;
  std::int64_t created_at = 0;
  bool registered = false;
  std::optional<std::int64_t> banned_until;  // set while banned (0: until lifted)
};
std::string encode_player_list(const std::vector<PlayerSummary>& players);
// One player in full: who, their ban, their old names, their devices and where from, their
// recent games (hidden ones marked) and the reports about them.
struct SessionLine {
  std::string label;
  std::int64_t created_at = 0;
  std::int64_t last_seen = 0;
  std::string address;  // where it was last seen from ("" before this was kept)
};
struct GameLine {
  std::string id;
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  std::int64_t score = 0;
  int moves = 0;
  engine::GameState state = engine::GameState::over;
  std::string room;  // "" for a solo game
  std::int64_t at = 0;
  bool ranked = false;
  bool hidden = false;
};
struct AdminPlayerView {
  PlayerSummary player;
  std::string ban_reason;
  std::vector<std::pair<std::string, std::int64_t>> old_names;  // name, until
  std::vector<SessionLine> sessions;
  std::vector<GameLine> games;
  std::vector<ReportView> reports;
};
std::string encode_admin_player(const AdminPlayerView& view);
// The games of the suspicion list (docs/operations.md, "Moderation"), most suspicious first.
struct SuspicionView {
  std::string game;
  std::string player_id;
  std::string player_name;
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  std::int64_t score = 0;
  double moves_per_second = 0;
  double spread = 0;
  std::optional<double> match_rate;
  int sampled = 0;
  double suspicion = 0;
};
std::string encode_suspicion(const std::vector<SuspicionView>& games);

}  // namespace tilerace::protocol
