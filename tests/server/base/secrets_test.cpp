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
  EXPECT_EQ(token_hash(t.token), t.hash);
}

TEST(Secrets, AnyChangedCharacterOfTheSecretChangesTheHash) {
  const IssuedToken t = issue_token("p");
  for (std::size_t i = 2; i < t.token.size(); ++i) {
    std::string forged = t.token;
    forged[i] = forged[i] == 'a' ? 'b' : 'a';
    EXPECT_NE(token_hash(forged), t.hash) << i;
  }
  EXPECT_EQ(token_hash("p"), "");
  EXPECT_EQ(token_hash("p."), "");
}

TEST(Secrets, CodesUseOnlyTheirAlphabet) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string code = random_code(8, "ABC2");
    EXPECT_EQ(code.size(), 8u);
    EXPECT_EQ(code.find_first_not_of("ABC2"), std::string::npos) << code;
    seen.insert(code);
  }
  EXPECT_GT(seen.size(), 190u);
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
