#include "protocol/names.hpp"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uset.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#include <unicode/uversion.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "protocol/utf8.hpp"

namespace tilerace::protocol {

namespace {

// Each code point of utf8 in turn to f(cp); a negative cp for an ill-formed sequence.
template <typename F>
void each_code_point(std::string_view utf8, F&& f) {
  const auto* s = reinterpret_cast<const std::uint8_t*>(utf8.data());
  const auto length = static_cast<std::int32_t>(utf8.size());
  for (std::int32_t i = 0; i < length;) {
    UChar32 c = 0;
    U8_NEXT(s, i, length, c);
    f(c);
  }
}

std::u16string to_utf16(std::string_view utf8) {
  std::u16string out(utf8.size(), u'\0');  // never more UTF-16 units than UTF-8 bytes
  std::int32_t length = 0;
  UErrorCode error = U_ZERO_ERROR;
  u_strFromUTF8(out.data(), static_cast<std::int32_t>(out.size()), &length, utf8.data(),
                static_cast<std::int32_t>(utf8.size()), &error);
  if (U_FAILURE(error)) throw std::invalid_argument("not UTF-8");
  out.resize(static_cast<std::size_t>(length));
  return out;
}

std::string to_utf8(const std::u16string& utf16) {
  std::string out(utf16.size() * 3, '\0');
  std::int32_t length = 0;
  UErrorCode error = U_ZERO_ERROR;
  u_strToUTF8(out.data(), static_cast<std::int32_t>(out.size()), &length, utf16.data(),
              static_cast<std::int32_t>(utf16.size()), &error);
  if (U_FAILURE(error)) throw std::invalid_argument("not UTF-16");
  out.resize(static_cast<std::size_t>(length));
  return out;
}

// What an ICU call writing UTF-16 into a buffer makes of in: call(in, in_length, out,
// capacity, &error) returns the length it needs, and is called again with that much room when
// the first guess was short. what names it in the error thrown on a failure.
template <typename Call>
std::u16string from_icu(const std::u16string& in, const char* what, Call&& call) {
  std::u16string out(in.size() * 4 + 16, u'\0');
  for (;;) {
    UErrorCode error = U_ZERO_ERROR;
    const std::int32_t length = call(in.data(), static_cast<std::int32_t>(in.size()), out.data(),
                                     static_cast<std::int32_t>(out.size()), &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) {
      out.resize(static_cast<std::size_t>(length));
      continue;
    }
    if (U_FAILURE(error)) throw std::runtime_error(std::string("ICU: ") + what);
    out.resize(static_cast<std::size_t>(length));
    return out;
  }
}

// in normalized by normalizer.
std::u16string normalize(const UNormalizer2* normalizer, const std::u16string& in) {
  return from_icu(in, "normalization failed",
                  [normalizer](auto... args) { return unorm2_normalize(normalizer, args...); });
}

const UNormalizer2* normalizer(const UNormalizer2* (*get)(UErrorCode*)) {
  UErrorCode error = U_ZERO_ERROR;
  const UNormalizer2* n = get(&error);
  if (U_FAILURE(error)) throw std::runtime_error("ICU: no normalizer");
  return n;
}

std::u16string fold(const std::u16string& s) {
  static const UNormalizer2* const nfkc_cf = normalizer(unorm2_getNFKCCasefoldInstance);
  return normalize(nfkc_cf, s);
}

// ICU's spoof checking, configured once (its checks are thread-safe from then on): the
// Moderately Restrictive level, UTS #39 skeletons, and the recommended identifier set.
struct Spoof {
  Spoof() {
    UErrorCode error = U_ZERO_ERROR;
    checker = uspoof_open(&error);
    uspoof_setChecks(checker, USPOOF_RESTRICTION_LEVEL, &error);
    uspoof_setRestrictionLevel(checker, USPOOF_MODERATELY_RESTRICTIVE);
    recommended = uspoof_getRecommendedSet(&error);
    if (U_FAILURE(error)) throw std::runtime_error("ICU: no spoof checker");
  }
  ~Spoof() { uspoof_close(checker); }
  Spoof(const Spoof&) = delete;
  Spoof& operator=(const Spoof&) = delete;

  std::u16string skeleton(const std::u16string& s) const {
    return from_icu(s, "no skeleton",
                    [this](auto... args) { return uspoof_getSkeleton(checker, 0, args...); });
  }

