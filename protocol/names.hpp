#pragma once
// Player names: what a name may hold, the keys two names are compared by, and the names an
// operator refuses (reserved names, a block list). A name is untrusted text, so its rules live
// here (docs/protocol.md, "Names").
//
// A name is 1–20 code points of valid UTF-8 once ASCII white space is trimmed from its ends.
// Its characters, once in NFKC, come from Unicode's recommended identifier set (UTS #39, as
// ICU has it) plus a single inner space, `-`, `_` and `.`; it holds a letter or a digit, no
// other white space or blank (U+00A0, U+3000, U+2800, U+3164, U+115F/U+1160, U+FFA0, line
// and paragraph separators…), and mixes scripts only as ICU's Moderately Restrictive level
// allows (Latin with Han and Hiragana/Katakana, with Han and Bopomofo, with Hangul, or with
// one other script but Cyrillic and Greek).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages.hpp"

namespace tilerace::protocol {

// Why a name is refused: the error's `reason`.
enum class NameReason { length, character, script_mix, reserved, blocked };
std::string_view to_string(NameReason reason);

struct NameProblem {
  NameReason reason;
  std::string message;  // in words for the player
};
// The error a refused name gets: bad_field, field name, with its reason.
ProtocolError name_error(const NameProblem& problem);

// Whether text (a device's label, say) is valid UTF-8 with nothing invisible: no control or
// format characters, nothing unassigned or private-use, no default-ignorable filler.
bool visible_text(std::string_view text);
// name with its ends trimmed of ASCII white space.
std::string trim_name(std::string_view name);
// Why name (already trimmed) may not be a name; nullopt if it may.
std::optional<NameProblem> name_problem(std::string_view name);

// The keys names are unique by: two names are one when either key is the same. key is the
// UTS #39 skeleton of the name's NFKC_Casefold form, look the NFKC_Casefold form of its
// skeleton, both after a combining dot above on i or j is dropped: "Alice", "ALICE", "ＡＬＩＣＥ",
// "ALİCE" share key, "aIice" (capital I) shares look with "alice", and a Cyrillic "аlice"
// both. Requires valid UTF-8.
struct NameKeys {
  std::string key;
  std::string look;
  bool operator==(const NameKeys&) const = default;
};
NameKeys name_keys(std::string_view name);
// name_keys(name).key: what a name typed to find a player is looked up by.
std::string name_key(std::string_view name);
// What the keys depend on (ICU's version and these rules'): stored keys made under another
// are made again (docs/operations.md, "Names across ICU versions").
std::string name_keys_version();

// Names refused for players, by what they look like: the built-in ones (admin, operator,
// moderator, support, tilerace, computer, bot, guest…) and an operator's, one per line of
// --reserved-names. A name is reserved when it reads as one of them through look-alikes,
// case and width ("ADM1N", "аdmin").
class ReservedNames {
 public:
  // The built-in names and these lines; empty lines and lines starting with # are skipped.
  explicit ReservedNames(const std::vector<std::string>& lines = {});
  bool reserves(std::string_view name) const;

 private:
  std::vector<std::u32string> names_;  // read as blockable() reads
};

// Terms an operator does not want in names, one per line of --name-blocklist. A name is
// blocked when, read through look-alikes (UTS #39 skeletons, and 0→o, 1 and l→i, 3→e, 4→a,
// 5→s, 7→t, $→s, @→a) with everything but letters and digits dropped, it contains a term
// read the same way: "B4d.W0rd" and "bаdword" (a Cyrillic а) contain "badword".
class NameBlocklist {
 public:
  NameBlocklist() = default;
  // Terms as written by the operator; empty lines and lines starting with # are skipped.
  explicit NameBlocklist(const std::vector<std::string>& lines);
  // Whether name holds a blocked term.
  bool blocks(std::string_view name) const;
  std::size_t size() const { return terms_.size(); }

 private:
  std::vector<std::u32string> terms_;  // read as above
};

// What an operator refuses beyond the rules, for names players choose.
struct NamePolicy {
  ReservedNames reserved;
  NameBlocklist blocklist;
  // Why a player may not take name (reason reserved or blocked); nullopt if they may.
  std::optional<NameProblem> refuses(std::string_view name) const;
};

}  // namespace tilerace::protocol
