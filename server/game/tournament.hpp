#pragma once
// A tournament as the server runs it: the shell around its rules (TournamentState). It calls
// the rules under its mutex and carries out what they return: each match opens as a room of
// its own (RoomRegistry::create_match: its racers seated and ready, an absent one given the
// grace to come), the room's end comes back as the match's result (Room::watch, posted onto
// the executor), and changes send the snapshot, encoded once, to every player and spectator —
// at most one per kSnapshotEvery: a burst of changes (a round's matches ending together) goes
// out as one snapshot at the end of the interval, so a large field's snapshots cannot pile up
// on a connection. The asker of a request gets its own copy at once. It links players to it
// (Player::tournament) and unlinks them, and keeps one timer at the rules' next deadline. Every
// public function may be called from any thread.
//
// Lock order: the tournament's mutex, then the room registry's, a room's, a player's (it
// opens rooms under its lock; a room never calls it under the room's lock).
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/game/tournament_members.hpp"
#include "server/rules/tournament_state.hpp"
#include "server/store/account_store.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

struct TournamentServices {
  boost::asio::any_io_executor executor;  // the timer and the matches' results
  RoomRegistry* rooms = nullptr;
  PlayerRegistry* players = nullptr;
  Metrics* metrics = nullptr;
  std::chrono::seconds grace{60};  // how long a match waits for an absent racer
  std::int64_t (*wall_clock)() = nullptr;
  TournamentMembers* members = nullptr;  // who plays in which tournament here
  // Called (no lock held) a while after the tournament is over, so its results can still be
  // looked at meanwhile: the registry forgets it.
  std::function<void(const std::string& code)> on_gone;
};

class Tournament : public std::enable_shared_from_this<Tournament> {
 public:
  using Time = TournamentState::Time;
  static constexpr int kMaxSpectators = 100;
  static constexpr std::chrono::minutes kKeptWhenOver{10};
  static constexpr std::chrono::milliseconds kSnapshotEvery{250};
  // How many of a round's matches its followers see at once (TournamentState::featured).
  static constexpr std::size_t kFollowedMatches = 8;

  // A new tournament hosted (and joined) by host, who is linked to it. Nobody is told yet:
  // announce, once it can be found by its code.
  static std::shared_ptr<Tournament> make(std::string code,
                                          const protocol::TournamentOptions& options,
                                          const std::shared_ptr<Player>& host,
                                          TournamentServices services);
  // Sends `to` (the creator) the snapshot with rid, and arms the timer (a scheduled start).
  void announce(Participant& to, const protocol::Rid& rid);
  // A tournament rebuilt from the store's journal, before serving: its members are linked
  // (loaded from the store when not in memory), each match it saw racing is settled —
  // watched in its room if that race came back (RoomRegistry::restore, done before), ended as
  // its recorded race ended, or else opened again — and whatever is left to open opens. Calls
  // store directly. Throws std::exception for a record it cannot rebuild.
  static std::shared_ptr<Tournament> restore(const TournamentRecord& record,
                                             TournamentServices services, AccountStore& accounts,
                                             GameStore& games);
  // The record to journal, with its version, when it changed since the version saved; else
  // nullopt.
  std::optional<std::pair<TournamentRecord, std::uint64_t>> unsaved() const;
  // The store has the record of version (or a later one).
  void saved(std::uint64_t version);

  // See TournamentState for each; `to` is the asking connection: it gets the snapshot with
  // rid, or the error. join links the player (the caller checked they were in none).
  void join(const std::shared_ptr<Player>& player, Participant& to, const protocol::Rid& rid);
  void leave(const std::shared_ptr<Player>& player, Participant& to, const protocol::Rid& rid);
  void start(const Player& player, Participant& to, const protocol::Rid& rid);
  // A member connected (to: their connection, which gets the snapshot at once) or went away
  // (null): everyone's snapshot shows it.
  void presence(Participant* to);
  // Adds a spectator (it gets the snapshot, then every change); false when refused (too many).
  bool add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid);
  void remove_spectator(const Participant* spectator);
  // Server shutdown: no timer is armed from now on.
  void stop();
  // Cluster mode: another node holds it now (the store refused its journal): it stops here,
  // and its players are let go.
  void lose();

 private:
  explicit Tournament(TournamentServices services);

  using Effects = TournamentState::Effects;
  // Whether a player can be paired now: connected here and in no room.
  bool available(const std::string& player_id) const;
  TournamentState::Available availability() const;
  // Carries fx out (the mutex held): opens its matches (a match a player cannot come to — in
  // another room — is decided at once), sends the snapshot, unlinks the players when over,
  // and keeps the timer.
  void apply_locked(Effects fx, Participant* asker, const protocol::Rid& rid);
  // Opens match's room (added to opened, to be announced); when a racer is in another room,
  // the match is theirs to lose.
  Effects open_locked(const TournamentState::Opening& opening,
                      std::vector<std::shared_ptr<Room>>& opened);
  void on_match_end(std::size_t match, const MatchEnd& end);
  // What a match's room calls when it ends (Room::watch).
  std::function<void(const MatchEnd&)> on_end_of(std::size_t match);
  void arm_locked();
  // The snapshot changed: the asker gets it with rid at once, everyone else at the end of the
  // snapshot interval (at once when at_once).
  void show_locked(Participant* asker, const protocol::Rid& rid, bool at_once);
  // Sends everyone the snapshot as it stands now.
  void broadcast_locked(Time now);
  void on_timer();
  protocol::TournamentView view_locked() const;
  // Who follows the matches (docs/protocol.md, "Tournament TV"): the spectators, and the
  // members connected here and in no room (between their own matches).
  std::vector<std::weak_ptr<Participant>> followers_locked() const;
  // Gives the featured matches' rooms their followers, and takes them from a room no longer
  // featured.
  void follow_locked();

  TournamentServices services_;
  std::string code_;
  bool public_ = false;
  mutable std::mutex mutex_;  // guards what follows
  std::optional<TournamentState> state_;
  std::vector<std::weak_ptr<Participant>> spectators_;
  std::vector<std::string> followed_;  // the rooms of the featured matches, as last given
  boost::asio::steady_timer timer_;
  std::optional<Time> armed_;
  boost::asio::steady_timer flush_;  // the end of the snapshot interval, while a change waits
  bool flush_armed_ = false;
  bool changed_ = false;  // a change not yet broadcast
  Time last_broadcast_{};
  std::int64_t epoch_ = 0;  // the store's fencing token this node holds it under (0: new)
  std::string url_;
  std::uint64_t version_ = 1;  // one more at each change
  std::uint64_t saved_version_ = 0;
  bool stopped_ = false;
  bool gone_ = false;  // over: the registry is told to forget it at gone_at_
  std::optional<Time> gone_at_;
};

}  // namespace tilerace::server
