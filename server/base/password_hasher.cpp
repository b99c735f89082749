#include "server/base/password_hasher.hpp"

#include <sodium.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <stdexcept>

#include "server/base/secrets.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

std::string hash_now(const std::string& password, PasswordHasher::Cost cost) {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.passes, cost.memory,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw std::runtime_error("password hashing failed (out of memory)");
  }
  return out;
}

}  // namespace

PasswordHasher::PasswordHasher(int threads, Cost cost)
    : cost_(cost), pool_(static_cast<std::size_t>(threads)) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not start");
  decoy_ = hash_now(random_hex(16), cost_);
}

PasswordHasher::~PasswordHasher() { pool_.join(); }

asio::awaitable<std::string> PasswordHasher::hash(const std::string& password) {
  const auto task = [this, &password]() -> asio::awaitable<std::string> {
    co_return hash_now(password, cost_);
  };
  co_return co_await asio::co_spawn(pool_.get_executor(), task, asio::use_awaitable);
}

asio::awaitable<bool> PasswordHasher::verify(const std::string& password,
                                             const std::string& stored) {
  const auto task = [this, &password, &stored]() -> asio::awaitable<bool> {
    const bool known = !stored.empty();
    const std::string& against = known ? stored : decoy_;
    // The check runs for an unknown account too (against the decoy): the same work either way.
    const bool match =
        crypto_pwhash_str_verify(against.c_str(), password.data(), password.size()) == 0;
    const bool verified = known && match;
    co_return verified;
  };
  co_return co_await asio::co_spawn(pool_.get_executor(), task, asio::use_awaitable);
}

}  // namespace tilerace::server
