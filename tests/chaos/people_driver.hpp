#pragma once
// People in the chaos suite, beside the races: what the cluster promises about a player
// (docs/operations.md, "Connections across nodes"), checked from outside while the faults go
// on. Each round of a PeopleDriver, in its own thread:
// - a guest moves to another node (a new connection with their token, as a redirect or a
//   second device makes): a lease after the new welcome, the old connection must not answer
//   a ping (else: two live connections);
// - once the new connection has answered a ping a lease after its welcome, their friend,
//   looking through any node (`friends`), must not see them offline; and a lease after they
//   close it (their node not faulted: else the close may not reach it), must see them
//   offline; likewise a lease after their node was killed under them (else: wrong presence).
//   Presence is judged only while every node is in the cluster (Ledger::settled): a node cut
//   from Redis is dead to the others, and its players offline with it, until the heal;
// - every other round, a registered player's second session signs them out everywhere
//   (`logout_all`), or the operator bans them for a minute — through a node cut from Redis
//   when one is, with the first session on it: a lease after the answer, the first session
//   must not answer a ping (else: a revoked session answered).
// A step a fault gets in the way of (a door that does not answer) gives the round up; the
// counts say how many were judged.
#include <atomic>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/chaos/ledger.hpp"
#include "tests/e2e/harness.hpp"

namespace tilerace::chaos {

struct PeopleCounts {
  int moves = 0;            // moves between nodes judged
  int presence_checks = 0;  // friends lists judged
  int revocations = 0;      // sign-outs and bans judged
  int revocations_cut = 0;  // of which through a node cut from Redis
  int rounds_given_up = 0;
  int two_live_connections = 0;
  int revoked_answered = 0;
  int wrong_presence = 0;
  std::vector<std::string> violations;  // what each was

  PeopleCounts& operator+=(const PeopleCounts& o) {
    moves += o.moves;
    presence_checks += o.presence_checks;
    revocations += o.revocations;
    revocations_cut += o.revocations_cut;
    rounds_given_up += o.rounds_given_up;
    two_live_connections += o.two_live_connections;
    revoked_answered += o.revoked_answered;
    wrong_presence += o.wrong_presence;
    violations.insert(violations.end(), o.violations.begin(), o.violations.end());
    return *this;
  }
};

class PeopleDriver {
 public:
  // doors: every node's client link (a port each); lease: the nodes' --node-lease-ms;
  // admin_token: a moderator's session (docs/operations.md, "Operators").
  PeopleDriver(int index, std::vector<std::uint16_t> doors, std::chrono::milliseconds lease,
               std::string admin_token, const Ledger& ledger);
  ~PeopleDriver();

  void start();
  // Ends the round in progress and the thread; then counts() is final.
  void stop();
  PeopleCounts counts() const;

 private:
  struct Person {
    std::string name;
    std::string id;
    std::string token;
  };

  void run();
  bool setup();
  bool move_round();
  bool revocation_round(bool ban);
  // A new connection through door for who (hello with their token): null if no welcome.
  std::unique_ptr<e2e::WsClient> connect(const Person& who, std::uint16_t door);
  // Whether ws answers a ping within a few seconds.
  static bool answers(e2e::WsClient& ws);
  // The friend's view of the mover through any door: their status, or "" if no door answered.
  std::string seen_by_friend();
  std::uint16_t door_other_than(std::uint16_t door);
  void violation(int PeopleCounts::*count, std::string what);

  int index_;
  std::vector<std::uint16_t> doors_;
  std::chrono::milliseconds lease_;
  std::string admin_token_;
  const Ledger& ledger_;
  std::minstd_rand random_;
  Person mover_, friend_, account_;
  std::string password_ = "correct horse 42";
  mutable std::mutex mutex_;
  PeopleCounts counts_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace tilerace::chaos
