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

// The operator desk (docs/operations.md, "Operators"): POST /admin/api/<action> about the
// operators themselves. An operator's name is 1–kMaxOperatorNameChars of a–z, 0–9, '.', '_'
// and '-' (upper case is folded): plain ASCII, so no two can look alike.
inline constexpr std::size_t kMaxOperatorNameChars = 32;
inline constexpr std::size_t kTotpCodeChars = 6;
// sign_in: name, password, and the authenticator's code once TOTP is enrolled ("" if none sent).
struct OperatorSignIn {
  std::string name;
  std::string password;
  std::string totp;
};
// create_operator (the owner's): a new operator with a password by the players' rules.
struct OperatorCreate {
  std::string name;
  std::string password;
  std::string role;  // owner, moderator or viewer
};
// sign_out_operator and remove_operator (the owner's): an operator's id.
struct OperatorSignOutEverywhere {
  std::string operator_id;
};
struct OperatorRemove {
  std::string operator_id;
};
// sign_out (of this session), totp_enrol (a new secret, pending) and totp_confirm (its code).
struct OperatorSignOut {};
struct TotpEnrol {};
struct TotpConfirm {
  std::string code;
};
using DeskAction = std::variant<OperatorSignIn, OperatorCreate, OperatorSignOutEverywhere,
                                OperatorRemove, OperatorSignOut, TotpEnrol, TotpConfirm>;
// The operator name's key (folded to lower case), or nullopt when it is not an operator name.
std::optional<std::string> operator_name_key(std::string_view name);

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
  std::string role;         // the actor's: owner, moderator, viewer, token; "" for a player
  std::string target_name;  // the target player's name at that moment, when there is one
  std::string address;      // where the operator's request came from
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

// The desk's answers. An operator as the desk shows them (sessions: live now).
struct OperatorView {
  std::string id, name, role;
  bool totp = false;
  std::int64_t created_at = 0;
  std::int64_t sessions = 0;
  std::int64_t last_sign_in = 0;  // 0: never
};
// sign_in: {"token","expires_at","operator":{…}}; me: {"operator":{…}}.
std::string encode_operator_session(std::string_view token, std::int64_t expires_at,
                                    const OperatorView& op);
std::string encode_operator_me(const OperatorView& op);
// totp_enrol: {"secret","uri"} (base32, and the otpauth:// URI an authenticator app reads).
std::string encode_totp_enrolment(std::string_view secret, std::string_view uri);
// GET operators, by name; create_operator: {"ok":true,"operator":{…}}.
std::string encode_operators(const std::vector<OperatorView>& operators);
std::string encode_operator_created(const OperatorView& op);

}  // namespace tilerace::protocol
