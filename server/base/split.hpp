#pragma once
// Splitting text at a separator, for the small formats read here (a notification's payload,
// a forwarding header's list).
#include <string_view>
#include <vector>

namespace tilerace::server {

// The pieces of s between the separators, empty ones included: "a,,b" is {"a", "", "b"}.
inline std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto at = s.find(separator);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return parts;
    s.remove_prefix(at + 1);
  }
}

}  // namespace tilerace::server
