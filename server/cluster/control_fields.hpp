#pragma once
// The fields of a message on a node's control channel (Cluster::tell): newline-separated, the
// kind first, the last field free text.
#include <string>
#include <string_view>
#include <vector>

namespace tilerace::server {

// Splits text into its first n newline-separated fields and the rest (the last element); empty
// when text has fewer than n newlines.
inline std::vector<std::string> control_fields(std::string_view text, std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto end = text.find('\n');
    if (end == std::string_view::npos) return {};
    out.emplace_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  out.emplace_back(text);
  return out;
}

}  // namespace tilerace::server
