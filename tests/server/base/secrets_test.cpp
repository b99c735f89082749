#include "server/base/secrets.hpp"

#include <gtest/gtest.h>

#include <set>

namespace tilerace::server {
namespace {

TEST(Secrets, TokensCarryThePlayerAndAtLeast128RandomBits) {
  const IssuedToken t = issue_token("abc123");
  EXPECT_EQ(token_player(t.token), "abc123");
  EXPECT_GE(t.token.size() - std::string("abc123.").size(), 32u);  // hex: 4 bits a char
  EXPECT_EQ(t.hash.size(), 64u);                                   // SHA-256, hex
  EXPECT_EQ(t.token.find(t.hash), std::string::npos);              // the hash is not the secret
  EXPECT_TRUE(token_matches(t.token, t.hash));
}

TEST(Secrets, AnyChangedCharacterFailsTheCheck) {
  const IssuedToken t = issue_token("p");
  for (std::size_t i = 2; i < t.token.size(); ++i) {
    std::string forged = t.token;
    forged[i] = forged[i] == 'a' ? 'b' : 'a';
    EXPECT_FALSE(token_matches(forged, t.hash)) << i;
  }
  EXPECT_FALSE(token_matches("p", t.hash));
  EXPECT_FALSE(token_matches(t.token, t.hash.substr(1)));
}

TEST(Secrets, TokenPlayerRejectsMalformedTokens) {
  EXPECT_EQ(token_player("nodot"), "");
  EXPECT_EQ(token_player(".secret"), "");
  EXPECT_EQ(token_player("id."), "");
}

TEST(Secrets, RandomValuesDoNotRepeat) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(random_hex(8));
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_NE(random_u64(), random_u64());
}

}  // namespace
}  // namespace tilerace::server
