#pragma once
// Score boards' ranks in O(log n). Every board's entries sit in an order-statistics tree (GNU
// pb_ds), so a rank is one descent instead of a count over an index (at 1,000,000 results
// SQLite's COUNT took ~148 ms for the last player). The store fills the cache when it opens
// and puts every change it writes; the PostgreSQL store also puts the changes other nodes
// write (LISTEN/NOTIFY). Thread-safe.
//
// put_best() is a join: of two results for one player it keeps the better one, so changes may
// arrive twice and in any order — from the writer itself and from a notification — and the
// cache still ends where the database is.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types.hpp"
#include "protocol/period.hpp"

namespace tilerace::server {

// Which board: a score board is (mode, size, period); a rating board (ranked by its query,
// not held here: who is listed changes with time) is the one with rating = true.
struct BoardId {
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  bool rating = false;
  protocol::Period period;  // all time unless a day's or a week's board
  auto operator<=>(const BoardId&) const = default;
};

// One row of a board as the store keeps it.
struct BoardEntry {
  int rank = 0;  // 1 + the number of strictly better entries: ties share a rank
  std::string player_id;
  std::string name;
  // score boards (fifteen: fewer moves is better)
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  int moves = 0;
  std::string game_id;
  std::int64_t at = 0;  // Unix ms the game ended
  // a rating board: the rating at the time of asking, whole points
  int rating = 0;
  int rd = 0;
  bool provisional = false;
  bool listed = true;  // the board's `me` only: false when the board leaves them out
  int wins = 0;
  int losses = 0;
  bool bot = false;  // a bot account (on the bots' rating board)
};

// An entry's place: smaller is better, compared as a tuple.
struct RankKey {
  std::int64_t a = 0, b = 0, c = 0;
  auto operator<=>(const RankKey&) const = default;
};

// The keys the store uses. 2048 boards: highest score, then highest tile, then fewest moves.
// Fifteen: fewest moves. Rating: highest rating (whole points). A best result only ever
// improves, so a better key is a newer one.
inline RankKey score_key(std::int64_t score, std::int64_t max_tile, std::int64_t moves) {
  return {-score, -max_tile, moves};
}
inline RankKey fifteen_key(std::int64_t moves) { return {moves, 0, 0}; }
inline RankKey rating_key(std::int64_t rating) { return {-rating, 0, 0}; }
// A best result's key on its mode's board.
inline RankKey best_key(engine::Mode mode, std::int64_t score, std::int64_t max_tile,
                        std::int64_t moves) {
  return mode == engine::Mode::fifteen ? fifteen_key(moves) : score_key(score, max_tile, moves);
}
inline constexpr BoardId kRatingBoard{engine::Mode::classic, 0, true, {}};

// An entry's key on board: two entries tie exactly when their keys are equal.
RankKey entry_key(const BoardId& board, const BoardEntry& e);
// Gives each entry of a board's top, in order, its competition rank: an entry tying the one
// before shares its rank.
void rank_in_order(const BoardId& board, std::vector<BoardEntry>& top);

class RankCache {
 public:
  RankCache();
  ~RankCache();
  RankCache(const RankCache&) = delete;
  RankCache& operator=(const RankCache&) = delete;

  // Sets player's entry on board to key if it is better than the one held (or the player has
  // none). Returns whether it changed anything.
  bool put_best(const BoardId& board, std::string_view player, RankKey key);

  // The competition rank of key on board: 1 + the entries strictly better, not counting
  // player's own (which may lag behind the key the caller just read).
  int rank(const BoardId& board, std::string_view player, RankKey key) const;

  // Entries on board.
  std::size_t size(const BoardId& board) const;

  // Takes other's entries, and gives it these (a cache filled afresh replaces this one at
  // once: a moderation action took entries off the boards).
  void swap(RankCache& other);

 private:
  struct Boards;
  mutable std::mutex mutex_;
  std::unique_ptr<Boards> boards_;
};

}  // namespace tilerace::server
