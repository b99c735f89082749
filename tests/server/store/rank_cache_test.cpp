#include "server/store/rank_cache.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace tilerace::server {
namespace {

constexpr BoardId kClassic4{engine::Mode::classic, 4, false, {}};

TEST(RankCache, RanksCountStrictlyBetterEntriesSoTiesShareARank) {
  RankCache cache;
  cache.put_best(kClassic4, "a", score_key(900, 128, 120));
  cache.put_best(kClassic4, "b", score_key(900, 128, 110));
  cache.put_best(kClassic4, "c", score_key(900, 128, 120));
  cache.put_best(kClassic4, "d", score_key(100, 16, 40));
  EXPECT_EQ(cache.rank(kClassic4, "b", score_key(900, 128, 110)), 1);
  EXPECT_EQ(cache.rank(kClassic4, "a", score_key(900, 128, 120)), 2);
  EXPECT_EQ(cache.rank(kClassic4, "c", score_key(900, 128, 120)), 2);
  EXPECT_EQ(cache.rank(kClassic4, "d", score_key(100, 16, 40)), 4);
  EXPECT_EQ(cache.rank({engine::Mode::classic, 5, false, {}}, "d", score_key(1, 2, 3)), 1);
  EXPECT_EQ(cache.size(kClassic4), 4u);
}

TEST(RankCache, ABestResultOnlyImprovesWhateverOrderItArrivesIn) {
  RankCache cache;
  EXPECT_TRUE(cache.put_best(kClassic4, "a", score_key(500, 64, 90)));
  EXPECT_TRUE(cache.put_best(kClassic4, "a", score_key(900, 128, 120)));
  EXPECT_FALSE(cache.put_best(kClassic4, "a", score_key(700, 128, 100)));  // late, worse
  EXPECT_FALSE(cache.put_best(kClassic4, "a", score_key(900, 128, 120)));  // the same twice
  cache.put_best(kClassic4, "b", score_key(800, 128, 100));
  EXPECT_EQ(cache.size(kClassic4), 2u);
  EXPECT_EQ(cache.rank(kClassic4, "b", score_key(800, 128, 100)), 2);
}

TEST(RankCache, AgreesWithCountingOnRandomBoards) {
  std::mt19937_64 random(7);
  RankCache cache;
  std::map<std::string, RankKey> best;
  for (int i = 0; i < 20000; ++i) {
    std::string player = "p";  // appended: GCC 12 bug 105651 warns on "p" + …
    player += std::to_string(random() % 3000);
    const RankKey key =
        score_key(static_cast<std::int64_t>(random() % 50), static_cast<std::int64_t>(random() % 4),
                  static_cast<std::int64_t>(random() % 5));
    cache.put_best(kClassic4, player, key);
    auto [it, inserted] = best.try_emplace(player, key);
    if (!inserted && key < it->second) it->second = key;
  }
  ASSERT_EQ(cache.size(kClassic4), best.size());
  for (const auto& [player, key] : best) {
    int better = 0;
    for (const auto& [other, k] : best) better += k < key ? 1 : 0;
    ASSERT_EQ(cache.rank(kClassic4, player, key), better + 1) << player;
  }
}

}  // namespace
}  // namespace tilerace::server
