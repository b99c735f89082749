#pragma once
// Moderation (docs/operations.md, "Moderation"): what the operator's API does — bans and
// unbans, forced renames, password resets, games off the boards, rooms closed, reports
// resolved, each in the store's audit log — and players' reports. A ban closes the player's
// connection (4003) here and, through the PlayerReach, on every other node; the store stays the
// authority: a sweep every kSweepEvery lifts bans whose time is over and closes any connection
// here of a banned player (a node that missed the message still honours the ban). The same
// sweep works out the signals of computer-assisted play of up to kAnalysedPerSweep recorded
// ranked games that have none yet, on a thread of its own (server/rules/assist_signals.hpp).
//
// Threading: callable from any thread; awaitables resume on the caller's executor. The lock
// (a leaf) guards only the reporters' recent reports.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "protocol/moderation.hpp"
#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/play/connection.hpp"
#include "server/play/operator_actor.hpp"
#include "server/play/player_reach.hpp"
#include "server/play/room_directory.hpp"
#include "server/rules/assist_signals.hpp"
#include "server/store/game_store.hpp"
#include "server/store/moderation_store.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

// The audit entry of actor's doing to target (target_name: the player's or operator's name now,
// if any), stamped now.
AuditEntry audit_entry(const Actor& actor, std::string action, std::string target,
                       std::string target_name, std::string reason, std::string detail = {});

// An operator API answer: its HTTP status and JSON body.
struct AdminAnswer {
  int status = 200;
  std::string body;
};

class Moderation {
 public:
  static constexpr std::chrono::seconds kSweepEvery{1};
  static constexpr int kReportsPerMinute = 5;
  static constexpr std::int64_t kResetCodeMs = 24 * 60 * 60 * 1000;  // a reset's link code
  static constexpr std::uint16_t kBannedClose = 4003;
  static constexpr int kAnalysedPerSweep = 4;

  // reach: null on a single node.
  Moderation(PlayerRegistry& players, RoomRegistry& rooms, RoomDirectory& directory,
             StoreWorker& store, Metrics& metrics, PlayerReach* reach);

  // Starts the sweep on executor; stop() ends it (shutdown).
  void start(boost::asio::any_io_executor executor);
  void stop();

  // A player's report: `reported`, or rate_limited (more than kReportsPerMinute a minute, or
  // that player reported today already), no_such_player, not_allowed (oneself).
  boost::asio::awaitable<void> report(Connection& c, const protocol::Report& m,
                                      const protocol::Rid& rid);

  // actor's action, carried out and audited in their name.
  boost::asio::awaitable<AdminAnswer> act(Actor actor, protocol::AdminAction action);
  // The operator's reads: players matching query, one player in full, the audit log, reports.
  boost::asio::awaitable<AdminAnswer> search(std::string query);
  boost::asio::awaitable<AdminAnswer> player(std::string id);
  boost::asio::awaitable<AdminAnswer> audit(std::int64_t before, int limit);
  boost::asio::awaitable<AdminAnswer> reports(bool open_only);
  boost::asio::awaitable<AdminAnswer> suspicion(int limit);

  // A moderation message from another node (PlayerReach::moderate): "close", "rename" or
  // "unregister" for a player connected here, or "close_room" for a room here.
  void apply_here(const std::string& kind, const std::string& target, const std::string& text);

 private:
  boost::asio::awaitable<void> sweep();
  // Closes player_id's connection here, if there is one, telling them the ban as the store
  // holds it: reason and until (an operator's ban here or on another node, and the sweep,
  // all say the same). Nothing when the ban was lifted meanwhile.
  boost::asio::awaitable<void> close_banned(std::string player_id);
  std::shared_ptr<Participant> connection_of(const std::string& player_id);
  // Works out and saves the signals of the next games that have none.
  boost::asio::awaitable<void> analyse_some();
  // game's signals, worked out on the analysis thread.
  boost::asio::awaitable<SignalRecord> analyse(GameRecord game);
  boost::asio::awaitable<AdminAnswer> ban(const Actor& actor, const protocol::AdminBan& a);
  boost::asio::awaitable<AdminAnswer> unban(const Actor& actor, const protocol::AdminUnban& a);
  boost::asio::awaitable<AdminAnswer> rename(const Actor& actor, const protocol::AdminRename& a);
  boost::asio::awaitable<AdminAnswer> reset_password(const Actor& actor,
                                                     const protocol::AdminResetPassword& a);
  boost::asio::awaitable<AdminAnswer> hide_game(const Actor& actor,
                                                const protocol::AdminHideGame& a);
  boost::asio::awaitable<AdminAnswer> close_room(const Actor& actor,
                                                 const protocol::AdminCloseRoom& a);
  boost::asio::awaitable<AdminAnswer> resolve_report(const Actor& actor,
                                                     const protocol::AdminResolveReport& a);
  // Here, and on every other node.
  void everywhere(const std::string& kind, const std::string& target, const std::string& text);
  // Whether reporter may file another report now (and counts it if so).
  bool may_report(const std::string& reporter);

  PlayerRegistry& players_;
  RoomRegistry& rooms_;
  RoomDirectory& directory_;
  StoreWorker& store_;
  Metrics& metrics_;
  PlayerReach* reach_;
  std::shared_ptr<boost::asio::steady_timer> timer_;
  bool stopped_ = false;
  std::mutex mutex_;
  std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> recent_;
  boost::asio::thread_pool analysis_{1};  // expectimax's comparisons: never a network thread
};

}  // namespace tilerace::server