  USpoofChecker* checker = nullptr;
  const USet* recommended = nullptr;
};

const Spoof& spoof() {
  static const Spoof instance;
  return instance;
}

// s in NFD without the combining dot above an i or a j keeps (ICU's skeletons keep the one
// İ leaves on an i): "ALİCE" reads as "ALICE".
std::u16string without_dot_above(const std::u16string& s) {
  static const UNormalizer2* const nfd = normalizer(unorm2_getNFDInstance);
  const std::u16string decomposed = normalize(nfd, s);
  std::u16string out;
  for (const char16_t c : decomposed) {
    const bool dot =
        c == u'\u0307' && !out.empty() &&
        (out.back() == u'i' || out.back() == u'j' || out.back() == u'I' || out.back() == u'J');
    if (!dot) out.push_back(c);
  }
  return out;
}

// Look-alikes read as the letters they stand for; nullopt drops the code point.
std::optional<char32_t> read_as_letter(char32_t c) {
  switch (c) {
    case U'0': return U'o';
    case U'1':
    case U'l': return U'i';
    case U'3': return U'e';
    case U'4':
    case U'@': return U'a';
    case U'5':
    case U'$': return U's';
    case U'7': return U't';
    default: break;
  }
  if (u_isalnum(static_cast<UChar32>(c))) return c;
  return std::nullopt;
}

// name as the block list and the reserved names read it: folded, its skeleton folded again,
// look-alikes read as letters and all but letters and digits dropped.
std::u32string blockable(std::string_view name) {
  const std::string read = to_utf8(fold(spoof().skeleton(fold(without_dot_above(to_utf16(name))))));
  std::u32string out;
  each_code_point(read, [&](UChar32 c) {
    if (c < 0) return;
    if (const auto letter = read_as_letter(static_cast<char32_t>(c))) out.push_back(*letter);
  });
  return out;
}

bool utf8_valid(std::string_view s) {
  Utf8Validator v;
  return v.feed(s) && v.complete();
}

// Blanks that are not White_Space but show as nothing.
bool blank(UChar32 c) {
  return c == 0x2800 || c == 0x3164 || c == 0x115F || c == 0x1160 || c == 0xFFA0;
}

}  // namespace

std::string_view to_string(NameReason reason) {
  switch (reason) {
    case NameReason::length: return "length";
    case NameReason::character: return "character";
    case NameReason::script_mix: return "script_mix";
    case NameReason::reserved: return "reserved";
    case NameReason::blocked: return "blocked";
  }
  return "character";
}

bool visible_text(std::string_view text) {
  if (!utf8_valid(text)) return false;
  bool visible = true;
  each_code_point(text, [&](UChar32 c) {
    switch (u_charType(c)) {
      case U_CONTROL_CHAR:
      case U_FORMAT_CHAR:
      case U_UNASSIGNED:
      case U_PRIVATE_USE_CHAR:
      case U_SURROGATE: visible = false; return;
      default: break;
    }
    if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) &&
        !u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR)) {
      visible = false;
    }
  });
  return visible;
}

ProtocolError name_error(const NameProblem& problem) {
  return {ErrorCode::bad_field, problem.message, "name", 0, std::string(to_string(problem.reason))};
}

std::string trim_name(std::string_view name) {
  const auto first = name.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = name.find_last_not_of(" \t\r\n");
  return std::string(name.substr(first, last - first + 1));
}

