#pragma once
// Token bucket per connection (PROTOCOL.md §8): `rate` messages a second, bursts of twice
// that. Time is passed in, so the limiter is a pure value that tests drive directly.
#include <algorithm>
#include <chrono>

namespace tilerace::server {

class RateLimiter {
 public:
  using clock = std::chrono::steady_clock;
  enum class Verdict { allow, reject, drop, disconnect };

  RateLimiter(double rate, clock::time_point now)
      : rate_(rate), capacity_(2 * rate), tokens_(2 * rate), last_(now) {}

  // allow: apply the message. reject: answer rate_limited (at most once per kAnswerEvery, so
  // a flood cannot make the server write as much as it reads). drop: not applied and not
  // answered. disconnect: the client has been over the limit for kPatience; close it with
  // 1008. A client is back under the limit once kCalm passes without a rejection; tokens
  // trickling back during a flood do not count.
  Verdict admit(clock::time_point now) {
    const std::chrono::duration<double> elapsed = now - last_;
    last_ = now;
    tokens_ = std::min(capacity_, tokens_ + elapsed.count() * rate_);
    if (tokens_ >= 1) {
      tokens_ -= 1;
      return Verdict::allow;
    }
    if (!over_ || now - last_reject_ > kCalm) over_since_ = now;
    over_ = true;
    last_reject_ = now;
    if (now - over_since_ >= kPatience) return Verdict::disconnect;
    if (answered_ && now - last_answer_ < kAnswerEvery) return Verdict::drop;
    answered_ = true;
    last_answer_ = now;
    return Verdict::reject;
  }

  static constexpr std::chrono::seconds kPatience{5};
  static constexpr std::chrono::seconds kCalm{1};
  static constexpr std::chrono::milliseconds kAnswerEvery{250};

 private:
  double rate_;
  double capacity_;
  double tokens_;
  clock::time_point last_;
  bool over_ = false;
  clock::time_point over_since_{};
  clock::time_point last_reject_{};
  bool answered_ = false;
  clock::time_point last_answer_{};
};

}  // namespace tilerace::server
