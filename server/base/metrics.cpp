#include "server/base/metrics.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <utility>

namespace tilerace::server {

void Metrics::count_error(protocol::ErrorCode code) noexcept {
  errors_[static_cast<std::size_t>(code)].fetch_add(1, std::memory_order_relaxed);
}

void LatencyHistogram::observe(std::chrono::nanoseconds took) noexcept {
  const double seconds = std::chrono::duration<double>(took).count();
  std::size_t i = 0;
  while (i < kBuckets.size() && seconds > kBuckets[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  nanos_.fetch_add(static_cast<std::uint64_t>(took.count()), std::memory_order_relaxed);
}

double LatencyHistogram::quantile(double q) const noexcept {
  std::array<std::uint64_t, kBuckets.size() + 1> counts{};
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    counts[i] = buckets_[i].load(std::memory_order_relaxed);
    total += counts[i];
  }
  if (total == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(total)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    seen += counts[i];
    if (seen >= rank) return kBuckets[i];
  }
  return std::numeric_limits<double>::infinity();
}

void LatencyHistogram::render(std::string& out, const char* name, const char* help) const {
  fmt::format_to(std::back_inserter(out), "# HELP {0} {1}\n# TYPE {0} histogram\n", name, help);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    fmt::format_to(std::back_inserter(out), "{}_bucket{{le=\"{}\"}} {}\n", name, kBuckets[i],
                   cumulative);
  }
  cumulative += buckets_.back().load(std::memory_order_relaxed);
  fmt::format_to(std::back_inserter(out),
                 "{0}_bucket{{le=\"+Inf\"}} {1}\n{0}_sum {2}\n{0}_count {3}\n", name, cumulative,
                 static_cast<double>(nanos_.load(std::memory_order_relaxed)) / 1e9,
                 count_.load(std::memory_order_relaxed));
}

namespace {

// One family of one value: its help, its type, the value.
template <class Value>
void family(std::string& out, const char* name, const char* type, const char* help,
            const Value& value) {
  fmt::format_to(std::back_inserter(out), "# HELP {0} {2}\n# TYPE {0} {1}\n{0} {3}\n", name, type,
                 help, value.load(std::memory_order_relaxed));
}

// What is played and sent: connections, games, rooms, races, messages.
void render_play(const Metrics& m, std::string& out) {
  family(out, "tilerace_connections", "gauge", "Open WebSocket connections.", m.connections);
  family(out, "tilerace_players", "gauge", "Connections that completed hello.", m.players_online);
  family(out, "tilerace_games", "gauge", "Solo games being played.", m.games_active);
  family(out, "tilerace_rooms", "gauge", "Open rooms.", m.rooms);
  family(out, "tilerace_races_active", "gauge", "Races running or being recorded.", m.races_active);
  family(out, "tilerace_races_total", "counter", "Races started.", m.races_total);
  family(out, "tilerace_connections_total", "counter", "WebSocket connections accepted.",
         m.connections_total);
  family(out, "tilerace_moves_total", "counter", "Moves that changed a board.", m.moves_total);
  family(out, "tilerace_games_finished_total", "counter", "Games recorded as finished.",
         m.games_finished_total);
  family(out, "tilerace_messages_in_total", "counter", "Client messages received.",
         m.messages_in_total);
  family(out, "tilerace_messages_out_total", "counter", "Messages sent to clients.",
         m.messages_out_total);
  family(out, "tilerace_send_queue_overflows_total", "counter",
         "Connections closed (1013) for not reading their messages.", m.send_queue_overflows_total);
  family(out, "tilerace_keepalive_pings_total", "counter",
         "Pings sent to connections silent for --keepalive seconds.", m.keepalive_pings_total);
  family(out, "tilerace_silent_closes_total", "counter",
         "Connections closed after twice --keepalive seconds of silence.", m.silent_closes_total);
  family(out, "tilerace_http_requests_total", "counter", "Plain HTTP requests served.",
         m.http_requests_total);
  family(out, "tilerace_connections_refused_total", "counter",
         "TCP connections refused (429) for being over the per-address limit.",
         m.connections_refused_total);
}

// The store and the cluster: the journal, the database, Redis, redirects, fencing.
void render_storage_and_cluster(const Metrics& m, std::string& out) {
  family(out, "tilerace_journal_flushes_total", "counter",
         "Journal passes finished (each writes the active games that changed).",
         m.journal_flushes_total);
  family(out, "tilerace_store_available", "gauge",
         "1 while the database answers, 0 while it cannot be reached.", m.store_available);
  family(out, "tilerace_store_retries_total", "counter",
         "Store calls retried because the database could not be reached.", m.store_retries_total);
  family(out, "tilerace_cluster_available", "gauge",
         "Cluster mode: 1 while Redis answers, 0 while it cannot be reached.", m.cluster_available);
  family(out, "tilerace_cluster_nodes", "gauge",
         "Cluster mode: live nodes, this one included, as of the last heartbeat (0: no cluster).",
         m.cluster_nodes);
  family(out, "tilerace_redirects_total", "counter", "Clients sent to the node hosting their room.",
         m.redirects_total);
  family(out, "tilerace_unjournaled_moves_total", "counter",
         "Cluster mode: race moves not in the Redis move journal, answered once the store's "
         "journal had them (Redis away, or this node's lease unconfirmed).",
         m.unjournaled_moves_total);
  family(out, "tilerace_races_handed_over_total", "counter",
         "Cluster mode: races this node found adopted or recorded by another node (fenced): "
         "their racers and spectators were sent there.",
         m.races_handed_over_total);
  family(out, "tilerace_adoption_mismatches_total", "counter",
         "Cluster mode: racers of adopted races whose rebuilt game differs from its journal's "
         "check.",
         m.adoption_mismatches_total);
}

// Accounts, sessions across nodes, moderation and the operators.
void render_people(const Metrics& m, std::string& out) {
  family(out, "tilerace_registrations_total", "counter",
         "Guests who claimed their name with a password.", m.registrations_total);
  family(out, "tilerace_logins_total", "counter", "Sign-ins with a password or a link code.",
         m.logins_total);
  family(out, "tilerace_login_failures_total", "counter",
         "Sign-ins refused for a wrong name, password or link code.", m.login_failures_total);
  family(out, "tilerace_login_limited_total", "counter",
         "Sign-ins refused (rate_limited): too many from an address, a device or unknown devices.",
         m.login_limited_total);
  family(out, "tilerace_login_lockouts_total", "counter",
         "Lockouts begun: a device's, or an account's unknown devices'.", m.login_lockouts_total);
  family(out, "tilerace_bans_total", "counter", "Bans made by the operator.", m.bans_total);
  family(out, "tilerace_connections_taken_over_total", "counter",
         "Connections closed because their player signed in on another node.",
         m.connections_taken_over_total);
  family(out, "tilerace_sessions_revoked_total", "counter",
         "Connections closed because their session ended on another node.",
         m.sessions_revoked_total);
  family(out, "tilerace_connections_moved_total", "counter",
         "Connections that closed after their player had moved to another node (not offline).",
         m.connections_moved_total);
  family(out, "tilerace_reports_total", "counter", "Reports filed by players.", m.reports_total);
  family(out, "tilerace_admin_actions_total", "counter",
         "Operator actions carried out (each is in the audit log).", m.admin_actions_total);
  family(out, "tilerace_admin_denied_total", "counter",
         "Operator API calls refused: a missing or wrong token (401), or too many of those (429).",
         m.admin_denied_total);
}

}  // namespace

std::string Metrics::render() const {
  std::string out;
  render_play(*this, out);
  render_storage_and_cluster(*this, out);
  render_people(*this, out);

  out +=
      "# HELP tilerace_errors_total Error messages sent, by code.\n"
      "# TYPE tilerace_errors_total counter\n";
  for (std::size_t i = 0; i < errors_.size(); ++i) {
    fmt::format_to(std::back_inserter(out), "tilerace_errors_total{{code=\"{}\"}} {}\n",
                   protocol::to_string(static_cast<protocol::ErrorCode>(i)),
                   errors_[i].load(std::memory_order_relaxed));
  }

  handling.render(out, "tilerace_message_handling_seconds",
                  "Time from a message's arrival to its reply being queued.");
  move_reply.render(out, "tilerace_move_reply_seconds",
                    "Time from a move's frame being read to its moved being written.");
  // The same, read off the buckets for a glance (the bucket's upper bound).
  for (const auto& [label, q] : {std::pair{"p50", 0.5}, std::pair{"p99", 0.99}}) {
    fmt::format_to(std::back_inserter(out),
                   "# HELP tilerace_move_reply_{0}_seconds The move reply time's {0} (bucket "
                   "bound).\n# TYPE tilerace_move_reply_{0}_seconds gauge\n"
                   "tilerace_move_reply_{0}_seconds {1}\n",
                   label, move_reply.quantile(q));
  }
  return out;
}

}  // namespace tilerace::server
