#pragma once
// Where rooms journal their races' moves as they are played. In cluster mode the Cluster
// keeps them in Redis, so that a survivor adopting a dead node's race has every move that was
// acknowledged (server/cluster.hpp); a single node has none (its store journal and SIGTERM
// journaling keep races across restarts).
#include <boost/asio/awaitable.hpp>

#include <string>

#include "server/game/race_state.hpp"

namespace tilerace::server {

class MoveJournal {
 public:
  virtual ~MoveJournal() = default;
  // Journals entry and resumes once the journal has it. Throws when it could not (the move
  // stands, unjournaled). Callable from any thread; resumes on the caller's executor.
  virtual boost::asio::awaitable<void> append(MoveJournalEntry entry) = 0;
  // The race is recorded: its journal goes.
  virtual void forget(const std::string& race_id) = 0;
};

}  // namespace tilerace::server
