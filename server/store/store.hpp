#pragma once
// What the server keeps: players, finished games and races, the journal of active solo games
// and running races, and the leaderboards computed from them. Calls block; the server makes
// them only from the StoreWorker's one thread (and, before it serves, from main), never from a
// network thread.
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
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/types.hpp"
#include "protocol/period.hpp"
#include "server/store/friendship.hpp"
#include "server/store/rank_cache.hpp"
#include "server/store/tournament_record.hpp"

namespace tilerace::server {

// A new player's Elo rating.
inline constexpr int kStartRating = 1500;

struct PlayerRecord {
  std::string id;
  std::string name;
  std::string name_key;         // protocol::name_key(name): unique among players
  std::int64_t created_at = 0;  // Unix milliseconds
  int rating = kStartRating;
  int wins = 0;
  int losses = 0;
  std::int64_t registered_at = 0;  // when they set a password; 0: a guest
  std::int64_t renamed_at = 0;     // their last rename; 0: never
};

// One signed-in device of a player: what its token proves.
struct SessionRecord {
  std::string token_hash;  // SHA-256 of the token's secret, hex (server/base/secrets.hpp)
  std::string player_id;
  std::int64_t created_at = 0;
  std::int64_t last_seen = 0;
  std::string label;    // the device, as the client described it
  std::string address;  // where it was last seen from
};

// Who a session signs in.
struct SessionOwner {
  std::string player_id;
  std::string name;
  std::string released_name;  // the guest name they lost since they were last told, else ""
  bool operator==(const SessionOwner&) const = default;
};

// What a node re-checks of its open connections (Store::check_connections).
struct ConnectionStates {
  struct Player {
    std::int64_t epoch = 0;  // the newest connection's (Store::take_connection)
    std::string name;
  };
  std::map<std::string, Player, std::less<>> players;  // of those asked, the ones that exist
  std::set<std::string, std::less<>> sessions;         // of those asked, the ones not ended
};

// What signing in with a name checks.
struct Credentials {
  std::string player_id;
  std::string password_hash;  // '' for a guest, who cannot sign in with a password
};

// Someone a player has a link with (server/store/friendship.hpp), as their friends list shows
// them: link is the player's own link to them, or requested with incoming set when they asked.
struct FriendRecord {
  std::string id;
  std::string name;
  int rating = kStartRating;
  Link link = Link::none;
  bool incoming = false;  // their request to the player
};

// A friendship change as the store made it (friend_step's answer, with the pair read inside
// the same transaction).
struct FriendChangeRecord {
  FriendPair before;
  FriendStep step;
};

struct GameRecord {
  std::string id;
  std::string player_id;
  engine::GameConfig config;
  std::string moves;  // the replay's move string
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  int move_count = 0;
  engine::GameState state = engine::GameState::over;
  bool ranked = false;
  std::int64_t started_at = 0;  // Unix milliseconds
  std::int64_t ended_at = 0;
  std::string room;  // the race's room code; empty for a solo game
  // A daily challenge game (protocol/daily.hpp): its day. Its replay is not served before the
  // day is over (its seed is the day's); ranked, it is the player's attempt on that day's
  // daily board, and on no other board. Empty for every other game.
  std::string daily;
  // When each move letter was played, in ms from the game's start (its race's start): one per
  // letter of moves, or none (a game resumed after a restart keeps no times).
  std::vector<std::int32_t> times;
};

// A player's ranked attempt at a day's daily challenge, as its board shows it: the game's
// state when it ended, or (abandoned) as last journaled.
struct DailyAttempt {
  std::string day;   // protocol::Period's name of a day
  std::string mode;  // protocol::DailyMode::key
  std::string player_id;
  std::string name;
  std::string game_id;
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  int moves = 0;
  std::int64_t at = 0;  // Unix ms: when it ended, or was last journaled
  bool finished = false;
};

struct RatingUpdate {
  std::string player_id;
  int before = 0;
  int after = 0;
  bool won = false;
  bool lost = false;
};

// A person's result in a race against the computer of one strength: one of won, lost,
// drawn is set.
struct BotOutcome {
  std::string player_id;
  engine::BotStrength strength = engine::BotStrength::medium;
  bool won = false;
  bool lost = false;
  bool drawn = false;
};

// An achievement (server/achievements.hpp) as a player holds it: granted once, by the game
// that earned it first.
struct Grant {
  std::string player_id;
  std::string achievement;  // its id
  std::string game_id;
  std::int64_t at = 0;  // Unix ms the game ended
};

// What a player's profile shows (GET /api/players/<id>).
// A race game on a profile, with how its race ended for the player.
struct RaceGameRecord {
  GameRecord game;
  std::string outcome;  // won, lost or draw; empty when its race is not recorded
};

struct Profile {
  PlayerRecord player;
  int games = 0;                  // finished games recorded, solo and race
  std::vector<GameRecord> bests;  // best ranked solo result per mode and size (no moves)
  std::vector<std::pair<std::int64_t, int>> ratings;  // (Unix ms, rating after) per rated race
  std::vector<RaceGameRecord> races;    // their last 10 race games, newest first (no moves)
  std::vector<Grant> achievements;      // in the order they were granted
  std::vector<std::string> daily_days;  // the days they made a ranked daily attempt, in order
};

// A person's record against the computer of one strength.
struct BotRecord {
  engine::BotStrength strength = engine::BotStrength::medium;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  friend bool operator==(const BotRecord&, const BotRecord&) = default;
};

// Moderation (docs/operations.md, "Moderation"). One line of the append-only audit log: who
// did what to whom, why, when, and what else is worth keeping (detail: free text).
struct AuditEntry {
  std::int64_t id = 0;  // given by the store, increasing
  std::int64_t at = 0;  // Unix ms
  std::string actor;    // the operator's name ("operator" before operators had names), or a
                        // player's id for what players do
  std::string action;   // ban, unban, rename, reset_password, hide_game, show_game, …
  std::string target;   // a player's id, a game's id, a room's code, a report's id
  std::string reason;
  std::string detail;
  std::string actor_role;   // owner, moderator, viewer, or "token" (the owner's bootstrap)
  std::string target_name;  // the target player's name at that moment (else empty)
  std::string address;      // where the operator's request came from
};

// An operator of the console (docs/operations.md, "Operators").
struct OperatorRecord {
  std::string id;
  std::string name;
  std::string role;  // owner, moderator or viewer
  std::string password_hash;
  std::string totp_secret;     // base32; empty until enrolled
  std::string totp_pending;    // an enrolment not confirmed yet
  std::int64_t totp_step = 0;  // the last 30-second step whose code was used
  std::int64_t created_at = 0;
};
struct OperatorSummary {
  std::string id, name, role;
  bool totp = false;
  std::int64_t created_at = 0;
  std::int64_t sessions = 0;      // live now
  std::int64_t last_sign_in = 0;  // the newest session's start; 0: never
};
struct OperatorSessionRecord {
  std::string token_hash;
  std::string operator_id;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::string address;
};

// A ban in force.
struct BanRecord {
  std::string player_id;
  std::string reason;
  std::int64_t until = 0;  // Unix ms it ends; 0: until it is lifted
  std::int64_t at = 0;
};

// A player's report of another.
struct ReportRecord {
  std::int64_t id = 0;
  std::string reporter;
  std::string reporter_name;
  std::string player_id;
  std::string player_name;
  std::string reason;  // name, cheating or abuse
  std::string note;
  std::int64_t at = 0;
  std::int64_t resolved_at = 0;  // 0: open
  std::string resolution;
};

// A game's signals of computer-assisted play, as kept (server/game/assist_signals.hpp); the
// player's name is filled in when read.
struct SignalRecord {
  std::string game_id;
  std::string player_id;
  std::string player_name;
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  std::int64_t score = 0;
  double moves_per_second = 0;
  double spread = 0;
  std::optional<double> match_rate;
  int sampled = 0;
  double suspicion = 0;
};

struct RaceRecord {
  std::string id;
  std::string room;
  std::string reason;
  std::string winner;  // empty for a draw
  std::string result;  // the race_over message as sent (JSON): standings, ratings, replays
  std::vector<GameRecord> games;
  std::vector<RatingUpdate> ratings;
  std::int64_t ended_at = 0;
  std::vector<BotOutcome> against_bots;  // a race with the computer: each person's result
  // Cluster mode: the ownership the recording node holds (ActiveRaceRecord::epoch) and where
  // it is reached; epoch 0 (a single node): not fenced.
  std::int64_t epoch = 0;
  std::string url;
};

// A finished game or race, as Store::record_finished takes them.
using Finished = std::variant<const GameRecord*, const RaceRecord*>;

// A solo game still being played, as journaled: enough to rebuild it by replay. Journaled in
// pieces, so a pass costs what was played since the last one, not the whole game: from = 0
// replaces the player's entry; from > 0 says moves continue the entry's first `from` moves.
struct ActiveGameRecord {
  std::string player_id;
  std::string game_id;
  engine::GameConfig config;
  bool explicit_seed = false;
  std::string moves;
  std::int64_t started_at = 0;
  std::size_t from = 0;
  // A daily game: its day (a practice game's too: its seed is the day's), whether it is the
  // player's ranked attempt (find_active reads that from the attempt), and for journal, where
  // a ranked one stands, for its board.
  std::string daily;
  bool daily_ranked = false;
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  int move_count = 0;
  // A shared store: the entry's fencing token — the node that resumes a game from the journal
  // (find_active) takes the entry under its next epoch; a write under an earlier one is refused.
  std::int64_t epoch = 1;
};

// One racer of a running race, as journaled: the game is rebuilt from the race's seed and
// these moves; state says whether it ended by resigning or forfeiting (no move shows that).
struct ActiveRacerRecord {
  std::string player_id;
  std::string game_id;
  std::string moves;
  engine::GameState state = engine::GameState::playing;
  bool left = false;  // dropped out: kept for the standings only
};

// A race's settings, as journaled (a room's options, PROTOCOL.md §5, less the computer: a
// restored race seats whoever raced).
struct RaceOptionsRecord {
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  std::int64_t target = 2048;  // 0 for fifteen
  int time_limit = 300;        // seconds
  int max_players = 2;
  bool is_public = false;
  int max_moves_per_second = 0;  // 0: no cap
  std::string tournament;        // a tournament's match: its code (RoomOptions::tournament)
};

// A running race, as journaled: enough to rebuild it after a restart and let it go on.
struct ActiveRaceRecord {
  std::string id;  // the race id it will be recorded under
  std::string room;
  RaceOptionsRecord options;
  std::uint64_t seed = 0;
  std::string host;
  std::int64_t started_at = 0;    // Unix milliseconds
  std::int64_t remaining_ms = 0;  // race time left when journaled
  std::vector<ActiveRacerRecord> racers;
  // Cluster mode: the race's fencing token — 1 for the node that started it, one more at each
  // adoption (Store::adopt_races) — and where its owner is reached. A node writes and records
  // a race only under the epoch it holds; 0 (a single node): not fenced.
  std::int64_t epoch = 0;
  std::string url;
};

// How a recorded race ended, as a tournament rebuilt from the store reads its match from it.
struct RaceOutcome {
  // Each racer's place (0 is first; equal results share a place), best first; empty when the
  // operator closed the room.
  std::vector<std::pair<std::string, int>> places;
  bool closed = false;  // the operator closed the room: nobody played it to the end
};

// Who runs a race now, as the store says: its node, epoch and URL.
struct RaceOwner {
  std::string node;
  std::int64_t epoch = 0;
  std::string url;
};

// A race this node ran under an epoch it no longer holds: adopted by another node, or
// recorded there.
struct LostRace {
  std::string race_id;
  RaceOwner owner;
};

// record_race refused: the race belongs to another owner (adopted or recorded elsewhere).
class RaceLost : public std::runtime_error {
 public:
  explicit RaceLost(RaceOwner owner)
      : std::runtime_error("the race is " + owner.node + "'s now (epoch " +
                           std::to_string(owner.epoch) + ")"),
        owner_(std::move(owner)) {}
  const RaceOwner& owner() const noexcept { return owner_; }

