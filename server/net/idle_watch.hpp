#pragma once
// Keep-alive for one connection, without a timer operation per message: traffic only notes
// the time; the connection's one timer asks check() when it fires and is set to the answer's
// time. Silent for ping_after: ping once; silent for close_after: close. Pure: the caller
// passes the time.
#include <chrono>

namespace tilerace::server {

class IdleWatch {
 public:
  using clock = std::chrono::steady_clock;
  enum class Action { wait, ping, close };
  struct Next {
    Action action;
    clock::time_point check_at;  // when to ask again (wait, ping)
  };

  // Requires ping_after < close_after.
  IdleWatch(clock::duration ping_after, clock::duration close_after, clock::time_point now)
      : ping_after_(ping_after), close_after_(close_after), heard_(now) {}

  // Something arrived from the peer (a message, a ping or a pong).
  void heard(clock::time_point now) {
    heard_ = now;
    pinged_ = false;
  }

  // What to do now, and when to ask again.
  Next check(clock::time_point now) {
    const auto silent = now - heard_;
    if (silent >= close_after_) return {Action::close, now};
    if (silent < ping_after_) return {Action::wait, heard_ + ping_after_};
    if (pinged_) return {Action::wait, heard_ + close_after_};
    pinged_ = true;
    return {Action::ping, heard_ + close_after_};
  }

 private:
  clock::duration ping_after_;
  clock::duration close_after_;
  clock::time_point heard_;
  bool pinged_ = false;
};

}  // namespace tilerace::server
