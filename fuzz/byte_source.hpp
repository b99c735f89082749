#pragma once
// The structure-aware harnesses' reading of a fuzzer's input: numbers and byte strings taken
// from its front, and zeros once it runs out, so every input is a valid program and a longer
// input a longer one. (libFuzzer's FuzzedDataProvider is clang's only; make test replays the
// seeds with GCC.)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilerace::fuzz {

class ByteSource {
 public:
  ByteSource(const std::uint8_t* data, std::size_t size)
      : rest_(reinterpret_cast<const char*>(data), size) {}

  bool empty() const { return rest_.empty(); }
  std::uint8_t byte() {
    if (rest_.empty()) return 0;
    const auto b = static_cast<std::uint8_t>(rest_.front());
    rest_.remove_prefix(1);
    return b;
  }
  // A number in [0, bound), from as many bytes as bound needs.
  std::uint64_t below(std::uint64_t bound) {
    std::uint64_t v = 0;
    for (std::uint64_t span = 1; span < bound && span != 0; span <<= 8) v = (v << 8) | byte();
    return bound == 0 ? v : v % bound;
  }
  bool flag() { return (byte() & 1) != 0; }
  // Up to n bytes (fewer once the input runs out).
  std::string bytes(std::size_t n) {
    const std::string_view b = rest_.substr(0, std::min(n, rest_.size()));
    rest_.remove_prefix(b.size());
    return std::string(b);
  }

 private:
  std::string_view rest_;
};

}  // namespace tilerace::fuzz
