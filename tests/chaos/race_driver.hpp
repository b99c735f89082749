#pragma once
// One scripted pair of racers and a spectator, racing again and again through whatever the
// chaos suite does to the cluster: they connect through any node's client link (as through a
// balancer), follow redirects, reconnect with their tokens when a link drops or stalls, resync
// with at_move, and log what they were told in the Ledger. A race ends with a resignation
// once each racer has taken its turns; the driver waits until PostgreSQL has it recorded.
// A link is given up as a client would: a move unanswered for kStall, or an upgrade that does
// not complete within kHandshake.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/chaos/ledger.hpp"
#include "tests/e2e/harness.hpp"

namespace tilerace::chaos {

using e2e::json;
using e2e::WsClient;

// One player's client.
struct Seat {
  std::string name;
  std::string id;
  std::string token;
  std::unique_ptr<WsClient> ws;
  std::uint16_t port = 0;  // the link it is connected through
  int moves = 0;           // its race game's moves, as last told
  // The link a move stalled on: the next connection goes through the door after it, as a
  // client given every node's address tries the next (both racers of a race the same one).
  std::uint16_t stalled = 0;
};

class RaceDriver {
 public:
  // doors: every node's client link (a port each); recorded(code, player): whether
  // PostgreSQL has the race of room code with that racer.
  RaceDriver(int index, std::vector<std::uint16_t> doors, Ledger& ledger,
             std::function<bool(const std::string&, const std::string&)> recorded);
  ~RaceDriver();

  // Races until stop() (then finishes the race in progress); in its own threads.
  void start();
  void stop();

 private:
  void run();
  void watch();
  bool one_race();
  // Connects seat through port (when 0: the door after the one it stalled on, else any door)
  // and says hello; false past the deadline.
  bool connect(Seat& seat, std::uint16_t port, Clock::time_point deadline);
  // Reads one message for seat (reconnecting it when the link ended); what it was is
  // handled here: acks, resyncs, redirects, announcements. The message, or null.
  json read(Seat& seat, std::chrono::milliseconds wait);
  // A move for seat, answered or not; true while the race goes on.
  bool turn(Seat& seat, const std::string& dir);

  int index_;
  std::vector<std::uint16_t> doors_;
  Ledger& ledger_;
  std::function<bool(const std::string&, const std::string&)> recorded_;
  std::minstd_rand random_;
  Seat ann_, bob_;
  std::string code_;
  bool over_ = false;  // race_over or room_closed seen for code_
  std::mutex watched_mutex_;
  std::condition_variable watched_changed_;
  std::string watched_;  // the race the spectator follows
  std::atomic<bool> stopping_{false};
  std::thread racing_;
  std::thread watching_;
};

}  // namespace tilerace::chaos
