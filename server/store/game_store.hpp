#pragma once
// The store's games and races: finished ones as recorded (with the ratings and achievements
// they change), and the journal of solo games and races still being played, with the fencing
// that keeps one owner per race in cluster mode.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/types.hpp"
#include "server/rules/play_records.hpp"
#include "server/store/account_store.hpp"

namespace tilerace::server {

// An achievement (server/achievements.hpp) as a player holds it: granted once, by the game
// that earned it first.
struct Grant {
  std::string player_id;
  std::string achievement;  // its id
  std::string game_id;
  std::int64_t at = 0;  // Unix ms the game ended
};

// A race game on a profile, with how its race ended for the player.
struct RaceGameRecord {
  GameRecord game;
  std::string outcome;  // won, lost or draw; empty when its race is not recorded
};

// A player's record in one rating variant (their rating there: PlayerRecord::ratings).
struct VariantStanding {
  protocol::Variant variant = protocol::kDefaultVariant;
  int races = 0;
  int wins = 0;
  int losses = 0;
};

// A rating after a race, whole points (rd 0: recorded before Glicko-2, unknown).
struct RatingPoint {
  protocol::Variant variant = protocol::kDefaultVariant;
  std::int64_t at = 0;  // Unix ms
  int rating = 0;
  int rd = 0;
};

// What a player's profile shows (GET /api/players/<id>).
struct Profile {
  PlayerRecord player;                     // their ratings included
  int games = 0;                           // finished games recorded, solo and race
  std::vector<GameRecord> bests;           // best ranked solo result per mode and size (no moves)
  std::vector<VariantStanding> standings;  // each variant raced in: its races, wins, losses
  std::vector<RatingPoint> history;        // the rating after each rated race, oldest first
  std::vector<RaceGameRecord> races;       // their last 10 race games, newest first (no moves)
  std::vector<Grant> achievements;         // in the order they were granted
  std::vector<std::string> daily_days;     // the days they made a ranked daily attempt, in order
};

// A person's record against the computer of one strength.
struct BotRecord {
  engine::BotStrength strength = engine::BotStrength::medium;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  friend bool operator==(const BotRecord&, const BotRecord&) = default;
};

// A finished game or race, as Store::record_finished takes them.
using Finished = std::variant<const GameRecord*, const RaceRecord*>;

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

class GameStore {
 public:
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
  // Cluster mode: node's journaled race in room (node released it to this one) becomes this
  // node's as adopt_races makes them: returned alone, or none when node has none there (taken
  // meanwhile, or recorded).
  virtual std::vector<ActiveRaceRecord> adopt_race([[maybe_unused]] std::string_view node,
                                                   [[maybe_unused]] std::string_view room,
                                                   [[maybe_unused]] std::string_view url) {
    return {};
  }
  // Cluster mode: the room of the journaled running race player_id races in (not left), on
  // whichever node; nullopt if none.
  virtual std::optional<std::string> race_room_of([[maybe_unused]] std::string_view player_id) {
    return std::nullopt;
  }
  // How the first race recorded in room that ended at or after since (Unix ms) ended;
  // nullopt when none did.
  virtual std::optional<RaceOutcome> race_in_room(std::string_view room, std::int64_t since) = 0;
  // player_id's profile, or nullopt for no such player.
  virtual std::optional<Profile> profile(std::string_view player_id) = 0;
  // player_id's records against the computer, easiest strength first; none never raced it.
  virtual std::vector<BotRecord> bot_records(std::string_view player_id) = 0;

 protected:
  ~GameStore() = default;
};

}  // namespace tilerace::server
