#pragma once
// UTF-8 text: checking it as it arrives, and counting it (what the protocol's length limits are
// measured in).
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tilerace::protocol {

// Checks UTF-8 (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF) fed in pieces
// cut anywhere. feed returns false at the first byte that no valid text could have there, so a
// bad sequence is refused as soon as it arrives, not when the text ends; complete says whether
// the text so far ends on a whole character. After false, the validator must not be fed again.
class Utf8Validator {
 public:
  bool feed(std::string_view piece) noexcept;
  bool complete() const noexcept { return need_ == 0; }

 private:
  std::uint8_t need_ = 0;               // continuation bytes still to come
  std::uint8_t lo_ = 0x80, hi_ = 0xBF;  // the range the next of them must be in
};

inline bool Utf8Validator::feed(std::string_view piece) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(piece.data());
  const auto* const end = p + piece.size();
  while (p != end) {
    const unsigned c = *p;
    if (need_ != 0) {
      if (c < lo_ || c > hi_) return false;
      lo_ = 0x80;
      hi_ = 0xBF;
      --need_;
      ++p;
      continue;
    }
    if (c < 0x80) {
      // Most text is ASCII: eight bytes at a time.
      for (std::uint64_t word; end - p >= 8; p += 8) {
        std::memcpy(&word, p, 8);
        if ((word & 0x8080808080808080ULL) != 0) break;
      }
      while (p != end && *p < 0x80) ++p;
      continue;
    }
    // A lead byte, and what its first continuation byte may be (Unicode's table 3-7).
    if (c < 0xC2) return false;  // a stray continuation byte, or an overlong two-byte form
    if (c < 0xE0) {
      need_ = 1;
    } else if (c < 0xF0) {
      need_ = 2;
      if (c == 0xE0) lo_ = 0xA0;  // overlong
      if (c == 0xED) hi_ = 0x9F;  // surrogates
    } else if (c < 0xF5) {
      need_ = 3;
      if (c == 0xF0) lo_ = 0x90;  // overlong
      if (c == 0xF4) hi_ = 0x8F;  // past U+10FFFF
    } else {
      return false;
    }
    ++p;
  }
  return true;
}

// The Unicode code points of s, which must be valid UTF-8 (protocol::valid_utf8).
inline int count_chars(std::string_view s) noexcept {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace tilerace::protocol
