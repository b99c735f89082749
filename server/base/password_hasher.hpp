#pragma once
// Passwords: argon2id through libsodium's crypto_pwhash, on threads of their own. A hash costs
// tens of milliseconds of one core, so it never runs on a network thread (nor on a storage
// thread, where it would hold up every query behind it). The stored form is libsodium's PHC
// string ("$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>"), which carries its own parameters:
// raising the cost later leaves old hashes verifiable. docs/operations.md gives the figures.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>

#include <cstddef>
#include <string>

namespace tilerace::server {

class PasswordHasher {
 public:
  struct Cost {
    unsigned long long passes;  // argon2's t
    std::size_t memory;         // bytes; argon2's m (libsodium always uses one lane, p = 1)
  };
  // OWASP's argon2id baseline: 19 MiB, 2 passes, one lane (about 30 ms on this machine).
  static constexpr Cost kDefault{2, std::size_t{19} << 20};
  // For tests: libsodium's minimum, about a millisecond.
  static constexpr Cost kCheap{1, std::size_t{8} << 10};

  explicit PasswordHasher(int threads, Cost cost = kDefault);
  ~PasswordHasher();
  PasswordHasher(const PasswordHasher&) = delete;
  PasswordHasher& operator=(const PasswordHasher&) = delete;

  // The PHC string of password, computed on a worker; the caller resumes on its own executor.
  // Throws std::runtime_error if libsodium cannot (out of memory). The arguments must outlive
  // the await: callers pass named strings, never temporaries (GCC 12 destroys a temporary
  // that lives across a co_await twice).
  boost::asio::awaitable<std::string> hash(const std::string& password);
  // Whether password matches stored (a PHC string from hash()), computed on a worker. A stored
  // string that is no hash of ours is no match. With stored empty (no such account) the same
  // work is done against a hash of nothing anybody knows, so an unknown name and a wrong
  // password cost the same time.
  boost::asio::awaitable<bool> verify(const std::string& password, const std::string& stored);

  // Finishes the hashes under way and stops the threads.
  void join() { pool_.join(); }

 private:
  Cost cost_;
  std::string decoy_;  // a hash of a random password, verified against for unknown names
  boost::asio::thread_pool pool_;
};

}  // namespace tilerace::server
