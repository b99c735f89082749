#pragma once
// Tournaments by code (docs/protocol.md, "Tournaments"): the routes of the tournament messages
// and the tournaments of this node. A player is in one tournament at a time
// (Player::tournament); a connection follows at most one as a spectator
// (Connection::following). A tournament is forgotten a while after it is over
// (Tournament::kKeptWhenOver). Each is journaled (journal: the journal loop's pass, before the
// races') and goes on after a restart (restore).
//
// Threading: callable from any thread; the lock (a leaf) guards the map only.
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/tournament.hpp"
#include "server/play/connection.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class Tournaments {
 public:
  // grace: how long a match waits for an absent racer (--grace).
  Tournaments(PlayerRegistry& players, RoomRegistry& rooms, Metrics& metrics,
              std::chrono::seconds grace, std::int64_t (*wall_clock)());

  // c's player creates one (the caller took the address's room quota) and joins it.
  void create(Connection& c, const protocol::CreateTournament& m, const protocol::Rid& rid);
  void join(Connection& c, const protocol::JoinTournament& m, const protocol::Rid& rid);
  // The player's tournament; a connection that only follows one stops following it.
  void leave(Connection& c, const protocol::Rid& rid);
  void start(Connection& c, const protocol::Rid& rid);
  void spectate(Connection& c, const protocol::SpectateTournament& m, const protocol::Rid& rid);
  // c stops following its tournament (it is closing).
  void stop_following(Connection& c);
  // c's player, a member of a tournament, signed in (it gets the snapshot at once) or closed:
  // everyone sees them connected or not.
  void presence(Connection& c, bool connected);
  // Shutdown: every tournament stops arming its timer.
  void stop();
  // The tournaments the store's journal has open go on here (Tournament::restore), before
  // serving and after the races are restored (their match rooms are watched again). Calls the
  // store directly. Returns how many; one that cannot be rebuilt is logged and left out.
  std::size_t restore(Store& store);
  // Journals every tournament that changed since it was last journaled; resumes when committed
  // (a failure is logged, and the next pass writes the same again).
  boost::asio::awaitable<void> journal(StoreWorker& worker);

  static constexpr std::chrono::hours kMaxStartsAhead{24 * 7};

 private:
  std::shared_ptr<Tournament> find(const std::string& code) const;
  TournamentServices services();
  void error(Connection& c, protocol::ErrorCode code, std::string_view text,
             const protocol::Rid& rid);

  PlayerRegistry& players_;
  RoomRegistry& rooms_;
  Metrics& metrics_;
  std::chrono::seconds grace_;
  std::int64_t (*wall_clock_)();
  mutable std::mutex mutex_;  // guards what follows
  std::map<std::string, std::shared_ptr<Tournament>, std::less<>> tournaments_;
  bool stopped_ = false;
};

}  // namespace tilerace::server
