#pragma once
// What the chaos suite's clients saw, as they saw it: every move sent and every one a node
// acknowledged, every
// result announced, every race the drivers ran, and every fault injected — the evidence the
// verdict (verdict.hpp) holds against what PostgreSQL recorded. Thread-safe.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tilerace::chaos {

using Clock = std::chrono::steady_clock;

// A `moved` a racer got: their game's move count and score after it, from which node (the
// port of the link it came through) and when.
struct Ack {
  std::string code;  // the room
  std::string player;
  std::string game;  // the racer's race game
  int moves = 0;
  std::int64_t score = 0;
  std::uint16_t node = 0;
  Clock::time_point at;
};

// A race_over a racer or spectator got.
struct Announcement {
  std::string code;
  std::string winner;
  std::string reason;
};

// A race a driver started (its room, its two racers).
struct RaceRun {
  std::string code;
  std::string ann;
  std::string bob;
  bool finished = false;  // the driver saw it recorded
};

// A move a racer sent (answered or not).
struct Sent {
  std::string code;
  std::string player;
  Clock::time_point at;
};

struct Fault {
  std::string kind;
  int node = -1;  // -1: Redis or PostgreSQL as a whole
  Clock::time_point at;
  Clock::time_point until;  // healed (or its node restarted)
};

class Ledger {
 public:
  void ack(Ack a) {
    std::lock_guard lock(mutex_);
    acks_.push_back(std::move(a));
  }
  void sent(Sent m) {
    std::lock_guard lock(mutex_);
    sent_.push_back(std::move(m));
  }
  void announce(Announcement a) {
    std::lock_guard lock(mutex_);
    announcements_.push_back(std::move(a));
  }
  void race(RaceRun r) {
    std::lock_guard lock(mutex_);
    races_.push_back(std::move(r));
  }
  void finished(const std::string& code) {
    std::lock_guard lock(mutex_);
    for (RaceRun& r : races_) r.finished = r.finished || r.code == code;
  }
  // A driver gave a race up before it started (a fault in the way), or could not finish it.
  void setback() {
    std::lock_guard lock(mutex_);
    ++setbacks_;
  }
  int setbacks() const {
    std::lock_guard lock(mutex_);
    return setbacks_;
  }
  // A fault begins (now_fault() says it until fault() records it healed).
  void begin_fault(Fault f) {
    std::lock_guard lock(mutex_);
    current_ = std::move(f);
  }
  void fault(Fault f) {
    std::lock_guard lock(mutex_);
    faults_.push_back(std::move(f));
    current_.reset();
  }
  // No fault that takes a node out of the cluster (a kill, a cut from Redis, Redis restarted
  // empty) is in progress or ended less than settle ago: what the cluster says of its
  // players can be held to the truth.
  bool settled(Clock::duration settle) const {
    std::lock_guard lock(mutex_);
    const auto outs = [](const Fault& f) {
      return f.kind == "kill" || f.kind == "cut_redis" || f.kind == "restart_redis";
    };
    if (current_ && outs(*current_)) return false;
    for (auto it = faults_.rbegin(); it != faults_.rend(); ++it) {
      if (outs(*it)) return Clock::now() - it->until >= settle;
    }
    return true;
  }
  std::optional<Fault> now_fault() const {
    std::lock_guard lock(mutex_);
    return current_;
  }

  std::vector<Ack> acks() const {
    std::lock_guard lock(mutex_);
    return acks_;
  }
  std::vector<Sent> sent() const {
    std::lock_guard lock(mutex_);
    return sent_;
  }
  std::vector<Announcement> announcements() const {
    std::lock_guard lock(mutex_);
    return announcements_;
  }
  std::vector<RaceRun> races() const {
    std::lock_guard lock(mutex_);
    return races_;
  }
  std::vector<Fault> faults() const {
    std::lock_guard lock(mutex_);
    return faults_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Ack> acks_;
  std::vector<Sent> sent_;
  std::vector<Announcement> announcements_;
  std::vector<RaceRun> races_;
  std::vector<Fault> faults_;
  std::optional<Fault> current_;
  int setbacks_ = 0;
};

}  // namespace tilerace::chaos
