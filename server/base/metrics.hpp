#pragma once
// Process-wide counters for GET /metrics (Prometheus text format). Lock-free: every field is
// an atomic that any thread may bump.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "protocol/messages.hpp"

namespace tilerace::server {

// A latency histogram (Prometheus buckets, in seconds), lock-free like the counters.
class LatencyHistogram {
 public:
  static constexpr std::array<double, 15> kBuckets{0.00001, 0.000025, 0.00005, 0.0001, 0.00025,
                                                   0.0005,  0.001,    0.0025,  0.005,  0.01,
                                                   0.025,   0.05,     0.1,     0.25,   0.5};

  void observe(std::chrono::nanoseconds took) noexcept;
  // The upper bound of the bucket that holds quantile q (0 < q ≤ 1) of what was observed, in
  // seconds (+Inf past the last bucket; 0 when nothing was).
  double quantile(double q) const noexcept;
  // Appends the family `name` (its buckets, sum and count) to out.
  void render(std::string& out, const char* name, const char* help) const;

 private:
  std::array<std::atomic<std::uint64_t>, kBuckets.size() + 1> buckets_{};
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> nanos_{0};
};

class Metrics {
 public:
  std::atomic<std::int64_t> connections{0};     // open WebSocket connections
  std::atomic<std::int64_t> players_online{0};  // connections that said hello
  std::atomic<std::int64_t> games_active{0};    // solo games in state playing
  std::atomic<std::int64_t> rooms{0};           // open rooms
  std::atomic<std::int64_t> races_active{0};    // races running or being recorded
  std::atomic<std::uint64_t> races_total{0};    // races started
  std::atomic<std::uint64_t> connections_total{0};
  std::atomic<std::uint64_t> moves_total{0};  // moves that changed a board
  std::atomic<std::uint64_t> games_finished_total{0};
  std::atomic<std::uint64_t> messages_in_total{0};
  std::atomic<std::uint64_t> messages_out_total{0};
  std::atomic<std::uint64_t> send_queue_overflows_total{0};
  std::atomic<std::uint64_t> keepalive_pings_total{0};
  std::atomic<std::uint64_t> silent_closes_total{0};
  std::atomic<std::uint64_t> http_requests_total{0};
  std::atomic<std::uint64_t> connections_refused_total{0};  // over the per-address limit
  std::atomic<std::uint64_t> journal_flushes_total{0};      // journal passes finished
  std::atomic<std::int64_t> store_available{1};           // 0 while the database cannot be reached
  std::atomic<std::uint64_t> store_retries_total{0};      // store calls retried after a failure
  std::atomic<std::int64_t> cluster_available{1};         // cluster mode: 0 while Redis is away
  std::atomic<std::int64_t> cluster_nodes{0};             // live nodes seen by the last heartbeat
  std::atomic<std::uint64_t> redirects_total{0};          // redirects sent to other nodes
  std::atomic<std::uint64_t> unjournaled_moves_total{0};  // cluster: race moves Redis missed
  std::atomic<std::uint64_t> races_handed_over_total{0};  // cluster: races found another's
  std::atomic<std::uint64_t> adoption_mismatches_total{0};  // adopted games off their check
  std::atomic<std::uint64_t> registrations_total{0};        // guests who set a password
  std::atomic<std::uint64_t> logins_total{0};               // sign-ins by password or link code
  std::atomic<std::uint64_t> login_failures_total{0};       // wrong name, password or code
  std::atomic<std::uint64_t> login_limited_total{0};        // sign-ins refused as too many
  std::atomic<std::uint64_t> login_lockouts_total{0};       // devices or unknown devices locked out
  std::atomic<std::uint64_t> bans_total{0};                 // bans the operator made
  // cluster mode (server/play/session_guard.hpp): connections closed here because the player
  // signed in on another node, and because their session ended on another node; connections
  // that closed here after their player had moved to another node (no offline pushed)
  std::atomic<std::uint64_t> connections_taken_over_total{0};
  std::atomic<std::uint64_t> sessions_revoked_total{0};
  std::atomic<std::uint64_t> connections_moved_total{0};
  std::atomic<std::uint64_t> reports_total{0};        // reports players filed
  std::atomic<std::uint64_t> admin_actions_total{0};  // operator actions carried out
  std::atomic<std::uint64_t> admin_denied_total{0};   // operator API calls refused (401, 429)

  LatencyHistogram handling;    // a message's arrival to its reply being queued
  LatencyHistogram move_reply;  // a move's frame read to its `moved` written to the socket

  void count_error(protocol::ErrorCode code) noexcept;
  // The whole exposition, one metric family after another.
  std::string render() const;

 private:
  std::array<std::atomic<std::uint64_t>, protocol::kErrorCodes> errors_{};
};

}  // namespace tilerace::server
