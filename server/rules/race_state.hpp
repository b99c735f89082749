#pragma once
// The rules of one room (PROTOCOL.md §5): who is in it, ready and host, the countdown, a race
// with one seed for all, the move cap, the grace of a racer who dropped, the end reasons, the
// ranking and the rating update (Glicko-2, in the room's variant). A core: every call takes the
// time it needs and returns what it produced — the messages to deliver, the move journal's entry,
// the race to record, the players it let go — and performs none of it. The shell (Room) carries the
// effects out, keeps a timer at next_deadline() and calls tick(). race_over goes out only when the
// shell reports the result recorded (recorded()).
//
// Racers are known by their player id, and what is theirs (name, rating, connection) lives in
// their entry: the rules see no Player, no store and no clock of their own.
//
// Not thread-safe: the shell's mutex guards every call (docs/architecture.md, "Threads and
// locks"). It locks nothing itself.
#include <boost/container/small_vector.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/game.hpp"
#include "protocol/encode.hpp"
#include "protocol/messages.hpp"
#include "server/rules/ghost_run.hpp"
#include "server/rules/match_end.hpp"
#include "server/rules/participant.hpp"
#include "server/rules/play_records.hpp"
#include "server/rules/variant_rating.hpp"

namespace tilerace::server {

struct RaceSettings {
  int countdown = 3;           // seconds before a race starts; 0 starts it at once
  int grace = 60;              // seconds a disconnected racer keeps their place
  bool journal_moves = false;  // cluster mode: play() says what each move adds to the move journal
  // A bot account's moves a second at most in a race with people (the room's bot_pace may ask
  // for fewer); 0: no limit.
  int bot_api_moves_per_second = 20;
  // What the rules cannot compute, given to them (both required): a fresh secret (a race's
  // seed, its id and its games' ids) and the wall clock (Unix ms, for the record). The shell
  // gives the server's draw on the CSPRNG and the system clock (Room); tests give their own.
  std::uint64_t (*secret)() = nullptr;
  std::int64_t (*wall_clock)() = nullptr;
};

// What one racer's move or resignation adds to the race's move journal (cluster mode journals it
// in Redis before the mover is answered): the moves it appended to the game's history, or
// that the racer resigned.
struct MoveJournalEntry {
  std::string race_id;
  std::size_t position = 0;  // the racer's, as ActiveRaceRecord::racers lists them
  std::string moves;
  bool resigned = false;
  std::string check;       // game_check of the racer's game after it
  std::int64_t epoch = 0;  // the race's, as this node holds it (ActiveRaceRecord::epoch)
};

// A finished race to record: the record, and race_over exactly as it will be sent.
struct RaceResult {
  RaceRecord record;
  std::string race_over;
};

// A player taking a place in the room: who (their player id and name; bot for the computer:
// always ready, never host), where their messages go (empty while they are away), their rating
// in the room's variant when they sat down, and whether they are a bot account (the computer
// is one too): marked so, held to the bot pace in a race with people, and no person's rating
// changes in a race with one (docs/bots.md).
struct Seat {
  std::string player_id;
  std::string name;
  std::optional<engine::BotStrength> bot;
  std::weak_ptr<Participant> connection;
  VariantRating rating;
  bool bot_account = false;
};

// An achievement a recorded race granted, for its player (the shell reads it from the store's
// grants).
struct Granted {
  std::string player_id;
  protocol::AchievementView view;
};

// One message for one recipient; `to` is null for the connection that made the call.
struct Delivery {
  std::shared_ptr<Participant> to;
  SharedMessage message;
};

// What one call on the rules produced, for the shell to carry out in this order: journal
// (cluster mode) → record → deliver.
// What the shell counts (Metrics) for one call: the rules count nothing themselves.
struct RaceCounts {
  int moves = 0;          // moves that changed a board
  int races_started = 0;  // races that began
  int races_active = 0;   // races that began running (+1) or stopped (-1)
  boost::container::small_vector<protocol::ErrorCode, 2> errors;  // error messages sent
};

struct RaceEffects {
  // In the order they are to arrive. A move makes three (the mover's answer, the opponent's
  // and a spectator's update): that many live inline, so a move asks the heap for none.
  boost::container::small_vector<Delivery, 4> deliveries;
  std::optional<MoveJournalEntry>
      move_entry;                     // a racer's move or resignation, for the move journal
  std::optional<RaceResult> result;   // the race just ended; race_over waits for it
  std::vector<std::string> released;  // player ids no longer members: unlinked from the room
  // Ratings that took effect (a race recorded): each player's (by id) new rating in the
  // room's variant.
  std::vector<std::pair<std::string, VariantRating>> ratings;
  // A running race the operator closed, by id: it is recorded nowhere and leaves the journals.
  std::optional<std::string> abandoned_race;
  // A tournament's match room is over (and closed): for its tournament.
  std::optional<MatchEnd> match_end;
  RaceCounts counts;
};

class RaceState {
 public:
  using Clock = std::chrono::steady_clock;
  using Time = Clock::time_point;
  static constexpr int kMaxSpectators = 100;
  static constexpr std::chrono::seconds kEmoteEvery{2};
  static constexpr std::chrono::minutes kKickedFor{10};

