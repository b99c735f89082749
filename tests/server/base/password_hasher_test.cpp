// PasswordHasher: argon2id hashes that verify, salts that differ, and no match for anything
// else — an unknown account (empty stored hash) included.
#include "server/base/password_hasher.hpp"

#include <gtest/gtest.h>

#include "tests/run_coroutine.hpp"

namespace tilerace::server {
namespace {

using tilerace::testing::run_coroutine;

TEST(PasswordHasher, AHashVerifiesItsPasswordAndNoOther) {
  PasswordHasher hasher(1, PasswordHasher::kCheap);
  const std::string stored = run_coroutine(hasher.hash("correct horse"));
  EXPECT_TRUE(stored.starts_with("$argon2id$v=19$")) << stored;
  EXPECT_TRUE(run_coroutine(hasher.verify("correct horse", stored)));
  EXPECT_FALSE(run_coroutine(hasher.verify("correct horsE", stored)));
  EXPECT_FALSE(run_coroutine(hasher.verify("", stored)));
}

TEST(PasswordHasher, TheSamePasswordHashesDifferentlyEachTime) {
  PasswordHasher hasher(1, PasswordHasher::kCheap);
  const std::string a = run_coroutine(hasher.hash("same password"));
  const std::string b = run_coroutine(hasher.hash("same password"));
  EXPECT_NE(a, b);
  EXPECT_TRUE(run_coroutine(hasher.verify("same password", b)));
}

TEST(PasswordHasher, NoAccountAndAStoredValueThatIsNoHashNeverMatch) {
  PasswordHasher hasher(1, PasswordHasher::kCheap);
  EXPECT_FALSE(run_coroutine(hasher.verify("anything", "")));
  EXPECT_FALSE(run_coroutine(hasher.verify("anything", "anything")));
  EXPECT_FALSE(run_coroutine(hasher.verify("x", "$argon2id$v=19$m=8,t=1,p=1$broken")));
}

TEST(PasswordHasher, TheDefaultCostIsWrittenIntoTheHash) {
  PasswordHasher hasher(1);
  const std::string stored = run_coroutine(hasher.hash("a long passphrase"));
  EXPECT_TRUE(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$")) << stored;
  EXPECT_TRUE(run_coroutine(hasher.verify("a long passphrase", stored)));
}

}  // namespace
}  // namespace tilerace::server
