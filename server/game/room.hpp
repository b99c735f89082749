#pragma once
// A room as the server runs it: the shell around its rules (RaceState). It calls the rules
// under its mutex and carries out what they return in a fixed order — journal (cluster mode:
// a racer's move reaches the move journal, or the store confirms it, before its answer goes
// out) → record (a finished race is committed through the StoreWorker before race_over goes
// out; a failed recording is retried with backoff, the store's race journal keeping it across
// a restart meanwhile) → deliver (in the rules' order, outside the mutex: what an action sends
// and to whom is queued under it, and written after it is released, under a second mutex taken
// before the first is let go, so a later action's messages never overtake an earlier one's;
// Beast's chat-multi copies its recipients likewise). It links players to
// the room and unlinks them (Player::room), and keeps one timer at the rules' next deadline.
// Every public function may be called from any thread; callers hold a shared_ptr to the room
// for the call.
//
// Fencing (cluster mode; docs/operations.md, "Fencing"): the room runs its race under the
// epoch it holds (1 for a race it started, the adoption's for one it adopted). Every journal
// write, move append and recording names it; when one is refused, the race is another node's
// and the room hands it over (lose): nothing more is answered or announced here.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/base/metrics.hpp"
#include "server/game/bot_pool.hpp"
#include "server/game/player.hpp"
#include "server/rules/race_state.hpp"
#include "server/store/game_store.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class MoveJournal;

struct RoomServices {
  boost::asio::any_io_executor executor;  // timers and the recording coroutine
  StoreWorker* store = nullptr;
  Metrics* metrics = nullptr;
  RaceSettings settings;  // its secret and wall clock: the CSPRNG's and the system's if not given
  std::function<void(const std::string& code)> on_closed;  // the room has nobody left
  BotPool* bots = nullptr;            // null: this server seats no computer opponents
  double bot_moves_per_second = 3.0;  // a bot's pace, so that a race stays watchable
  MoveJournal* journal = nullptr;     // cluster mode: where moves are journaled (else none)
  // Cluster mode: the room's race went to another node (fencing), reached at url. Called with
  // no lock held.
  std::function<void(const std::string& code, const std::string& url)> on_handed_over;
};

// settings, with the server's CSPRNG and system clock where it gives no secret or wall clock.
RaceSettings with_server_clocks(RaceSettings settings);

class Room : public std::enable_shared_from_this<Room> {
 public:
  using Time = RaceState::Time;

  // A new, empty room; ghost: a ghost room's run (seat_ghost seats its racer).
  static std::shared_ptr<Room> make(std::string code, const protocol::RoomOptions& options,
                                    RoomServices services,
                                    std::shared_ptr<const GhostRun> ghost = nullptr);
  // A journaled race going on again (RaceState::restore); its players still in the race are
  // linked to it. players: record.racers' players in order, none null but a ghost room's
  // ghost racer (the computer's part is a BotRacer's player: RoomRegistry::restore seats
  // them). Null when it cannot be rebuilt.
  static std::shared_ptr<Room> restore(const ActiveRaceRecord& record,
                                       std::vector<std::shared_ptr<Player>> players,
                                       RoomServices services,
                                       std::shared_ptr<const GhostRun> ghost = nullptr);

  const std::string& code() const noexcept { return code_; }
  const RoomServices& services() const noexcept { return services_; }
  bool is_public() const noexcept { return public_; }
  // A tournament's match room: the tournament's code (RoomOptions::tournament); else empty.
  const std::string& tournament() const noexcept { return tournament_; }

