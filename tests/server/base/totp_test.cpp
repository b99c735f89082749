#include "server/base/totp.hpp"

#include <gtest/gtest.h>

namespace tilerace::server::totp {
namespace {

// RFC 6238, Appendix B: the SHA-1 vectors (8 digits), key "12345678901234567890".
TEST(Totp, MatchesRfc6238sTestVectors) {
  const std::string key = "12345678901234567890";
  const std::pair<std::int64_t, const char*> vectors[] = {
      {59, "94287082"},         {1111111109, "07081804"}, {1111111111, "14050471"},
      {1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"}};
  for (const auto& [t, expected] : vectors) {
    EXPECT_EQ(code(key, step_of(t), 8), expected) << t;
    EXPECT_EQ(code(key, step_of(t)), std::string(expected).substr(2)) << "6 digits at " << t;
  }
}

TEST(Totp, ACodeCountsForItsStepAndOneEitherSide) {
  const std::string key = "12345678901234567890";
  const std::int64_t now = 1'800'000'015;  // inside step 60'000'000
  const std::int64_t step = step_of(now);
  EXPECT_EQ(matching_step(key, code(key, step), now), step);
  EXPECT_EQ(matching_step(key, code(key, step - 1), now), step - 1);
  EXPECT_EQ(matching_step(key, code(key, step + 1), now), step + 1);
  EXPECT_FALSE(matching_step(key, code(key, step - 2), now));
  EXPECT_FALSE(matching_step(key, code(key, step + 2), now));
  EXPECT_FALSE(matching_step(key, "12345", now));
  EXPECT_FALSE(matching_step(key, "", now));
}

TEST(Totp, SecretsAreBase32ThatAppsRead) {
  EXPECT_EQ(base32("12345678901234567890"), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  EXPECT_EQ(from_base32("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"), "12345678901234567890");
  EXPECT_EQ(base32("f"), "MY");  // RFC 4648 §10, without the padding
  EXPECT_EQ(base32("fooba"), "MZXW6YTB");
  EXPECT_FALSE(from_base32("not base32!"));
  const std::string secret = new_secret();
  EXPECT_EQ(secret.size(), 32u);
  EXPECT_EQ(from_base32(secret)->size(), kSecretBytes);
  EXPECT_NE(new_secret(), secret);
  EXPECT_EQ(uri("tilerace", "Ada Lovelace", "ABC"),
            "otpauth://totp/tilerace:Ada%20Lovelace?secret=ABC&issuer=tilerace&algorithm=SHA1&"
            "digits=6&period=30");
}

}  // namespace
}  // namespace tilerace::server::totp
