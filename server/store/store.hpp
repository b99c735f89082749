#pragma once
// What the server keeps, every domain's surface together: players and accounts, friendships,
// games and races (finished, and the journal of those being played), leaderboards, the daily
// challenge, moderation, operators and tournaments. Each domain has a header of its own
// (server/store/<domain>_store.hpp) with its records and the calls its callers make; a caller
// includes its domain's, and runs its jobs on that surface (StoreWorker::run). Calls block; the
// server makes them only from the StoreWorker's one thread (and, before it serves, from main),
// never from a network thread.
//
// Failures: every call throws (std::exception) when it could not do its work, and then has
// changed nothing (each write is one transaction). The policy for callers, everywhere: never
// send a message announcing something that was not recorded. A caller that gets an exception
// answers the player with error `internal`, leaves the game as it was last recorded (a move
// that would have ended it is taken back; new_game keeps the old game), and a race result is
// retried until it is recorded (its journal entry keeps it across a restart meanwhile).
//
// StoreUnavailable is the one failure worth waiting out: the database could not be reached
// (PostgreSQL went away) and nothing was changed; the same call may succeed later. The
// StoreWorker retries such calls with backoff (bounded) before it gives up.
#include <stdexcept>

#include "server/store/account_store.hpp"
#include "server/store/board_store.hpp"
#include "server/store/daily_store.hpp"
#include "server/store/game_store.hpp"
#include "server/store/moderation_store.hpp"
#include "server/store/operator_store.hpp"
#include "server/store/social_store.hpp"
#include "server/store/tournament_store.hpp"

namespace tilerace::server {

class StoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One implementation (the Recorder) offers every surface; each of its calls is one transaction.
class Store : public AccountStore,
              public SocialStore,
              public GameStore,
              public BoardStore,
              public DailyStore,
              public ModerationStore,
              public OperatorStore,
              public TournamentStore {
 public:
  virtual ~Store() = default;
  // How many calls may run at once (threads of the StoreWorker): 1 unless the store says more.
  virtual int concurrency() const { return 1; }
  // Throws StoreUnavailable when the database cannot be reached right now.
  virtual void ping() {}
};

}  // namespace tilerace::server
