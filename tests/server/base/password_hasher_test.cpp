// PasswordHasher: argon2id hashes that verify, salts that differ, and no match for anything
// else — an unknown account (empty stored hash) included.
#include "server/base/password_hasher.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

namespace tilerace::server {
namespace {

namespace asio = boost::asio;

// Runs a coroutine on a fresh io_context to its end; its result.
template <typename T>
T run(asio::awaitable<T> work) {
  asio::io_context ioc;
  auto result = asio::co_spawn(ioc, std::move(work), asio::use_future);
  ioc.run();
  return result.get();
}

TEST(PasswordHasher, AHashVerifiesItsPasswordAndNoOther) {
  PasswordHasher hasher(1, PasswordHasher::kCheap);
  const std::string stored = run(hasher.hash("correct horse"));
  EXPECT_TRUE(stored.starts_with("$argon2id$v=19$")) << stored;
  EXPECT_TRUE(run(hasher.verify("correct horse", stored)));
  EXPECT_FALSE(run(hasher.verify("correct horsE", stored)));
  EXPECT_FALSE(run(hasher.verify("", stored)));
}

TEST(PasswordHasher, TheSamePasswordHashesDifferentlyEachTime) {
  PasswordHasher hasher(1, PasswordHasher::kCheap);
  const std::string a = run(hasher.hash("same password"));
  const std::string b = run(hasher.hash("same password"));
  EXPECT_NE(a, b);
  EXPECT_TRUE(run(hasher.verify("same password", b)));
}

TEST(PasswordHasher, NoAccountAndAStoredValueThatIsNoHashNeverMatch) {
  PasswordHasher hasher(1, PasswordHasher::kCheap);
  EXPECT_FALSE(run(hasher.verify("anything", "")));
  EXPECT_FALSE(run(hasher.verify("anything", "anything")));
  EXPECT_FALSE(run(hasher.verify("x", "$argon2id$v=19$m=8,t=1,p=1$broken")));
}

TEST(PasswordHasher, TheDefaultCostIsWrittenIntoTheHash) {
  PasswordHasher hasher(1);
  const std::string stored = run(hasher.hash("a long passphrase"));
  EXPECT_TRUE(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$")) << stored;
  EXPECT_TRUE(run(hasher.verify("a long passphrase", stored)));
}

}  // namespace
}  // namespace tilerace::server