  // ghost: a ghost room's run (options have its mode, size and target); its racer is seated by
  // seat_ghost.
  RaceState(std::string code, protocol::RoomOptions options, RaceSettings settings,
            std::shared_ptr<const GhostRun> ghost = nullptr);

  // A journaled race going on from now: every racer away with a full grace, the clock running
  // on with the time it had left (the downtime is not counted). seats are record.racers' in
  // order; a ghost room's ghost racer (ghost's) has a seat without a player, and its letters
  // due by now are played at once. nullopt if a game cannot be rebuilt from its moves. A race
  // that had ended (its result not yet recorded) ends again: effects gets its result.
  static std::optional<RaceState> restore(const ActiveRaceRecord& record, std::vector<Seat> seats,
                                          RaceSettings settings, Time now, RaceEffects& effects,
                                          std::shared_ptr<const GhostRun> ghost = nullptr);

  // The room has nobody left and is gone for good; the shell drops it from the registry.
  bool closed() const noexcept { return closed_; }
  // The id of the room's race: the running one, or the last (empty before the first).
  const std::string& race_id() const noexcept { return race_id_; }

  // seat's player asks to join. claimed: the shell linked the player to this room (they were
  // in none); if the join is refused, the player is in released again.
  RaceEffects join(const Seat& seat, bool claimed, const protocol::Rid& rid, Time now);
  RaceEffects leave(std::string_view player_id, const protocol::Rid& rid, Time now);
  RaceEffects set_ready(std::string_view player_id, bool ready, const protocol::Rid& rid, Time now);
  // move, slide, undo or resign from a racer: the answer to the caller, the race_update to
  // everyone else (the racer's own connection aside). With settings.journal_moves, what it
  // adds to the move journal if it changed the racer's game (else nothing is computed).
  RaceEffects play(std::string_view player_id, const protocol::ClientMessage& message,
                   const protocol::Rid& rid, Time now);
  // The host sends racer `target` out of the waiting room: they get `kicked`, everyone the
  // room, and they may not join it again for kKickedFor. Refused (not_allowed) from anyone but
  // the host, once the countdown or the race has begun, and for the host themselves or a
  // machine; not_a_player for nobody of that id.
  RaceEffects kick(std::string_view host_id, const std::string& target, const protocol::Rid& rid,
                   Time now);
  // The operator closes the room: racers and spectators get `room_closed` with the reason,
  // everyone is let go, and a running race is abandoned (effects' abandoned_race): no result,
  // no rating (a tournament's match: played by nobody). The room is closed for good.
  RaceEffects close_by_operator(std::string_view reason);
  // Cluster mode: the race is another node's now (adopted there, or recorded there): racers
  // and spectators get `redirect` (reason resume) to url — `room_closed` ("moved") when no
  // owner is known —, everyone is let go, and this copy closes for good: no result, no
  // journal change (they are the owner's).
  RaceEffects hand_over(std::string_view url);
  // A racer's emote: to every member and spectator (the caller's copy carries rid); at most
  // one per kEmoteEvery per racer, else rate_limited.
  RaceEffects emote(std::string_view player_id, protocol::Emote emote, const protocol::Rid& rid,
                    Time now);
  // A ghost room: seats the ghost racer (always ready, never host) once its creator has joined,
  // and tells everyone. Each race, it plays the run's letters at their times (tick), on the
  // run's seed. When no other racer is playing any more, it plays the rest of its run at once
  // (up to the time limit) and the race ends; a run whose letters are all played ends the
  // ghost's part as it stands. A ghost race changes no rating, and the ghost's game is not
  // recorded again: race_over says how far each racer finished from it.
  RaceEffects seat_ghost();
  // Quick match and tournament matches: seats each, ready, without telling anyone yet (the
  // shell linked them to this room already); the first is host. A seat with a time is away
  // until then — on the way from another node (cluster mode), or not connected. In a
  // tournament's match room, a racer still away then is out of the match (they lose it) and
  // the others race it; the one left alone wins it unraced (MatchEnd).
  void seat(const std::vector<std::pair<Seat, std::optional<Time>>>& seats);
  // Tells everyone the room as it is (the caller, when direct, gets it with rid) and starts
  // when all are ready.
  RaceEffects announce(bool direct, const protocol::Rid& rid, Time now);
  // Adds a spectator and sends it `room` (+ `race_state`); added is false if it was refused
  // (the error is in the effects).
  RaceEffects add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid,
                            Time now, bool& added);
  RaceEffects remove_spectator(const Participant* spectator);
  // A tournament's followers of this match (docs/protocol.md, "Tournament TV"): from now on
  // they get its race stream only — race_start, race_update, race_over — and each newly added
  // gets race_state when a race runs. Replaces the list; a racer or spectator of this room is
  // left out (they get the stream already). They are not spectators: not counted, never told
  // of the room itself.
  RaceEffects set_watchers(std::vector<std::weak_ptr<Participant>> watchers, Time now);
  // A racer's new connection: it gets `room`, then `race_state` when racing; in a waiting
  // room where everyone is ready and back, the countdown starts.
  RaceEffects reconnected(std::string_view player_id, std::weak_ptr<Participant> connection,
                          Time now);
  // A racer's connection is gone: they keep their place for the grace period.
  RaceEffects disconnected(std::string_view player_id, Time now);
  // A racer's new name (a rename, theirs or the operator's): everyone gets the room with it.
  RaceEffects rename(std::string_view player_id, std::string name);
  // A racer's client measured its round trip (ms): at kSlowMs or more the room says they are
  // slow, below kFastAgainMs no longer (the gap keeps a wavering link from flapping).
  RaceEffects round_trip(std::string_view player_id, int ms);
  static constexpr int kSlowMs = 500;
  static constexpr int kFastAgainMs = 300;

