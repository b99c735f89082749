#pragma once
// Player names: what a name may hold, the key two names are compared by, and an operator's
// block list. A name is untrusted text, so its rules live here (docs/protocol.md, "Names").
//
// A name is 1–20 code points of valid UTF-8 once ASCII white space is trimmed from its ends,
// with at least one letter or digit, and none of: control characters, format characters
// (bidi overrides, zero-width spaces and joiners), unassigned or private-use code points,
// and the invisible fillers that Unicode marks default-ignorable (U+3164 and the like;
// variation selectors stay, for emoji).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages.hpp"

namespace tilerace::protocol {

// name with its ends trimmed of ASCII white space.
std::string trim_name(std::string_view name);
// Why name (already trimmed) may not be a name, in words for the player; nullopt if it may.
std::optional<std::string> name_problem(std::string_view name);
// The key names are unique by: NFKC with case folding (NFKC_Casefold), so "Alice",
// "ALICE" and "Ａｌｉｃｅ" share one. Requires a name name_problem accepts.
std::string name_key(std::string_view name);

// Terms an operator does not want in names, one per line of --name-blocklist. A name is
// blocked when its key, with look-alikes read as letters (0→o, 1 and l→i, 3→e, 4→a, 5→s,
// 7→t, $→s, @→a) and everything but letters and digits dropped, contains a term read the
// same way: "B4d.W0rd" contains "badword".
class NameBlocklist {
 public:
  NameBlocklist() = default;
  // Terms as written by the operator; empty lines and lines starting with # are skipped.
  explicit NameBlocklist(const std::vector<std::string>& lines);
  // Whether the name with this key (name_key) holds a blocked term.
  bool blocks(std::string_view key) const;
  std::size_t size() const { return terms_.size(); }

 private:
  std::vector<std::u32string> terms_;  // read as above
};

}  // namespace tilerace::protocol
