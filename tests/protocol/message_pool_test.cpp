// The recycled outgoing messages: a message's buffer comes back to its thread's pool when the
// last owner lets go, and the next message is written into it.
#include "protocol/message_pool.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace tilerace::protocol {
namespace {

TEST(MessagePool, ABufferComesBackWhenTheLastOwnerLetsGo) {
  std::string text = message_pool::buffer();
  text.assign(600, 'x');
  const char* const storage = text.data();
  auto first = message_pool::share(std::move(text));
  auto second = first;  // a broadcast: one text, several receivers
  EXPECT_EQ(*second, std::string(600, 'x'));
  first.reset();
  // Still owned: nothing came back yet, so a new buffer is not that one.
  {
    std::string other = message_pool::buffer();
    EXPECT_NE(other.data(), storage);
  }
  second.reset();
  std::string again = message_pool::buffer();
  EXPECT_TRUE(again.empty());
  EXPECT_GE(again.capacity(), 600u);
  EXPECT_EQ(again.data(), storage) << "the same buffer, written again";
}

TEST(MessagePool, ShortAndHugeTextsAreNotKeptAndEachThreadHasItsOwn) {
  auto small = message_pool::share("hi");
  small.reset();
  EXPECT_EQ(message_pool::buffer().capacity(), std::string().capacity());
  auto huge = message_pool::share(std::string(message_pool::kMaxKeptCapacity + 1, 'y'));
  huge.reset();
  EXPECT_EQ(message_pool::buffer().capacity(), std::string().capacity());
  // Let go of on another thread: that thread's pool, not this one's.
  auto shared = message_pool::share(std::string(700, 'z'));
  std::thread([moved = std::move(shared)]() mutable { moved.reset(); }).join();
  EXPECT_EQ(message_pool::buffer().capacity(), std::string().capacity());
}

}  // namespace
}  // namespace tilerace::protocol