  // Fires whatever is due at now: the countdown's end, the time limit, expired graces.
  RaceEffects tick(Time now);
  // When tick next has something to do; nullopt when nothing is pending.
  std::optional<Time> next_deadline() const;

  // result (a RaceEffects::result) was committed: the ratings take effect (in the effects'
  // ratings, for the players), race_over goes out, each achievement granted goes to its
  // player after it, and the room waits again — a tournament's match room closes instead
  // (`room_closed`, reason match_over), its MatchEnd in the effects.
  RaceEffects recorded(const RaceResult& result, const std::vector<Granted>& granted);
  // Recording failed (it will be retried): the racers are told, nothing is announced.
  RaceEffects record_failed();

  // A running race (or one whose result is not yet recorded) as the store's journal keeps it.
  std::optional<ActiveRaceRecord> active_record(Time now);

  // This room as its `room` message shows it.
  protocol::RoomView summary() const;
  // This room as list_rooms shows it: the summary, with each racer's board while a race runs.
  protocol::RoomView listing() const;
  // Where each racer's race game is (game_check), in joining order; empty when no race runs.
  std::vector<std::string> checks() const;
  // A copy of the player's race game while the race runs and that game is being played.
  std::optional<engine::Game> racing_game(std::string_view player_id) const;
  // Whether the rules still hold the player among the racers (a member, or one who left a
  // race kept for its standings): the shell keeps what it knows of them until they are not.
  bool seated(std::string_view player_id) const;

 private:
  enum class State { waiting, countdown, racing, finishing };
  struct Racer {
    std::string id;  // the player's
    std::string name;
    std::optional<engine::BotStrength> bot;  // the computer
    bool bot_account = false;                // a bot account (the computer is one too)
    std::weak_ptr<Participant> connection;   // where their messages go while connected
    VariantRating rating;
    bool ready = false;
    bool connected = true;
    bool left = false;   // left or timed out during a race: kept for the standings only
    bool ghost = false;  // the ghost racer of a ghost room
    bool slow = false;   // their client's round trip is long (round_trip)
    std::optional<engine::Game> game;
    std::string game_id;
    // per move letter: ms from the race's start; nullopt once unknown (a restored race)
    std::optional<std::vector<std::int32_t>> times;
    std::optional<Time> away_until;  // while disconnected: when the grace runs out
    int cap = 0;                     // moves a second at most (cap_of, set as the race starts)
    double cap_tokens = 0;           // the cap's bucket
    Time cap_last{};
    std::optional<Time> last_emote;
  };

