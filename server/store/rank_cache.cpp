#include "server/store/rank_cache.hpp"

#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <map>
#include <unordered_map>

namespace tilerace::server {

namespace {

namespace pb = __gnu_pbds;

// A place in the tree: the key, then the player, so every entry is unique. The player is the
// key of its by_player node (stable while the node lives); null sorts before every player.
struct Place {
  RankKey key;
  const std::string* player = nullptr;
  bool operator<(const Place& o) const {
    if (key != o.key) return key < o.key;
    if (player == nullptr || o.player == nullptr) return player == nullptr && o.player != nullptr;
    return *player < *o.player;
  }
};

using OrderedPlaces = pb::tree<Place, pb::null_type, std::less<Place>, pb::rb_tree_tag,
                               pb::tree_order_statistics_node_update>;

struct Board {
  OrderedPlaces places;
  std::unordered_map<std::string, RankKey> by_player;  // each player's key
};

// The first place with key: every place before it is strictly better.
Place first_with(RankKey key) { return {key, nullptr}; }

}  // namespace

RankKey entry_key(const BoardId& board, const BoardEntry& e) {
  return board.rating ? rating_key(e.rating) : best_key(board.mode, e.score, e.max_tile, e.moves);
}

void rank_in_order(const BoardId& board, std::vector<BoardEntry>& top) {
  for (std::size_t i = 0; i < top.size(); ++i) {
    const bool tie = i > 0 && entry_key(board, top[i - 1]) == entry_key(board, top[i]);
    top[i].rank = tie ? top[i - 1].rank : static_cast<int>(i) + 1;
  }
}

struct RankCache::Boards {
  std::map<BoardId, Board> boards;
};

RankCache::RankCache() : boards_(std::make_unique<Boards>()) {}
RankCache::~RankCache() = default;

bool RankCache::put_best(const BoardId& id, std::string_view player, RankKey key) {
  std::lock_guard lock(mutex_);
  Board& board = boards_->boards[id];
  auto [it, inserted] = board.by_player.try_emplace(std::string(player), key);
  if (!inserted) {
    if (!(key < it->second)) return false;
    board.places.erase(Place{it->second, &it->first});
    it->second = key;
  }
  board.places.insert(Place{key, &it->first});
  return true;
}

int RankCache::rank(const BoardId& id, std::string_view player, RankKey key) const {
  std::lock_guard lock(mutex_);
  const auto b = boards_->boards.find(id);
  if (b == boards_->boards.end()) return 1;
  const Board& board = b->second;
  auto better = board.places.order_of_key(first_with(key));
  if (const auto own = board.by_player.find(std::string(player));
      own != board.by_player.end() && own->second < key) {
    --better;
  }
  return static_cast<int>(better) + 1;
}

void RankCache::swap(RankCache& other) {
  if (&other == this) return;
  std::scoped_lock lock(mutex_, other.mutex_);
  boards_.swap(other.boards_);
}

std::size_t RankCache::size(const BoardId& id) const {
  std::lock_guard lock(mutex_);
  const auto b = boards_->boards.find(id);
  return b == boards_->boards.end() ? 0 : b->second.places.size();
}

}  // namespace tilerace::server
