// Names: what may be one (and why not, as a reason), the keys that make look-alikes one
// name, the reserved names and the operator's block list read through look-alikes.
#include "protocol/names.hpp"

#include <gtest/gtest.h>

namespace tilerace::protocol {
namespace {

// The reason name is refused for, or "" when it is a name.
std::string refused(std::string_view name) {
  const auto problem = name_problem(name);
  return problem ? std::string(to_string(problem->reason)) : "";
}

// Whether a and b are one name (either key the same).
bool same_name(std::string_view a, std::string_view b) {
  const NameKeys x = name_keys(a), y = name_keys(b);
  return x.key == y.key || x.look == y.look;
}

TEST(Names, OrdinaryNamesInOneScriptOrAnAllowedMixAreNames) {
  for (const char* name :
       {"alice", "Anna Maria", "Zo\xC3\xAB", "\xE6\x9D\x8E\xE5\xB0\x8F\xE9\xBE\x99",
        "\xD0\x82\xD0\xBE\xD1\x80\xD1\x92\xD0\xB5",  // Ђорђе, all Cyrillic
        "player_42", "7", "j.doe", "anne-marie",
        "AL\xC4\xB0"
        "CE",
        "abc\xE6\x9D\x8E",             // Latin + Han
        "ab\xE3\x81\x82\xE6\x9D\x8E",  // Latin + Hiragana + Han
        "abc\xED\x95\x9C"}) {          // Latin + Hangul
    EXPECT_EQ(refused(name), "") << name;
  }
  EXPECT_EQ(trim_name("  bob \t"), "bob");
}

TEST(Names, LatinWithCyrillicOrGreekIsAScriptMix) {
  for (const char* name : {"\xD0\xB0lice",   // а (Cyrillic) + lice
                           "p\xD0\xB0ypal",  // p а ypal
                           "ab\xCE\xB1"}) {  // ab + α
    EXPECT_EQ(refused(name), "script_mix") << name;
  }
}

TEST(Names, EveryBlankButOneInnerSpaceIsRefused) {
  for (const char* name : {"alice\xE3\x80\x80",  // U+3000 IDEOGRAPHIC SPACE
                           "\xC2\xA0"
                           "alice",              // U+00A0 NO-BREAK SPACE
                           "alice\xE2\xA0\x80",  // U+2800 BRAILLE PATTERN BLANK
                           "\xE2\xA0\x80"
                           "alice",
                           "alice\xE1\x9A\x80",  // U+1680 OGHAM SPACE MARK
                           "ali\xE2\x80\xA8"
                           "ce",  // U+2028 LINE SEPARATOR
                           "ali\xE2\x80\xA9"
                           "ce",  // U+2029 PARAGRAPH SEPARATOR
                           "\xE3\x85\xA4"
                           "bob",  // U+3164 HANGUL FILLER
                           "\xE1\x85\x9F"
                           "bob",  // U+115F
                           "\xE1\x85\xA0"
                           "bob",  // U+1160
                           "\xEF\xBE\xA0"
                           "bob",      // U+FFA0
                           "a  b"}) {  // two spaces
    const auto problem = name_problem(name);
    ASSERT_TRUE(problem) << name;
    EXPECT_EQ(problem->reason, NameReason::character) << name;
    EXPECT_NE(problem->message.find("blank"), std::string::npos) << problem->message;
  }
}

TEST(Names, InvisibleAndDirectionControlCharactersAreRefused) {
  for (const char* name : {"evil\xE2\x80\xAEtxt.exe",  // U+202E RIGHT-TO-LEFT OVERRIDE
                           "ad\xE2\x80\x8Bmin",        // U+200B ZERO WIDTH SPACE
                           "a\xE2\x80\x8D"
                           "b",               // U+200D ZERO WIDTH JOINER
                           "bob\xC2\xAD"}) {  // U+00AD SOFT HYPHEN
    const auto problem = name_problem(name);
    ASSERT_TRUE(problem) << name;
    EXPECT_EQ(problem->reason, NameReason::character);
    EXPECT_NE(problem->message.find("invisible"), std::string::npos) << problem->message;
  }
}

TEST(Names, OnlyIdentifierCharactersAndSpaceDashUnderscoreDot) {
  for (const char* name : {"\xE2\xAD\x90\xEF\xB8\x8F star",  // ⭐ + VS16
                           "a(b)", "a+b", "bob!", "a/b"}) {
    EXPECT_EQ(refused(name), "character") << name;
  }
  EXPECT_EQ(refused("!!!...???"), "character");
  EXPECT_EQ(refused("-_-"), "character");  // no letter or digit
  EXPECT_EQ(name_problem("-_-")->message, "name must contain a letter or a digit");
}

TEST(Names, LengthIsCountedInCodePoints) {
  std::string twenty;
  for (int i = 0; i < 20; ++i) twenty += "\xC3\xA9";  // é, two bytes each
  EXPECT_EQ(refused(twenty), "");
  const auto problem = name_problem(twenty + "e");
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->reason, NameReason::length);
  EXPECT_EQ(problem->message, "name must be 1 to 20 characters");
  EXPECT_EQ(refused(""), "length");
}

TEST(Names, ControlUnassignedPrivateUseAndBrokenUtf8AreRefused) {
  EXPECT_EQ(name_problem("a\x01"
                         "b")
                ->message,
            "name must not contain control characters");
  EXPECT_EQ(name_problem("a\xC2\x85"
                         "b")
                ->message,
            "name must not contain control characters");  // NEL
  EXPECT_EQ(name_problem("\xEE\x80\x80"
                         "x")
                ->message,  // U+E000, private use
            "name must not contain unassigned or private-use characters");
  EXPECT_EQ(name_problem("\xCD\xB8"
                         "x")
                ->message,  // U+0378, unassigned
            "name must not contain unassigned or private-use characters");
  EXPECT_EQ(name_problem("bad\xFF")->message, "name must be valid UTF-8");
  EXPECT_EQ(refused("bad\xFF"), "character");
}

TEST(Names, LookAlikesShareAKeyWithTheNameTheyImitate) {
  for (const char* fake :
       {"\xD0\xB0lice",  // Cyrillic а
        "aIice",         // capital I for l
        "AL\xC4\xB0"
        "CE",  // İ
        "ALICE", "Alice",
        "\xEF\xBD\x81\xEF\xBD\x8C\xEF\xBD\x89\xEF\xBD\x83\xEF\xBD\x85",  // ａｌｉｃｅ
        "\xF0\x9D\x90\x9A\xF0\x9D\x90\xA5\xF0\x9D\x90\xA2\xF0\x9D\x90\x9C"
        "\xF0\x9D\x90\x9E"}) {  // 𝐚𝐥𝐢𝐜𝐞, mathematical bold
    EXPECT_TRUE(same_name(fake, "alice")) << fake;
  }
  EXPECT_TRUE(same_name("\xD1\x80\xD0\xB0\xD1\x83\xD1\x80\xD0\xB0l", "paypal"));  // раураl
  EXPECT_EQ(name_keys("ALICE").key, name_keys("alice").key);    // case alone: the first key
  EXPECT_EQ(name_keys("aIice").look, name_keys("alice").look);  // a look-alike: the second
  EXPECT_EQ(name_keys("Stra\xC3\x9F"
                      "e")
                .key,
            name_keys("strasse").key);                           // ß folds to ss
  EXPECT_EQ(name_keys("Zo\xC3\xAB"), name_keys("Zoe\xCC\x88"));  // composed or not
  for (const char* other : {"alicia", "alce", "bob"}) EXPECT_FALSE(same_name(other, "alice"));
  EXPECT_EQ(name_key("Alice"), name_keys("Alice").key);
  EXPECT_EQ(name_keys_version().rfind("icu ", 0), 0u);
}

TEST(Names, ReservedNamesAreReadThroughLookAlikes) {
  const ReservedNames reserved({"# the operator's", "", "staff"});
  for (const char* name :
       {"admin", "ADMIN", "Adm1n",
        "\xD0\xB0"
        "dmin",
        "Moderator", "B0T", "guest", "TileRace", "support", "root", "staff", "ST4FF"}) {
    EXPECT_TRUE(reserved.reserves(name)) << name;
  }
  for (const char* name : {"admiral", "botany", "alice", "guests2", "staffer"}) {
    EXPECT_FALSE(reserved.reserves(name)) << name;
  }
}

TEST(Names, TheBlockListSeesThroughLookAlikesSeparatorsAndScripts) {
  const NameBlocklist list({"# the operator's list", "", "badword", "  Vile "});
  EXPECT_EQ(list.size(), 2u);
  for (const char* name : {"badword", "BadWordKing", "B4d.W0rd", "b a d w o r d", "8badword8",
                           "ＢＡＤＷＯＲＤ", "vi1e", "V1LE", "$vile$",
                           "b\xD0\xB0"
                           "dword"}) {  // a Cyrillic а
    EXPECT_TRUE(list.blocks(name)) << name;
  }
  for (const char* name : {"goodword", "bad", "violet", "alice"}) {
    EXPECT_FALSE(list.blocks(name)) << name;
  }
  EXPECT_FALSE(NameBlocklist().blocks("badword"));
}

TEST(Names, ThePolicySaysWhichRuleRefusedAName) {
  const NamePolicy policy{ReservedNames(), NameBlocklist({"badword"})};
  EXPECT_EQ(policy.refuses("Admin")->reason, NameReason::reserved);
  EXPECT_EQ(policy.refuses("b4dw0rd")->reason, NameReason::blocked);
  EXPECT_FALSE(policy.refuses("alice").has_value());
}

}  // namespace
}  // namespace tilerace::protocol
