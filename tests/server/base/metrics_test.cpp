#include "server/base/metrics.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace tilerace::server {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

TEST(LatencyHistogram, QuantilesAreTheBoundsOfTheirBuckets) {
  LatencyHistogram h;
  EXPECT_EQ(h.quantile(0.5), 0);                             // nothing observed
  for (int i = 0; i < 98; ++i) h.observe(microseconds(40));  // in (25 µs, 50 µs]
  h.observe(milliseconds(2));                                // in (1 ms, 2.5 ms]
  h.observe(std::chrono::seconds(3));                        // past the last bucket
  EXPECT_DOUBLE_EQ(h.quantile(0.5), 0.00005);
  EXPECT_DOUBLE_EQ(h.quantile(0.98), 0.00005);
  EXPECT_DOUBLE_EQ(h.quantile(0.99), 0.0025);
  EXPECT_EQ(h.quantile(1.0), std::numeric_limits<double>::infinity());
}

TEST(LatencyHistogram, RendersCumulativeBucketsSumAndCount) {
  LatencyHistogram h;
  h.observe(microseconds(40));
  h.observe(milliseconds(2));
  std::string out;
  h.render(out, "x_seconds", "What x takes.");
  EXPECT_NE(out.find("# TYPE x_seconds histogram\n"), std::string::npos);
  EXPECT_NE(out.find("x_seconds_bucket{le=\"5e-05\"} 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{le=\"0.0025\"} 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{le=\"+Inf\"} 2\n"), std::string::npos);
  EXPECT_NE(out.find("x_seconds_count 2\n"), std::string::npos);
}

}  // namespace
}  // namespace tilerace::server
