#include "server/base/device_marks.hpp"

#include <gtest/gtest.h>

namespace tilerace::server {
namespace {

constexpr std::int64_t kNow = 1'800'000'000'000;

TEST(DeviceMarks, AMarkIsOnlyGoodForItsPlayerUnderItsSecretWithinItsLife) {
  const DeviceMarks marks("secret one");
  const std::string mark = marks.issue("p1", kNow);
  const auto device = marks.device_of(mark, "p1", kNow + 1000);
  ASSERT_TRUE(device);
  EXPECT_EQ(device->size(), 32u);
  EXPECT_EQ(mark.find("p1"), std::string::npos) << "a mark names no one";
  EXPECT_FALSE(marks.device_of(mark, "p2", kNow)) << "another player's";
  EXPECT_FALSE(DeviceMarks("secret two").device_of(mark, "p1", kNow)) << "another server's";
  EXPECT_FALSE(marks.device_of(mark, "p1", kNow + DeviceMarks::kLifeMs + 1)) << "expired";
  EXPECT_TRUE(marks.device_of(mark, "p1", kNow - DeviceMarks::kSkewMs)) << "a clock behind";
  EXPECT_FALSE(marks.device_of(mark, "p1", kNow - DeviceMarks::kSkewMs - 1));
  // Re-issued for the same device, the id stays; a fresh one is another device.
  const std::string again = marks.issue("p1", kNow + 5000, *device);
  EXPECT_EQ(marks.device_of(again, "p1", kNow + 5000), device);
  EXPECT_NE(marks.device_of(marks.issue("p1", kNow), "p1", kNow), device);
}

TEST(DeviceMarks, AnythingElseIsNoMark) {
  const DeviceMarks marks("secret");
  std::string mark = marks.issue("p1", kNow);
  std::string other_device = mark;
  other_device[0] = other_device[0] == '0' ? '1' : '0';
  const std::string from_the_future = marks.issue("p1", kNow + 2 * DeviceMarks::kSkewMs);
  for (const std::string& bad :
       {std::string(), std::string("."), std::string(".."), mark + "0", mark.substr(1),
        other_device, std::string(500, 'a'), from_the_future}) {
    EXPECT_FALSE(marks.device_of(bad, "p1", kNow)) << bad;
  }
  mark.back() = mark.back() == '0' ? '1' : '0';  // one digit of the signature off
  EXPECT_FALSE(marks.device_of(mark, "p1", kNow));
}

}  // namespace
}  // namespace tilerace::server
