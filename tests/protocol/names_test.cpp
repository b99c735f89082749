// Names: what may be one, the key that makes "Alice" and "ＡＬＩＣＥ" the same name, and the
// operator's block list read through look-alikes.
#include "protocol/names.hpp"

#include <gtest/gtest.h>

namespace tilerace::protocol {
namespace {

TEST(Names, OrdinaryNamesInAnyScriptAreNames) {
  for (const char* name : {"alice", "Anna Maria", "Zoë", "李小龙", "Ђорђе", "player_42", "7",
                           "\xE2\xAD\x90\xEF\xB8\x8F star"}) {  // ⭐ + VS16: emoji stay
    EXPECT_EQ(name_problem(name), std::nullopt) << name;
  }
  EXPECT_EQ(trim_name("  bob \t"), "bob");
}

TEST(Names, InvisibleAndDirectionControlCharactersAreRefused) {
  for (const char* name : {"evil\xE2\x80\xAEtxt.exe",  // U+202E RIGHT-TO-LEFT OVERRIDE
                           "ad\xE2\x80\x8Bmin",        // U+200B ZERO WIDTH SPACE
                           "a\xE2\x80\x8D"
                           "b",  // U+200D ZERO WIDTH JOINER
                           "\xE3\x85\xA4"
                           "bob",             // U+3164 HANGUL FILLER, default-ignorable
                           "bob\xC2\xAD"}) {  // U+00AD SOFT HYPHEN
    const auto problem = name_problem(name);
    ASSERT_TRUE(problem) << name;
    EXPECT_NE(problem->find("invisible"), std::string::npos) << *problem;
  }
}

TEST(Names, LengthIsCountedInCodePoints) {
  std::string twenty;
  for (int i = 0; i < 20; ++i) twenty += "\xC3\xA9";  // é, two bytes each
  EXPECT_EQ(name_problem(twenty), std::nullopt);
  const auto problem = name_problem(twenty + "e");
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem, "name must be 1 to 20 characters");
  EXPECT_TRUE(name_problem(""));
}

TEST(Names, ControlUnassignedPrivateUseBrokenUtf8AndNoLetterAreRefused) {
  EXPECT_EQ(name_problem("a\x01"
                         "b"),
            "name must not contain control characters");
  EXPECT_EQ(name_problem("a\xC2\x85"
                         "b"),
            "name must not contain control characters");  // NEL
  EXPECT_EQ(name_problem("\xEE\x80\x80"
                         "x"),  // U+E000, private use
            "name must not contain unassigned or private-use characters");
  EXPECT_EQ(name_problem("\xCD\xB8"
                         "x"),  // U+0378, unassigned
            "name must not contain unassigned or private-use characters");
  EXPECT_EQ(name_problem("bad\xFF"), "name must be valid UTF-8");
  EXPECT_EQ(name_problem("!!!...???"), "name must contain a letter or a digit");
  EXPECT_EQ(name_problem("-_-"), "name must contain a letter or a digit");
}

TEST(Names, CaseWidthAndCompatibilityFormsShareOneKey) {
  EXPECT_EQ(name_key("Alice"), "alice");
  EXPECT_EQ(name_key("ALICE"), "alice");
  EXPECT_EQ(name_key("\xEF\xBC\xA1\xEF\xBD\x8C\xEF\xBD\x89\xEF\xBD\x83\xEF\xBD\x85"),
            "alice");  // ＡＬＩＣＥ in fullwidth forms
  EXPECT_EQ(name_key("Stra\xC3\x9F"
                     "e"),
            "strasse");                                        // ß folds to ss
  EXPECT_EQ(name_key("Zo\xC3\xAB"), name_key("Zoe\xCC\x88"));  // composed or not
  EXPECT_NE(name_key("alice"), name_key("alicia"));
}

TEST(Names, TheBlockListSeesThroughLookAlikesAndSeparators) {
  const NameBlocklist list({"# the operator's list", "", "badword", "  Vile "});
  EXPECT_EQ(list.size(), 2u);
  for (const char* name : {"badword", "BadWordKing", "B4d.W0rd", "b a d w o r d", "8badword8",
                           "ＢＡＤＷＯＲＤ", "vi1e", "V1LE", "$vile$"}) {
    EXPECT_TRUE(list.blocks(name_key(name))) << name;
  }
  for (const char* name : {"goodword", "bad", "violet", "alice"}) {
    EXPECT_FALSE(list.blocks(name_key(name))) << name;
  }
  EXPECT_FALSE(NameBlocklist().blocks(name_key("badword")));
}

}  // namespace
}  // namespace tilerace::protocol