 private:
  RaceOwner owner_;
};

enum class BoardKind : std::uint8_t { score, rating, daily };

struct LeaderboardQuery {
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  BoardKind kind = BoardKind::score;
  int limit = 10;
  std::string player_id;    // whose own entry to return as `me`; may be empty
  protocol::Period period;  // score boards only: the rating board is all-time
};

// The board a leaderboard query asks for.
inline BoardId board_of(const LeaderboardQuery& q) {
  return q.kind == BoardKind::rating ? kRatingBoard : BoardId{q.mode, q.size, false, q.period};
}

// The periods besides all time whose score boards a result ended at ended_at (Unix ms) is on.
inline std::array<protocol::Period, 2> periods_of(std::int64_t ended_at) {
  return {protocol::period_containing(protocol::PeriodKind::day, ended_at),
          protocol::period_containing(protocol::PeriodKind::week, ended_at)};
}

struct Leaderboard {
  std::vector<BoardEntry> entries;
  std::optional<BoardEntry> me;
};

// Whether a finished game goes on the score leaderboard: ranked, solo, and (Fifteen) solved.
inline bool eligible_for_board(const GameRecord& g) {
  return g.ranked && g.room.empty() && g.daily.empty() &&
         (g.config.mode != engine::Mode::fifteen || g.state == engine::GameState::solved);
}

// A game state as stored (engine::to_string); an unknown name reads as over.
inline engine::GameState state_from_column(std::string_view name) {
  for (auto s : {engine::GameState::playing, engine::GameState::over, engine::GameState::solved,
                 engine::GameState::resigned, engine::GameState::forfeited}) {
    if (engine::to_string(s) == name) return s;
  }
  return engine::GameState::over;
}

class StoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Store {
 public:
  virtual ~Store() = default;
  // How many calls may run at once (threads of the StoreWorker): 1 unless the store says more.
  virtual int concurrency() const { return 1; }
  // Throws StoreUnavailable when the database cannot be reached right now.
  virtual void ping() {}
  // Adds player with their first session (none for the computer opponents), at once. False,
  // and nothing written, when another player holds the name's key; adding the same player
  // again changes nothing (true).
  virtual bool add_player(const PlayerRecord& player,
                          const std::optional<SessionRecord>& session) = 0;
  virtual std::optional<PlayerRecord> find_player(std::string_view id) = 0;

