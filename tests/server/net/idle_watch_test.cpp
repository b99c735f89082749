#include "server/net/idle_watch.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

using std::chrono::seconds;
using Action = IdleWatch::Action;
const IdleWatch::clock::time_point t0{};

TEST(IdleWatch, TrafficPostponesThePing) {
  IdleWatch watch(seconds(15), seconds(30), t0);
  auto next = watch.check(t0 + seconds(15) - std::chrono::nanoseconds(1));
  EXPECT_EQ(next.action, Action::wait);
  EXPECT_EQ(next.check_at, t0 + seconds(15));
  watch.heard(t0 + seconds(10));
  next = watch.check(t0 + seconds(15));
  EXPECT_EQ(next.action, Action::wait);
  EXPECT_EQ(next.check_at, t0 + seconds(25));
}

TEST(IdleWatch, SilencePingsOnceThenCloses) {
  IdleWatch watch(seconds(15), seconds(30), t0);
  auto next = watch.check(t0 + seconds(15));
  EXPECT_EQ(next.action, Action::ping);
  EXPECT_EQ(next.check_at, t0 + seconds(30));
  next = watch.check(t0 + seconds(20));  // woken early: no second ping
  EXPECT_EQ(next.action, Action::wait);
  EXPECT_EQ(next.check_at, t0 + seconds(30));
  EXPECT_EQ(watch.check(t0 + seconds(30)).action, Action::close);
}

TEST(IdleWatch, APongAfterThePingKeepsTheConnection) {
  IdleWatch watch(seconds(15), seconds(30), t0);
  EXPECT_EQ(watch.check(t0 + seconds(15)).action, Action::ping);
  watch.heard(t0 + seconds(16));
  auto next = watch.check(t0 + seconds(30));
  EXPECT_EQ(next.action, Action::wait);
  EXPECT_EQ(next.check_at, t0 + seconds(31));
  // Silent again: pinged again, once.
  EXPECT_EQ(watch.check(t0 + seconds(31)).action, Action::ping);
  EXPECT_EQ(watch.check(t0 + seconds(46)).action, Action::close);
}

}  // namespace
}  // namespace tilerace::server
