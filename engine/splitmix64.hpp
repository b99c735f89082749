#pragma once
// SplitMix64, exactly as PROTOCOL.md §7 specifies. Copyable value state: saving the object
// saves the sequence, which is what undo snapshots and races rely on.
#include <cstdint>

namespace tilerace::engine {

class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed = 0) noexcept : state_(seed) {}

  // Advances the state and returns the next 64-bit value of the sequence.
  constexpr std::uint64_t next() noexcept {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Returns next() % bound; requires bound > 0.
  constexpr std::uint64_t below(std::uint64_t bound) noexcept { return next() % bound; }

  constexpr std::uint64_t state() const noexcept { return state_; }
  friend constexpr bool operator==(const SplitMix64&, const SplitMix64&) = default;

 private:
  std::uint64_t state_;
};

}  // namespace tilerace::engine