std::optional<NameProblem> name_problem(std::string_view name) {
  const auto refuse = [](NameReason reason, const char* message) {
    return std::optional<NameProblem>(NameProblem{reason, message});
  };
  int chars = 0;
  bool ill_formed = false, control = false, invisible = false, unassigned = false, blanks = false;
  UChar32 previous = 0;
  each_code_point(name, [&](UChar32 c) {
    ++chars;
    const UChar32 before = std::exchange(previous, c);
    if (c < 0) {
      ill_formed = true;
      return;
    }
    switch (u_charType(c)) {
      case U_CONTROL_CHAR: control = true; return;
      case U_FORMAT_CHAR: invisible = true; return;
      case U_UNASSIGNED:
      case U_PRIVATE_USE_CHAR:
      case U_SURROGATE: unassigned = true; return;
      default: break;
    }
    if (c == U' ') {
      if (before == U' ') blanks = true;  // one space between words
    } else if (u_isUWhiteSpace(c) || blank(c)) {
      blanks = true;
    } else if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) &&
               !u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR)) {
      invisible = true;
    }
  });
  if (ill_formed) return refuse(NameReason::character, "name must be valid UTF-8");
  if (chars < 1 || chars > kMaxNameChars) {
    return refuse(NameReason::length, "name must be 1 to 20 characters");
  }
  if (control) return refuse(NameReason::character, "name must not contain control characters");
  if (blanks) {
    return refuse(NameReason::character,
                  "name must not contain blank characters other than one space between words");
  }
  if (invisible) {
    return refuse(NameReason::character,
                  "name must not contain invisible characters (bidi controls, zero-width or "
                  "filler characters)");
  }
  if (unassigned) {
    return refuse(NameReason::character,
                  "name must not contain unassigned or private-use characters");
  }
  // What it reads as (NFKC): "ａｌｉｃｅ" is "alice", and is compared as such.
  static const UNormalizer2* const nfkc = normalizer(unorm2_getNFKCInstance);
  bool allowed = true, letter_or_digit = false;
  each_code_point(to_utf8(normalize(nfkc, to_utf16(name))), [&](UChar32 c) {
    if (u_isalnum(c)) letter_or_digit = true;
    if (c == U' ' || c == U'-' || c == U'.' || c == U'_') return;
    if (!uset_contains(spoof().recommended, c)) allowed = false;
  });
  if (!allowed) {
    return refuse(NameReason::character,
                  "name may hold letters and digits, a space between words, - _ and . only");
  }
  if (!letter_or_digit)
    return refuse(NameReason::character, "name must contain a letter or a digit");
  UErrorCode error = U_ZERO_ERROR;
  const std::int32_t failed = uspoof_checkUTF8(
      spoof().checker, name.data(), static_cast<std::int32_t>(name.size()), nullptr, &error);
  if (U_FAILURE(error) || (failed & USPOOF_RESTRICTION_LEVEL) != 0) {
    return refuse(NameReason::script_mix,
                  "name must not mix scripts (Latin with Cyrillic or Greek, say)");
  }
  return std::nullopt;
}

NameKeys name_keys(std::string_view name) {
  const std::u16string plain = without_dot_above(to_utf16(name));
  return {to_utf8(spoof().skeleton(fold(plain))), to_utf8(fold(spoof().skeleton(plain)))};
}

std::string name_key(std::string_view name) { return name_keys(name).key; }

std::string name_keys_version() {
  UVersionInfo version;
  u_getVersion(version);
  char text[U_MAX_VERSION_STRING_LENGTH];
  u_versionToString(version, text);
  return std::string("icu ") + text + ", keys 2";
}

namespace {

// An operator's list, one entry a line (empty lines and # comments skipped), each read as
// blockable() reads.
std::vector<std::u32string> read_list(const std::vector<std::string>& lines) {
  std::vector<std::u32string> out;
  for (const std::string& line : lines) {
    const std::string entry = trim_name(line);
    if (entry.empty() || entry.front() == '#' || !utf8_valid(entry)) continue;
    std::u32string read = blockable(entry);
    if (!read.empty()) out.push_back(std::move(read));
  }
  return out;
}

}  // namespace

ReservedNames::ReservedNames(const std::vector<std::string>& lines) {
  std::vector<std::string> all{"admin",    "administrator", "operator", "moderator", "mod",
                               "server",   "system",        "support",  "root",      "tilerace",
                               "computer", "bot",           "guest"};
  all.insert(all.end(), lines.begin(), lines.end());
  names_ = read_list(all);
}

bool ReservedNames::reserves(std::string_view name) const {
  const std::u32string read = blockable(name);
  return std::find(names_.begin(), names_.end(), read) != names_.end();
}

NameBlocklist::NameBlocklist(const std::vector<std::string>& lines) : terms_(read_list(lines)) {}

bool NameBlocklist::blocks(std::string_view name) const {
  if (terms_.empty()) return false;
  const std::u32string read = blockable(name);
  for (const std::u32string& term : terms_) {
    if (read.find(term) != std::u32string::npos) return true;
  }
  return false;
}

std::optional<NameProblem> NamePolicy::refuses(std::string_view name) const {
  if (reserved.reserves(name)) {
    return NameProblem{NameReason::reserved, "this name is reserved: pick another"};
  }
  if (blocklist.blocks(name)) {
    return NameProblem{NameReason::blocked, "this name is not allowed here: pick another"};
  }
  return std::nullopt;
}

}  // namespace tilerace::protocol
