#pragma once
// Counting UTF-8 text: what the protocol's length limits are measured in.
#include <string_view>

namespace tilerace::protocol {

// The Unicode code points of s, which must be valid UTF-8 (protocol::valid_utf8).
inline int count_chars(std::string_view s) noexcept {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace tilerace::protocol
