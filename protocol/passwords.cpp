#include "protocol/passwords.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "protocol/messages.hpp"
#include "protocol/utf8.hpp"

namespace tilerace::protocol {

namespace {

// The most common passwords of eight characters or more in the public breach lists
// (SecLists' top 10,000), and this game's own name; shorter ones fail on length already.
constexpr std::array<std::string_view, 64> kCommon{
    "password",  "12345678",     "123456789",  "1234567890", "qwertyuiop", "iloveyou",
    "password1", "11111111",     "00000000",   "princess",   "football",   "baseball",
    "welcome1",  "abc12345",     "qwerty123",  "1q2w3e4r",   "1qaz2wsx",   "zaq12wsx",
    "passw0rd",  "superman",     "12341234",   "87654321",   "trustno1",   "whatever",
    "starwars",  "letmein1",     "computer",   "michelle",   "jennifer",   "liverpool",
    "chocolate", "password123",  "123123123",  "987654321",  "123qweasd",  "asdfghjkl",
    "1234qwer",  "qwertyui",     "12344321",   "147258369",  "123654789",  "88888888",
    "55555555",  "66666666",     "99999999",   "22222222",   "12121212",   "aaaaaaaa",
    "iloveyou1", "sunshine",     "football1",  "charlie1",   "q1w2e3r4",   "1234abcd",
    "qwerty12",  "asdf1234",     "letmein123", "welcome123", "admin123",   "administrator",
    "tilerace",  "tilerace2048", "2048game",   "20482048"};

}  // namespace

std::optional<std::string> password_problem(std::string_view password) {
  const int chars = count_chars(password);
  if (chars < kMinPasswordChars || chars > kMaxPasswordChars) {
    return "password must be 8 to 128 characters";
  }
  std::string lower(password);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (std::find(kCommon.begin(), kCommon.end(), lower) != kCommon.end()) {
    return "this password is one of the most common: pick another";
  }
  return std::nullopt;
}

}  // namespace tilerace::protocol