  // Guest names come free (docs/operations.md, "Accounts and names"): when every player holding
  // name's keys is a guest last used before unused_since — their creation, a session's last
  // sign-in, a game's end — each is renamed to a generated name (their old one kept in
  // old_names, and in released_name until they are told), and true; else false, nothing
  // changed.
  virtual bool release_guest_name(std::string_view name, std::int64_t unused_since,
                                  std::int64_t now) = 0;

  // Accounts (docs/protocol.md, "Accounts"). The player a session's token hash signs in
  // (their id, current name, and the guest name they lost if not told yet: told by this call,
  // the next says ""), marking the session seen at now from address; nullopt for no such
  // session.
  virtual std::optional<SessionOwner> session_player(std::string_view token_hash, std::int64_t now,
                                                     std::string_view address = {}) = 0;
  virtual void add_session(const SessionRecord& session) = 0;
  // player_id's sessions, oldest first.
  virtual std::vector<SessionRecord> sessions(std::string_view player_id) = 0;
  virtual void end_session(std::string_view token_hash) = 0;
  // Ends every session of player_id except keep; the token hashes of those ended.
  virtual std::vector<std::string> end_other_sessions(std::string_view player_id,
                                                      std::string_view keep) = 0;
  // One live connection per player, cluster-wide: a welcome's connection takes the player's
  // next epoch (above every earlier connection's, on any node), returned.
  virtual std::int64_t take_connection(std::string_view player_id) = 0;
  // For each of players, their newest connection's epoch and their name; and which of
  // sessions (token hashes) have not ended. One read, however many are asked.
  virtual ConnectionStates check_connections(const std::vector<std::string>& players,
                                             const std::vector<std::string>& sessions) = 0;
  // Who holds the name with this key, and their password hash.
  virtual std::optional<Credentials> credentials(std::string_view name_key) = 0;
  // Sets player_id's password hash (registering them, or a new password) at at.
  virtual void set_password(std::string_view player_id, std::string_view password_hash,
                            std::int64_t at) = 0;
  // Renames player_id at at, keeping their old name for moderation. False, and nothing
  // written, when another player holds the key.
  virtual bool rename(std::string_view player_id, std::string_view name, std::string_view key,
                      std::int64_t at) = 0;
  // A link code (or a password reset's) for player_id, kept only as its hash (code_hash).
  virtual void add_link_code(std::string_view code, std::string_view player_id,
                             std::int64_t expires_at) = 0;
  // The player a link code signs in, once: the code is spent whether or not it is still valid
  // at now. nullopt for an unknown, spent or expired code.
  virtual std::optional<std::string> take_link_code(std::string_view code, std::int64_t now) = 0;
  // Friends. Applies action by player to their pair with other (both exist) in one transaction,
  // the limits counted inside it.
  virtual FriendChangeRecord change_friendship(std::string_view player, std::string_view other,
                                               FriendAction action, std::int64_t at) = 0;
  // Everyone player has a link with (theirs or, for a request to player, the other's), by name.
  virtual std::vector<FriendRecord> friends_of(std::string_view player) = 0;
  // The daily challenge. The value kept under name: the stored one, or candidate, stored now
  // when there was none (so every node sharing the store gets the same).
  virtual std::string server_secret(std::string_view name, std::string_view candidate) = 0;
  // Claims the ranked attempt of attempt's player at its day and mode for its game: true when
  // this is their first (it is now on the day's board), false when they had one.
  virtual bool claim_daily(const DailyAttempt& attempt) = 0;
  // The attempt of game_id is over as it stands (abandoned with nothing journaled).
  virtual void finish_daily(std::string_view game_id) = 0;
  // Every ranked attempt of a day, by mode, best first.
  virtual std::vector<DailyAttempt> daily_attempts(std::string_view day) = 0;
  // The ranked attempts of days before day that never finished (abandoned), with the
  // player's journaled game where there is one (nullopt when nothing was played).
  virtual std::vector<std::pair<DailyAttempt, std::optional<ActiveGameRecord>>> open_dailies(
      std::string_view day) = 0;
  // Records finished games and races together, in one unit of work, as record_game and
  // record_race would one after another; returns what each granted, in order. All or nothing:
  // when it throws, none is recorded. (Group commit: the StoreWorker gathers what ends close
  // together.)
  virtual std::vector<std::vector<Grant>> record_finished(std::span<const Finished> items) = 0;
  // record_finished of item alone: what it granted.
  std::vector<Grant> record_one(Finished item) {
    return std::move(record_finished(std::span(&item, 1)).front());
  }
  // Records a finished game (and drops its journal entry); the same id again changes nothing.
  // Returns the achievements it granted (in the same transaction): none for a repeat.
  std::vector<Grant> record_game(const GameRecord& game) { return record_one(&game); }
  virtual std::optional<GameRecord> find_game(std::string_view id) = 0;
  // Records a finished race, its games and the racers' new ratings, all at once, and drops its
  // journal entry; recording the same race id again changes nothing. Returns the achievements
  // its games granted, as record_game does. Fenced (race.epoch > 0): throws RaceLost, writing
  // nothing, when the race's journal entry has another owner or another owner recorded it.
  std::vector<Grant> record_race(const RaceRecord& race) { return record_one(&race); }
  // Saves the current moves of active solo games: an entry with from = 0 replaces its player's
  // older one, a later piece (from > 0) extends the entry of the same game. An entry whose
  // game is already recorded as finished is skipped, and so is a piece without its entry.
  // A shared store also skips a game another node resumed (its entry under another node or
  // epoch): those games are returned (by id), unwritten.
  virtual std::vector<std::string> journal(const std::vector<ActiveGameRecord>& games) = 0;
  // The whole game: the entry and its pieces, joined. A shared store makes the entry this
  // node's, under its next epoch (the one returned): the node that ran it before can write it
  // no more.
  virtual std::optional<ActiveGameRecord> find_active(std::string_view player_id) = 0;
  // A shared store: player_id's journaled game when it is no longer game_id under this node and
  // epoch (another node resumed it, or another game replaced it) — taken as find_active takes
  // it; nullopt when this node's copy is the current one (or nothing is journaled).
  virtual std::optional<ActiveGameRecord> reclaim_active(
      [[maybe_unused]] std::string_view player_id, [[maybe_unused]] std::string_view game_id,
      [[maybe_unused]] std::int64_t epoch) {
    return std::nullopt;
  }
  // Saves running races (replacing their older entries); a race already recorded is skipped.
  // Fenced races (epoch > 0) are written only while this node holds their epoch; the others
  // are returned, unwritten, with their owner now.
  virtual std::vector<LostRace> journal_races(const std::vector<ActiveRaceRecord>& races) = 0;
  // Every journaled race not yet recorded.
  virtual std::vector<ActiveRaceRecord> active_races() = 0;
  // A running race of room that will never have a result (the operator closed the room at
  // at): kept among the races as "closed", so that no journal pass brings it back, and gone
  // from the journal.
  virtual void drop_race(std::string_view race_id, std::string_view room, std::int64_t at) = 0;
  // Cluster mode: the journaled races of node (found dead, or this node's own previous run)
  // become this node's (reached at url), each under its next epoch (its own keep theirs), in
  // one statement, and are
  // returned to be run here. A race moves once: two nodes adopting the same node's races at
  // once never both get one, and the node that ran them can write them no more. Only a
  // shared store has other nodes' races.
  virtual std::vector<ActiveRaceRecord> adopt_races([[maybe_unused]] std::string_view node,
                                                    [[maybe_unused]] std::string_view url) {
    return {};
  }
  // Cluster mode: the room of the journaled running race player_id races in (not left), on
  // whichever node; nullopt if none.
  virtual std::optional<std::string> race_room_of([[maybe_unused]] std::string_view player_id) {
    return std::nullopt;
  }
  // Tournaments (server/store/tournament_record.hpp). Saves each, replacing its older entry.
  // A shared store writes one only while this node holds it under its epoch (as a race): the
  // codes of the others (another node adopted them) are returned, unwritten.
  virtual std::vector<std::string> journal_tournaments(
      const std::vector<TournamentRecord>& tournaments) = 0;
  // This node's journaled tournaments that are still open (waiting or running), oldest first.
  virtual std::vector<TournamentRecord> open_tournaments() = 0;
  // Cluster mode: node's open tournaments become this node's (reached at url), each under its
  // next epoch (its own keep theirs), in one statement, as adopt_races does for races.
  virtual std::vector<TournamentRecord> adopt_tournaments([[maybe_unused]] std::string_view node,
                                                          [[maybe_unused]] std::string_view url) {
    return {};
  }
  // Cluster mode: the code of the open tournament player_id is in (not left), on whichever
  // node; nullopt if none.
  virtual std::optional<std::string> tournament_of([[maybe_unused]] std::string_view player_id) {
    return std::nullopt;
  }
  // How the first race recorded in room that ended at or after since (Unix ms) ended;
  // nullopt when none did.
  virtual std::optional<RaceOutcome> race_in_room(std::string_view room, std::int64_t since) = 0;
  virtual Leaderboard leaderboard(const LeaderboardQuery& query) = 0;
  // player_id's profile, or nullopt for no such player.
  virtual std::optional<Profile> profile(std::string_view player_id) = 0;
  // player_id's records against the computer, easiest strength first; none never raced it.
  virtual std::vector<BotRecord> bot_records(std::string_view player_id) = 0;