  // See RaceState for each; `to` is the connection that asked, and gets the answer, errors
  // included.
  void join(const std::shared_ptr<Player>& player, const std::shared_ptr<Participant>& to,
            const protocol::Rid& rid);
  void leave(Player& player, Participant& to, const protocol::Rid& rid);
  void set_ready(Player& player, bool ready, Participant& to, const protocol::Rid& rid);
  // A racer's move, slide, undo or resignation. With a move journal (cluster mode), the
  // answer to `to` (moved, game, or an error) goes out only once the move journal has the move
  // under this room's epoch, or else the store's journal has the race with it (retried while
  // the store cannot be reached: the answer is held) — a racer is never told of a move a node
  // adopting this race would not know. Answers go out in the order the moves were played.
  // That rest comes back to be awaited; everyone else sees the race_update at once. nullopt:
  // all is done.
  std::optional<boost::asio::awaitable<void>> play(Player& player,
                                                   const std::shared_ptr<Participant>& to,
                                                   const protocol::ClientMessage& message,
                                                   const protocol::Rid& rid);
  void emote(Player& player, Participant& to, protocol::Emote emote, const protocol::Rid& rid);
  // See RaceState::kick and RaceState::close_by_operator; an abandoned race leaves the store's
  // journal (and the move journal) in the background.
  void kick(Player& host, const std::string& target, Participant& to, const protocol::Rid& rid);
  void close_by_operator(std::string_view reason);
  // A ghost room: its ghost racer takes its seat (RaceState::seat_ghost).
  void seat_ghost();
  // Quick match: seats a and b (already linked to this room by the registry). Requires a room
  // nobody else can reach yet (the registry seats it before registering it): its lock is not
  // taken, so the registry, holding its own, takes no room's lock (the lock order).
  void seat(const std::shared_ptr<Player>& a, const std::shared_ptr<Player>& b,
            std::optional<Time> a_expected_by = std::nullopt);
  // A tournament's match: seats players (linked to this room by the registry); one who is not
  // connected is away until away_until (RaceState::seat); on_end as watch's. Requires a room
  // nobody else can reach yet, as seat does.
  void seat_match(const std::vector<std::shared_ptr<Player>>& players, Time away_until,
                  std::function<void(const MatchEnd&)> on_end);
  // A tournament's match room: on_end is called (posted onto the executor, no lock held) once
  // with how the match ended. Set before the room is announced.
  void watch(std::function<void(const MatchEnd&)> on_end);
  // direct: the arriving racer's connection (it gets `room` with rid), or null.
  void announce(Participant* direct, const protocol::Rid& rid);
  bool add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid);
  void remove_spectator(const Participant* spectator);
  // A tournament's followers of this match room (RaceState::set_watchers).
  void set_watchers(std::vector<std::weak_ptr<Participant>> watchers);
  void reconnected(Player& player, const std::shared_ptr<Participant>& to);
  void disconnected(Player& player);
  // A racer's new name (a rename, theirs or the operator's): the room shows it.
  void renamed(const std::string& player_id, std::string name);
  // The player's client measured its round trip (RaceState::round_trip).
  void round_trip(Player& player, int ms);
  protocol::RoomView summary() const;
  protocol::RoomView listing() const;  // RaceState::listing
  std::vector<std::string> checks() const;
  // The running race as the store's journal keeps it (RaceState::active_record), under the
  // epoch this room holds.
  std::optional<ActiveRaceRecord> active_record();
  // Cluster mode: race_id (if it is still this room's race) belongs to owner now — a journal
  // write or recording was refused. Racers and spectators are sent there
  // (RaceState::hand_over), unanswered moves stay unanswered, and the room closes.
  void lose(const std::string& race_id, const RaceOwner& owner);
  // Cluster mode: the connections here of its racers, while a race runs that could go to
  // another node (RaceRelease): those connected and not superseded by a connection elsewhere.
  // nullopt when no race runs, the race is lost already, or the room is a tournament's match
  // (its tournament holds it here).
  std::optional<std::vector<std::shared_ptr<Participant>>> racers_here();
  // Cluster mode: the store's journal has race_id now (a journal pass wrote it): its moves need
  // no write of their own to be found by an adopter.
  void stored(const std::string& race_id);
  // A copy of player's race game while the race runs and that game is being played.
  std::optional<engine::Game> racing_game(const Player& player);

  // Server shutdown: no timer is armed and no retry waits from now on; what runs finishes.
  void stop();

 private:
  explicit Room(RoomServices services);

  // Runs f(state, now) → RaceEffects under the mutex and carries the effects out (asker: the
  // connection that asked, or null).
  template <class F>
  void act(Participant* asker, F&& f);
  // Carries out fx (the mutex held): unlinks the released players, sets new ratings, hands a
  // finished race to the recorder, queues its deliveries in order, tells the registry when the
  // room closed, and keeps the timer at the rules' next deadline.
  void apply_locked(RaceEffects fx, Participant* asker);
  // Adds what the rules counted to the metrics.
  void count(const RaceCounts& counts);
  // Writes what is queued, in order, outside the mutex (lock, which holds it, is released once
  // send_mutex_ is taken; left held when nothing is queued). Every holder of the mutex that
  // queued calls it before letting the mutex go.
  void send_unlocking(std::unique_lock<std::mutex>& lock);
  static boost::asio::awaitable<void> record(std::shared_ptr<Room> self, RaceResult result);
  // An abandoned race leaves the move journal and the store's.
  static boost::asio::awaitable<void> forget(RoomServices services, std::string race_id,
                                             std::string room);
  // Cluster mode: journals entry, the room's move number `seq` (the store confirms it when the
  // move journal cannot, or when the store's journal does not have the race yet), then gives
  // `to` its held answer, in order; hands the race over when it is another node's.
  static boost::asio::awaitable<void> journal_then_answer(std::shared_ptr<Room> self,
                                                          MoveJournalEntry entry, std::uint64_t seq,
                                                          bool in_store,
                                                          std::shared_ptr<Participant> to,
                                                          std::vector<SharedMessage> held);
  // What confirming a move through the store came to.
  struct Confirmation {
    bool confirmed = false;          // the store's journal has the race as of the move
    std::optional<RaceOwner> owner;  // or: the race is another node's
  };
  // Writes the race to the store's journal (as of now: every move played so far) unless a
  // write since move seq already did; waits and tries again while the store cannot be reached.
  // Neither confirmed nor an owner: the room stopped or lost its race meanwhile.
  static boost::asio::awaitable<Confirmation> confirm(std::shared_ptr<Room> self,
                                                      std::uint64_t seq);
  // Move seq's answer is ready: it and every later one ready go out, in order.
  void answer(std::uint64_t seq, std::shared_ptr<Participant> to, std::vector<SharedMessage> held);
  // The record under this room's epoch (cluster mode; unchanged without a move journal).
  void fence_locked(ActiveRaceRecord& record) const;
  std::int64_t epoch_locked(const std::string& race_id) const;
  // The seat of player, read under its lock (name, rating, connection; connected: with its
  // connection, else away); the player is known by id from now on (players_).
  Seat seat_of(const std::shared_ptr<Player>& player, bool connected);

  RoomServices services_;
  std::string code_;
  bool public_ = false;
  std::string tournament_;                                 // a tournament's match room: its code
  protocol::Variant variant_ = protocol::kDefaultVariant;  // its races are rated in
  mutable std::mutex mutex_;
  std::optional<RaceState> state_;
  // Everyone the rules hold as a racer (RaceState::seated), by player id: their Player, to
  // link and unlink (Player::room) and to rate. Seeded before the room is reachable (seat,
  // seat_match, restore), else under mutex_.
  std::map<std::string, std::shared_ptr<Player>, std::less<>> players_;
  // A message to write: keep holds the recipient when the rules named it (an asker is alive
  // for its own call).
  struct Outgoing {
    std::shared_ptr<Participant> keep;
    Participant* to;
    SharedMessage message;
  };
  std::vector<Outgoing> outbox_;   // queued under mutex_
  std::mutex send_mutex_;          // taken while holding mutex_; held while writing
  std::vector<Outgoing> sending_;  // being written, under send_mutex_
  boost::asio::steady_timer timer_;
  std::optional<Time> armed_;        // the deadline timer_ waits for
  boost::asio::steady_timer retry_;  // backoff between recording attempts
  bool stopped_ = false;
  bool closed_ = false;
  std::function<void(const MatchEnd&)> on_match_end_;  // a tournament's match room
  // Cluster mode.
  std::string in_store_race_;  // the race known to be in the store's journal
  std::string epoch_race_;     // the race adopted under epoch_ (any other: 1, its first owner)
  std::int64_t epoch_ = 1;
  bool lost_ = false;            // handed over: nothing more is answered
  std::uint64_t played_ = 0;     // moves played that wait for the journal, numbered from 1
  std::uint64_t confirmed_ = 0;  // the store's journal has every move up to this one
  std::uint64_t next_answer_ = 1;
  struct Answer {
    std::shared_ptr<Participant> to;
    std::vector<SharedMessage> held;
  };
  std::map<std::uint64_t, Answer> ready_;  // answers waiting for an earlier one
};

}  // namespace tilerace::server
