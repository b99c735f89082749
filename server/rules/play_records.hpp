#pragma once
// Games and races as the rules hand them to the store: a finished game or race to record, a
// game or race still being played as its journal keeps it (enough to rebuild it by replay), a
// daily attempt, and a game's signals of assisted play.
// The store writes and reads them (server/store/game_store.hpp); the rules only make them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/types.hpp"
#include "protocol/rating_variant.hpp"
#include "server/rules/glicko2.hpp"

namespace tilerace::server {

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
  // letter of moves, or none (a race game resumed after a restart keeps no times).
  std::vector<std::int32_t> times;
};

// A racer's rating in the race's variant: before (as it stood at the race's end, idle
// growth included) and after; the race's ended_at is the new rating's time.
struct RatingUpdate {
  std::string player_id;
  protocol::Variant variant = protocol::kDefaultVariant;
  glicko2::Rating before;
  glicko2::Rating after;
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
  // When each letter of moves was played (ms from started_at), one per letter; empty when
  // not known (a game whose times were lost, journaled before they were kept).
  std::vector<std::int32_t> times;
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

// A game's signals of computer-assisted play, as the rules work them out
// (server/rules/assist_signals.hpp) and the store keeps them (ModerationStore); the player's
// name is filled in when read.
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

}  // namespace tilerace::server
