#include "protocol/names.hpp"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include <stdexcept>

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

// key with look-alikes read as letters and all but letters and digits dropped.
std::u32string skeleton(std::string_view key) {
  std::u32string out;
  each_code_point(key, [&](UChar32 c) {
    if (c < 0) return;
    if (const auto letter = read_as_letter(static_cast<char32_t>(c))) out.push_back(*letter);
  });
  return out;
}

}  // namespace

std::string trim_name(std::string_view name) {
  const auto first = name.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = name.find_last_not_of(" \t\r\n");
  return std::string(name.substr(first, last - first + 1));
}

std::optional<std::string> name_problem(std::string_view name) {
  int chars = 0;
  bool ill_formed = false, letter_or_digit = false, control = false, invisible = false,
       unassigned = false;
  each_code_point(name, [&](UChar32 c) {
    ++chars;
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
    if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) &&
        !u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR)) {
      invisible = true;
    }
    if (u_isalnum(c)) letter_or_digit = true;
  });
  if (ill_formed) return "name must be valid UTF-8";
  if (chars < 1 || chars > kMaxNameChars) return "name must be 1 to 20 characters";
  if (control) return "name must not contain control characters";
  if (invisible) {
    return "name must not contain invisible characters (bidi controls, zero-width or filler "
           "characters)";
  }
  if (unassigned) return "name must not contain unassigned or private-use characters";
  if (!letter_or_digit) return "name must contain a letter or a digit";
  return std::nullopt;
}

std::string name_key(std::string_view name) {
  UErrorCode error = U_ZERO_ERROR;
  const UNormalizer2* nfkc_cf = unorm2_getNFKCCasefoldInstance(&error);
  if (U_FAILURE(error)) throw std::runtime_error("ICU: no NFKC_Casefold normalizer");
  const std::u16string in = to_utf16(name);
  std::u16string out(in.size() * 4 + 16, u'\0');
  for (;;) {
    error = U_ZERO_ERROR;
    const std::int32_t length =
        unorm2_normalize(nfkc_cf, in.data(), static_cast<std::int32_t>(in.size()), out.data(),
                         static_cast<std::int32_t>(out.size()), &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) {
      out.resize(static_cast<std::size_t>(length));
      continue;
    }
    if (U_FAILURE(error)) throw std::runtime_error("ICU: normalization failed");
    out.resize(static_cast<std::size_t>(length));
    return to_utf8(out);
  }
}

NameBlocklist::NameBlocklist(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    const std::string term = trim_name(line);
    if (term.empty() || term.front() == '#' || name_problem(term)) continue;
    std::u32string read = skeleton(name_key(term));
    if (!read.empty()) terms_.push_back(std::move(read));
  }
}

bool NameBlocklist::blocks(std::string_view key) const {
  if (terms_.empty()) return false;
  const std::u32string read = skeleton(key);
  for (const std::u32string& term : terms_) {
    if (read.find(term) != std::u32string::npos) return true;
  }
  return false;
}

}  // namespace tilerace::protocol
