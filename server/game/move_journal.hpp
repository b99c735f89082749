#pragma once
// Where rooms journal their races' moves as they are played, and who fences them. In cluster
// mode the Cluster keeps them in Redis, so that a survivor adopting a dead node's race has
// every move that was acknowledged (server/cluster.hpp), and refuses a move of a race whose
// ownership moved on (a stale copy: docs/operations.md, "Fencing"); a single node has none (its
// store journal and SIGTERM journaling keep races across restarts).
#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

#include "server/rules/race_state.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

class MoveJournal {
 public:
  virtual ~MoveJournal() = default;
  // Journals entry under entry.epoch and resumes once the journal has it: nullopt. The owner
  // instead when the race is another node's under a later epoch (nothing was journaled).
  // Throws when it could not say (Redis away, this node's lease unconfirmed, or an earlier
  // move of the race missed the journal): the store must confirm the move instead.
  // Callable from any thread; resumes on the caller's executor.
  virtual boost::asio::awaitable<std::optional<RaceOwner>> append(MoveJournalEntry entry) = 0;
  // The race is recorded: its journal goes.
  virtual void forget(const std::string& race_id) = 0;
  // Where clients reach this node (the owner a fenced race names).
  virtual std::string url() const = 0;
};

}  // namespace tilerace::server
