#pragma once
// The rules of one room (PROTOCOL.md §5), without I/O, timers or a clock of its own: who is in
// it, ready and host, the countdown, a race with one seed for all, the move cap, the grace of a
// racer who dropped, the end reasons, the ranking and the Elo update. Every call that depends
// on time takes `now`; the shell (Room) keeps a timer at next_deadline() and calls tick().
// A finished race is handed out by take_result() to be recorded; race_over goes out only when
// the shell reports it recorded (recorded()).
//
// Not thread-safe: the shell's mutex guards every call (docs/architecture.md, "Threads and
// locks").
// Messages go to participants (a racer's current connection, the spectators), never sockets;
// a broadcast is encoded once and shared.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.hpp"
#include "protocol/encode.hpp"
#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/participant.hpp"
#include "server/game/player.hpp"
#include "server/store/store.hpp"

namespace tilerace::server {

struct RaceSettings {
  int countdown = 3;           // seconds before a race starts; 0 starts it at once
  int grace = 60;              // seconds a disconnected racer keeps their place
  bool journal_moves = false;  // cluster mode: play() says what each move adds to the journal
};

// What one racer's move or resignation adds to the race's journal (cluster mode journals it
// in Redis before the mover is answered): the moves it appended to the game's history, or
// that the racer resigned.
struct JournalEntry {
  std::string race_id;
  std::size_t position = 0;  // the racer's, as ActiveRaceRecord::racers lists them
  std::string moves;
  bool resigned = false;
  std::string check;  // game_check of the racer's game after it
};

// A finished race to record: the record, and race_over exactly as it will be sent.
struct RaceResult {
  RaceRecord record;
  std::string race_over;
};

class RaceState {
 public:
  using Clock = std::chrono::steady_clock;
  using Time = Clock::time_point;
  static constexpr int kMaxSpectators = 100;
  static constexpr std::chrono::seconds kEmoteEvery{2};

  // owner is what a member's Player::room points to while they are in this room.
  RaceState(std::string code, protocol::RoomOptions options, RaceSettings settings,
            Metrics& metrics, std::weak_ptr<Room> owner);

  // A race journaled before a restart, going on from now: every racer away with a full grace,
  // the clock running on with the time it had left (the downtime is not counted). players
  // are record.racers' players in order. nullopt if a game cannot be rebuilt from its moves.
  // The caller links the players to owner (Player::room).
  static std::optional<RaceState> restore(const ActiveRaceRecord& record,
                                          std::vector<std::shared_ptr<Player>> players,
                                          RaceSettings settings, Metrics& metrics,
                                          std::weak_ptr<Room> owner, Time now);

  // The room has nobody left and is gone for good; the shell drops it from the registry.
  bool closed() const noexcept { return closed_; }

  // Each answers `to` (the asking connection) directly, errors included.
  void join(const std::shared_ptr<Player>& player, Participant& to, const protocol::Rid& rid);
  void leave(Player& player, Participant& to, const protocol::Rid& rid, Time now);
  void set_ready(Player& player, bool ready, Participant& to, const protocol::Rid& rid, Time now);
  // move, slide, undo or resign from a racer. `to` gets the answer; everyone else (the
  // racer's own connection aside) the race_update. With settings.journal_moves, returns what
  // it adds to the journal, if it changed the racer's game (else nothing is computed).
  std::optional<JournalEntry> play(Player& player, Participant& to,
                                   const protocol::ClientMessage& message, const protocol::Rid& rid,
                                   Time now);
  // A racer's emote: to every member and spectator (`to` gets it with rid); at most one per
  // kEmoteEvery per racer, else rate_limited.
  void emote(Player& player, Participant& to, protocol::Emote emote, const protocol::Rid& rid,
             Time now);
  // Quick match: seats both players, ready, without telling anyone yet. Their Player::room
  // must already point to owner (claimed atomically by the matchmaker). a_expected_by: a is
  // on the way from another node (cluster mode) and counts as away until then.
  void seat(const std::shared_ptr<Player>& a, const std::shared_ptr<Player>& b,
            std::optional<Time> a_expected_by = std::nullopt);
  // Tells everyone the room as it is (`direct` gets rid) and starts when all are ready.
  void announce(Participant* direct, const protocol::Rid& rid, Time now);
  // Adds a spectator and sends it `room` (+ `race_state`); false if refused (error sent).
  bool add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid,
                     Time now);
  void remove_spectator(const Participant* spectator);
  // A racer's new connection: sends it `room`, then `race_state` when racing; in a waiting
  // room where everyone is ready and back, the countdown starts.
  void reconnected(Player& player, Participant& to, Time now);
  // A racer's connection is gone: they keep their place for the grace period.
  void disconnected(Player& player, Time now);