  // Moderation (docs/operations.md, "Moderation"). Each action and its audit entry are
  // written in one transaction. A banned player is on no board (score, rating, daily, the
  // day's results) until unbanned; nothing of theirs is deleted. ban replaces a ban in force.
  virtual void ban(const BanRecord& ban, const AuditEntry& entry) = 0;
  // False, and nothing written, when player_id was not banned.
  virtual bool unban(std::string_view player_id, const AuditEntry& entry) = 0;
  // The ban on player_id in force at now.
  virtual std::optional<BanRecord> ban_of(std::string_view player_id, std::int64_t now) = 0;
  // Lifts the bans whose end has come by now, each with an audit entry; returns the players.
  virtual std::vector<std::string> lift_expired_bans(std::int64_t now) = 0;
  // Takes game_id off every board (hidden) or puts it back; the player's bests are worked out
  // again from their other games. False, and nothing written, for no such game or no change.
  virtual bool hide_game(std::string_view game_id, bool hidden, const AuditEntry& entry) = 0;
  // Appends entry to the audit log (for actions the store does not carry out itself).
  virtual void audit(const AuditEntry& entry) = 0;
  // The audit log, newest first: at most limit entries with ids below before_id.
  virtual std::vector<AuditEntry> audit_log(std::int64_t before_id, int limit) = 0;
  // Files report; false, and nothing written, when its reporter reported that player on that
  // day already.
  virtual bool add_report(const ReportRecord& report, std::string_view day) = 0;
  // Reports (only open ones when open_only), newest first.
  virtual std::vector<ReportRecord> reports(bool open_only, int limit) = 0;
  // Resolves an open report; false for no such open report.
  virtual bool resolve_report(std::int64_t id, std::string_view resolution,
                              const AuditEntry& entry) = 0;
  // The players with a ban (in force, or over and not yet lifted).
  virtual std::vector<std::string> banned_players() = 0;
  // player_id's newest games (at most limit), each with whether it is hidden.
  virtual std::vector<std::pair<GameRecord, bool>> recent_games(std::string_view player_id,
                                                                int limit) = 0;
  // Ranked games (not the computer's) whose signals are not worked out yet, newest first.
  virtual std::vector<GameRecord> unanalysed_games(int limit) = 0;
  virtual void save_signals(const SignalRecord& signals, std::int64_t at) = 0;
  // The games with the highest suspicion first.
  virtual std::vector<SignalRecord> suspicious_games(int limit) = 0;
  // Players whose id is query, or whose name (or a name they had) holds its key, by name.
  virtual std::vector<PlayerRecord> search_players(std::string_view query, int limit) = 0;
  // Operators (docs/operations.md, "Operators"). False, nothing written, when the key is taken.
  virtual bool add_operator(const OperatorRecord& op, std::string_view name_key) = 0;
  virtual std::optional<OperatorRecord> operator_named(std::string_view name_key) = 0;
  // Every operator, by name, with their sessions live at now.
  virtual std::vector<OperatorSummary> operators(std::int64_t now) = 0;
  virtual void set_totp_pending(std::string_view operator_id, std::string_view secret) = 0;
  // The pending secret becomes the one in use, its confirming code's step used; false when
  // nothing is pending or that step (or a later one) was used.
  virtual bool confirm_totp(std::string_view operator_id, std::int64_t step) = 0;
  // Uses a code's step, once for every node: false when it (or a later one) was used.
  virtual bool use_totp_step(std::string_view operator_id, std::int64_t step) = 0;
  virtual void add_operator_session(const OperatorSessionRecord& session) = 0;
  // The operator whose session has this hash, unless it expired by now or was ended.
  virtual std::optional<OperatorRecord> operator_of_session(std::string_view token_hash,
                                                            std::int64_t now) = 0;
  virtual void end_operator_session(std::string_view token_hash) = 0;
  // Ends every session of operator_id (their sign-out everywhere); how many there were.
  virtual std::int64_t end_operator_sessions(std::string_view operator_id) = 0;
  // Removes operator_id and their sessions; false when there was none.
  virtual bool remove_operator(std::string_view operator_id) = 0;

  // The names player_id had before, oldest first (name, until: Unix ms it was given up).
  virtual std::vector<std::pair<std::string, std::int64_t>> old_names(
      std::string_view player_id) = 0;
};

}  // namespace tilerace::server
