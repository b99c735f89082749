#include "protocol/moderation.hpp"

#include "protocol/json_out.hpp"

namespace tilerace::protocol {

using json = nlohmann::json;

namespace {

json operator_json(const OperatorView& op) {
  return {{"id", op.id},
          {"name", op.name},
          {"role", op.role},
          {"totp", op.totp},
          {"created_at", op.created_at},
          {"sessions", op.sessions},
          {"last_sign_in", op.last_sign_in}};
}

json player_json(const PlayerSummary& p) {
  json j{{"id", p.id},
         {"name", p.name},
         {"rating", p.rating},
         {"created_at", p.created_at},
         {"registered", p.registered}};
  if (p.banned_until) j["banned_until"] = *p.banned_until;
  return j;
}

json report_json(const ReportView& r) {
  return {{"id", r.id},
          {"reporter", {{"id", r.reporter_id}, {"name", r.reporter_name}}},
          {"player", {{"id", r.player_id}, {"name", r.player_name}}},
          {"reason", r.reason},
          {"note", r.note},
          {"at", r.at},
          {"resolved_at", r.resolved_at},
          {"resolution", r.resolution}};
}

}  // namespace

std::string encode_reported(std::string_view player, const Rid& rid) {
  json j{{"type", "reported"}, {"player", player}};
  put_rid(j, rid);
  return dump(j);
}

std::string encode_admin_done() { return R"({"ok":true})"; }

std::string encode_admin_reset(std::string_view link_code, std::int64_t expires_at) {
  return dump({{"ok", true}, {"link_code", link_code}, {"expires_at", expires_at}});
}

std::string encode_admin_error(std::string_view error, std::string_view message) {
  return dump({{"error", error}, {"message", message}});
}

std::string encode_banned(std::string_view reason, std::int64_t until, const Rid& rid) {
  json j{{"type", "error"},
         {"code", to_string(ErrorCode::banned)},
         {"message", std::string("you are banned: ").append(reason)},
         {"reason", reason}};
  if (until > 0) j["until"] = until;
  put_rid(j, rid);
  return dump(j);
}

std::string encode_audit(const std::vector<AuditView>& entries) {
  json list = json::array();
  for (const AuditView& e : entries) {
    list.push_back({{"id", e.id},
                    {"at", e.at},
                    {"actor", e.actor},
                    {"action", e.action},
                    {"target", e.target},
                    {"reason", e.reason},
                    {"detail", e.detail},
                    {"role", e.role},
                    {"target_name", e.target_name},
                    {"address", e.address}});
  }
  return dump(list);
}

std::string encode_reports(const std::vector<ReportView>& reports) {
  json list = json::array();
  for (const ReportView& r : reports) list.push_back(report_json(r));
  return dump(list);
}

std::string encode_player_list(const std::vector<PlayerSummary>& players) {
  json list = json::array();
  for (const PlayerSummary& p : players) list.push_back(player_json(p));
  return dump(list);
}

std::string encode_suspicion(const std::vector<SuspicionView>& games) {
  json list = json::array();
  for (const SuspicionView& g : games) {
    list.push_back({{"game", g.game},
                    {"player", {{"id", g.player_id}, {"name", g.player_name}}},
                    {"mode", engine::to_string(g.mode)},
                    {"size", g.size},
                    {"score", g.score},
                    {"moves_per_second", g.moves_per_second},
                    {"spread", g.spread},
                    {"match_rate", g.match_rate ? json(*g.match_rate) : json(nullptr)},
                    {"sampled", g.sampled},
                    {"suspicion", g.suspicion}});
  }
  return dump(list);
}

std::string encode_admin_player(const AdminPlayerView& v) {
  json j = player_json(v.player);
  if (v.player.banned_until) j["ban_reason"] = v.ban_reason;
  json old = json::array();
  for (const auto& [name, until] : v.old_names) old.push_back({{"name", name}, {"until", until}});
  json sessions = json::array();
  for (const SessionLine& s : v.sessions) {
    sessions.push_back({{"label", s.label},
                        {"created_at", s.created_at},
                        {"last_seen", s.last_seen},
                        {"address", s.address}});
  }
  json games = json::array();
  for (const GameLine& g : v.games) {
    games.push_back({{"id", g.id},
                     {"mode", engine::to_string(g.mode)},
                     {"size", g.size},
                     {"score", g.score},
                     {"moves", g.moves},
                     {"state", engine::to_string(g.state)},
                     {"room", g.room},
                     {"at", g.at},
                     {"ranked", g.ranked},
                     {"hidden", g.hidden}});
  }
  json reports = json::array();
  for (const ReportView& r : v.reports) reports.push_back(report_json(r));
  j["old_names"] = std::move(old);
  j["sessions"] = std::move(sessions);
  j["games"] = std::move(games);
  j["reports"] = std::move(reports);
  return dump(j);
}

std::optional<std::string> operator_name_key(std::string_view name) {
  if (name.empty() || name.size() > kMaxOperatorNameChars) return std::nullopt;
  std::string key;
  for (const char c : name) {
    const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    const bool allowed = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') ||
                         lower == '.' || lower == '_' || lower == '-';
    if (!allowed) return std::nullopt;
    key.push_back(lower);
  }
  return key;
}

std::string encode_operator_session(std::string_view token, std::int64_t expires_at,
                                    const OperatorView& op) {
  return dump({{"token", token}, {"expires_at", expires_at}, {"operator", operator_json(op)}});
}

std::string encode_operator_me(const OperatorView& op) {
  return dump({{"operator", operator_json(op)}});
}

std::string encode_totp_enrolment(std::string_view secret, std::string_view uri) {
  return dump({{"secret", secret}, {"uri", uri}});
}

std::string encode_operators(const std::vector<OperatorView>& operators) {
  json list = json::array();
  for (const OperatorView& op : operators) list.push_back(operator_json(op));
  return dump(list);
}

std::string encode_operator_created(const OperatorView& op) {
  return dump({{"ok", true}, {"operator", operator_json(op)}});
}

}  // namespace tilerace::protocol