  // Fires whatever is due at now: the countdown's end, the time limit, expired graces.
  void tick(Time now);
  // When tick next has something to do; nullopt when nothing is pending.
  std::optional<Time> next_deadline() const;

  // The race that just ended, once; its race_over waits for recorded().
  std::optional<RaceResult> take_result();
  // result (from take_result) was committed: ratings take effect, race_over goes out, the
  // room waits again.
  // granted: the achievements the race's games earned, each sent to its player after
  // race_over.
  void recorded(const RaceResult& result, const std::vector<Grant>& granted);
  // Recording failed (it will be retried): the racers are told, nothing is announced.
  void record_failed();

  // The journal entry of a running race (or of one whose result is not yet recorded).
  std::optional<ActiveRaceRecord> journal(Time now);

  // This room as list_rooms shows it.
  protocol::RoomView summary() const;
  // A copy of player's race game while the race runs and that game is being played.
  std::optional<engine::Game> racing_game(const Player& player) const;

 private:
  enum class State { waiting, countdown, racing, finishing };
  struct Racer {
    std::shared_ptr<Player> player;
    bool ready = false;
    bool connected = true;
    bool left = false;  // left or timed out during a race: kept for the standings only
    std::optional<engine::Game> game;
    std::string game_id;
    std::optional<Time> away_until;  // while disconnected: when the grace runs out
    double cap_tokens = 0;           // max_moves_per_second bucket
    Time cap_last{};
    std::optional<Time> last_emote;
  };

  Racer* find(const Player& player);
  std::int64_t remaining_ms(Time now) const;
  std::vector<protocol::RacerGame> games() const;
  void send_error(Participant& to, protocol::ErrorCode code, std::string_view text,
                  const protocol::Rid& rid) const;
  // Sends message to every connected racer and spectator but `except` (and but the racer
  // except_racer).
  void broadcast(const SharedMessage& message, const Participant* except = nullptr,
                 const Player* except_racer = nullptr);
  // `room` to everyone; `direct` gets its own copy carrying rid.
  void broadcast_room(Participant* direct, const protocol::Rid& rid);
  void maybe_start(Time now);
  void start_race(Time now);
  void remove_racer(std::size_t index);
  void close();
  bool allow_move(Racer& racer, Time now);
  // Ends the race when one of PROTOCOL.md §5's conditions holds.
  void check_end(std::optional<std::size_t> target_winner, Time now);
  void end_race(std::string_view reason, std::optional<std::size_t> target_winner, Time now);
  void forfeit(Racer& racer);
  // The racer leaves a running race: forfeited, kept in the standings, out of the room.
  void drop_out(Racer& racer, Time now);
  // If leaving was the host, the longest-present racer still in becomes host.
  void hand_over_host(const std::string& leaving);

  std::string code_;
  protocol::RoomOptions options_;
  RaceSettings settings_;
  Metrics* metrics_;
  std::weak_ptr<Room> owner_;
  State state_ = State::waiting;
  bool closed_ = false;
  std::string host_;
  std::vector<Racer> racers_;  // in joining order
  std::vector<std::weak_ptr<Participant>> spectators_;
  Time countdown_until_{};
  Time race_deadline_{};
  std::uint64_t seed_ = 0;
  std::string race_id_;
  std::int64_t race_started_at_ = 0;  // Unix ms
  std::optional<RaceResult> result_;  // ended, not yet handed to the shell
};

}  // namespace tilerace::server