  Racer* find(std::string_view player_id);  // a member (not left)
  static Racer racer_of(const Seat& seat);
  // The computer or a ghost: always ready, never host, and no rating changes with one.
  static bool machine(const Racer& r) { return r.ghost || r.bot.has_value(); }
  // A racer's moves a second at most (0: no cap): the room's cap; for a bot in a race with
  // people, the bot pace too (RaceSettings::bot_api_moves_per_second, the room's bot_pace).
  int cap_of(const Racer& r) const;
  // Each racer's cap, its bucket full: when a race starts or is restored (nobody joins a race
  // that runs, so who races with whom holds till its end).
  void set_caps();
  static Racer ghost_racer(const GhostRun& run);
  const Racer* ghost() const;
  Racer* ghost() { return const_cast<Racer*>(std::as_const(*this).ghost()); }
  // The ghost has played every letter of its run it can.
  bool ghost_done(const Racer& r) const;
  // A racer other than a machine is still playing.
  bool people_playing() const;
  // The ghost plays each letter due by until (and before the time limit) as a race_update;
  // the race ends if it reaches the target.
  void run_ghost(Time until, Time now);
  Time race_start() const { return race_deadline_ - std::chrono::seconds(options_.time_limit); }
  std::int64_t remaining_ms(Time now) const;
  std::vector<protocol::RacerGame> games() const;
  // Takes what the call produced (fx_), leaving nothing behind.
  RaceEffects done();
  // message to the connection that made the call.
  void reply(std::string message);
  void send_error(protocol::ErrorCode code, std::string_view text, const protocol::Rid& rid);
  // last goes to everyone, who is let go; the room is closed for good.
  void close_with(const SharedMessage& last);
  // message to every connected racer but the one of id except_racer (empty: none), and every
  // spectator but except_spectator.
  void broadcast(const SharedMessage& message, std::string_view except_racer = {},
                 const Participant* except_spectator = nullptr);
  // A message of the race stream: broadcast, and to every watcher.
  void stream(const SharedMessage& message, std::string_view except_racer = {});
  // Whether p is a racer's connection or a spectator here.
  bool in_room(const Participant* p) const;
  // `room` to everyone; the caller (the racer direct_racer, the spectator direct_spectator,
  // or neither and nobody when direct is false) gets its own copy carrying rid.
  void broadcast_room(bool direct, const protocol::Rid& rid, std::string_view direct_racer = {},
                      const Participant* direct_spectator = nullptr);
  // tick's work, its effects left in fx_.
  void advance(Time now);
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
  bool tournament_match() const noexcept { return !options_.tournament.empty(); }
  // The variant the room's races are rated in.
  protocol::Variant variant() const { return protocol::variant_of(options_.mode, options_.size); }
  std::string_view variant_name() const { return protocol::to_string(variant()); }
  // A racer's rating unchanged by a race (a machine raced, or a walkover).
  static protocol::RatingChange unchanged(std::string_view id, const glicko2::Rating& r) {
    return {id, shown(r.rating), shown(r.rating), shown(r.rd), shown(r.rd), provisional(r)};
  }
  // A tournament's match is decided: everyone gets `room_closed` (match_over) and is let go.
  void end_match(MatchEnd end);
  // end has one racer left, who wins the match by walkover: the others are let go, and the
  // result is recorded like a race's (effects' result); recorded() then tells everyone
  // (race_over, reason walkover) and ends the match (MatchEnd::walkover).
  void walk_over(MatchEnd end);
  // A tournament's match before its start: gone are out of it (they lose it). Fewer than two
  // left: it is decided (the one left wins it); else the others race it.
  void leave_match(const std::vector<std::string>& gone, Time now);

  std::string code_;
  protocol::RoomOptions options_;
  RaceSettings settings_;
  RaceEffects fx_;  // what the call in progress has produced
  State state_ = State::waiting;
  bool closed_ = false;
  std::string host_;
  std::vector<Racer> racers_;  // in joining order
  std::vector<std::weak_ptr<Participant>> spectators_;
  std::vector<std::weak_ptr<Participant>> watchers_;  // set_watchers
  Time countdown_until_{};
  Time race_deadline_{};
  std::uint64_t seed_ = 0;
  std::string race_id_;
  std::int64_t race_started_at_ = 0;       // Unix ms
  std::shared_ptr<const GhostRun> ghost_;  // a ghost room's run
  std::map<std::string, Time> kicked_;     // player id → until when they may not join
  bool ghost_stuck_ = false;  // a letter of the run changed nothing: it plays no further
  // The last race's places, for a tournament's match (a walkover's, with its walkover, while
  // its record is made).
  MatchEnd match_places_;
};

}  // namespace tilerace::server
