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
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/tournament.hpp"
#include "server/game/tournament_members.hpp"
#include "server/play/connection.hpp"
#include "server/store/account_store.hpp"
#include "server/store/game_store.hpp"
#include "server/store/store_worker.hpp"
#include "server/store/tournament_store.hpp"

namespace tilerace::server {

class Tournaments {
 public:
  // grace: how long a match waits for an absent racer (--grace). released, when set (cluster
  // mode), is called (no lock held) with the code of each tournament forgotten here, so the
  // directory frees it.
  // members: who plays in which tournament here (shared with the cluster's directory).
  // per_player_hour: how many tournaments one player may create an hour (0: no limit).
  Tournaments(PlayerRegistry& players, RoomRegistry& rooms, TournamentMembers& members,
              Metrics& metrics, std::chrono::seconds grace, std::int64_t (*wall_clock)(),
              std::function<void(const std::string& code)> released = {}, int per_player_hour = 0);

  // Whether c's player may create one more tournament now (--tournaments-per-player-hour,
  // counted in the store, so on every node sharing it): the creation is noted when so; else
  // c is told (rate_limited, or unavailable when the store cannot say).
  boost::asio::awaitable<bool> may_create(Connection& c, StoreWorker& worker,
                                          const protocol::Rid& rid);
  static constexpr std::chrono::hours kCreationWindow{1};

  // c's player creates one (the caller took the address's room quota) and joins it, under
  // code (cluster mode: claimed beforehand) or a code drawn here when empty.
  void create(Connection& c, const protocol::CreateTournament& m, const protocol::Rid& rid,
              std::string code = {});
  // Whether the tournament of code runs here (else the directory may know where).
  bool hosts(const std::string& code) const { return find(code) != nullptr; }
  void join(Connection& c, const protocol::JoinTournament& m, const protocol::Rid& rid);
  // The player's tournament; a connection that only follows one stops following it.
  void leave(Connection& c, const protocol::Rid& rid);
  void start(Connection& c, const protocol::Rid& rid);
  void spectate(Connection& c, const protocol::SpectateTournament& m, const protocol::Rid& rid);
  // c stops following its tournament (it is closing).
  void stop_following(Connection& c);
  // c's player, a member of a tournament, signed in (it gets the snapshot at once) or closed:
  // everyone sees them connected or not. Signed in, they get what they were to be told
  // (TournamentMembers::tell_later) after it.
  void presence(Connection& c, bool connected);
  // Shutdown: every tournament stops arming its timer.
  void stop();
  // The tournaments the store's journal has open go on here (Tournament::restore), before
  // serving and after the races are restored (their match rooms are watched again). Calls the
  // store directly. Returns how many; one that cannot be rebuilt is logged and left out.
  std::size_t restore(AccountStore& accounts, GameStore& games, TournamentStore& journal);
  // (adopt and restore share this: the records' tournaments, rebuilt and kept here.)
  std::size_t rebuild(const std::vector<TournamentRecord>& records, AccountStore& accounts,
                      GameStore& games);
  // Journals every tournament that changed since it was last journaled; resumes when committed
  // (a failure is logged, and the next pass writes the same again). One the store says another
  // node holds now (cluster mode) is lost here (Tournament::lose).
  boost::asio::awaitable<void> journal(StoreWorker& worker);
  // Cluster mode: the open tournaments of orphan (a dead node, or this node's previous run)
  // go on here, reached at url (Store::adopt_tournaments, then as restore); their codes.
  boost::asio::awaitable<std::vector<std::string>> adopt(std::string orphan, std::string url,
                                                         StoreWorker& worker);
  // The codes of the tournaments here.
  std::vector<std::string> codes() const;

  static constexpr std::chrono::hours kMaxStartsAhead{24 * 7};

 private:
  std::shared_ptr<Tournament> find(const std::string& code) const;
  TournamentServices services();
  void error(Connection& c, protocol::ErrorCode code, std::string_view text,
             const protocol::Rid& rid);

  PlayerRegistry& players_;
  RoomRegistry& rooms_;
  TournamentMembers& members_;
  Metrics& metrics_;
  std::chrono::seconds grace_;
  std::int64_t (*wall_clock_)();
  const std::function<void(const std::string& code)> released_;
  const int per_player_hour_;
  mutable std::mutex mutex_;  // guards what follows
  std::map<std::string, std::shared_ptr<Tournament>, std::less<>> tournaments_;
  bool stopped_ = false;
};

}  // namespace tilerace::server
