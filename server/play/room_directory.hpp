#pragma once
// Where rooms are found and strangers paired: this node alone (LocalDirectory) or every node
// of a cluster through Redis (ClusterDirectory). The dispatcher, quick match's fallback and the
// REST routes ask it without asking which. Callable from any thread; awaitables resume on the
// caller's executor. What needs a cluster that cannot be reached throws.
#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "server/game/matchmaker.hpp"
#include "server/game/player.hpp"
#include "server/game/room.hpp"
#include "server/rules/participant.hpp"

namespace tilerace::server {

// What quick match did for a player.
struct QuickMatchResult {
  // gone: a rematch found the player no longer waiting (paired elsewhere, or out of the queue)
  enum class Outcome { queued, paired, refused, gone } outcome = Outcome::queued;
  std::shared_ptr<Room> room;  // paired: the room seating both, here, to be announced
};

class RoomDirectory {
 public:
  virtual ~RoomDirectory() = default;

  // Whether the directory answers now (a single node's always does).
  virtual bool available() const = 0;
  // Whether this node's lease is confirmed (cluster mode; docs/operations.md, "Fencing"): if
  // not, race moves wait for the store's confirmation. A single node has no lease to lose.
  virtual bool lease_confirmed() const { return true; }
  // A code for a new room of this node: claimed across nodes, or empty (the registry draws
  // one).
  virtual boost::asio::awaitable<std::string> claim_code() = 0;
  // Where a room this node does not host lives: another node's URL, or nullopt when none does.
  virtual boost::asio::awaitable<std::optional<std::string>> locate(std::string code) = 0;
  // The public rooms of the other nodes (encoded lists), as last heard.
  virtual std::vector<std::string> remote_rooms() const = 0;
  // The public URLs of the other nodes, as last heard (none for a single node).
  virtual std::vector<std::string> node_urls() const = 0;

  // Quick match for player, seeking a race in a room with options: paired with the waiting
  // partner closest in rating within reach (server/rules/match_window.hpp; refused when the
  // player turned out busy), or queued.
  virtual boost::asio::awaitable<QuickMatchResult> quick_match(std::shared_ptr<Player> player,
                                                               protocol::RoomOptions options,
                                                               Seeking seeking) = 0;
  // The same for a player waiting already, whose window has grown: paired, queued (still
  // waiting), refused, or gone (not waiting any more).
  virtual boost::asio::awaitable<QuickMatchResult> rematch(std::shared_ptr<Player> player,
                                                           protocol::RoomOptions options) = 0;
  // Takes player out of the quick-match queue; false when they were not in it (a pairing took
  // them, or they never were).
  virtual boost::asio::awaitable<bool> unqueue(std::shared_ptr<Player> player) = 0;
  // The same, done in the background (the player left the queue by doing something else).
  virtual void leave_queue(Player& player) = 0;

  // A player back with their token: if their race — or, between matches, their tournament —
  // runs on another node, `to` is told to go there (redirect, reason resume) as soon as that
  // is known. Runs beside the connection.
  virtual void follow_race(std::weak_ptr<Participant> to, std::shared_ptr<Player> player) = 0;
};

}  // namespace tilerace::server
