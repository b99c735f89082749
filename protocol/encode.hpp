#pragma once
// Server messages → JSON text. Every function returns one complete message, ready to send
// (and, for broadcasts, to share between recipients). Client-derived strings are escaped
// safely; invalid UTF-8 is replaced, never thrown on.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/game.hpp"
#include "protocol/messages.hpp"

namespace tilerace::protocol {

struct PlayerInfo {
  std::string_view id;
  std::string_view name;
  bool bot = false;  // a bot account (docs/bots.md): "bot":true
};

// A game as PROTOCOL.md §2 "G" describes it.
struct GameView {
  std::string_view id;
  const engine::Game& game;
  bool ranked;
  std::string_view daily = {};  // a daily challenge game: its day (our addition)
  bool day_over = false;        // a daily game that ended with its day (our addition)
};

// registered: the player has an account (a password); device_mark: this device's mark, when
// it signed in (docs/protocol.md, "Sign-in limits"; absent when empty); name_released: the
// guest name they lost for not playing (docs/protocol.md, "Accounts"; absent when empty); all
// ours, additive.
std::string encode_welcome(PlayerInfo player, std::string_view token, bool resumed, bool registered,
                           std::string_view device_mark, std::string_view name_released,
                           const Rid& rid);
// Accounts (our addition; docs/protocol.md, "Accounts").
struct SessionView {
  std::string id;  // a short name for the session (never the token)
  std::int64_t created_at = 0;
  std::int64_t last_seen = 0;
  std::string device;
  bool current = false;  // the session of the connection asking
};
std::string encode_registered(PlayerInfo player, const Rid& rid);
std::string encode_renamed(PlayerInfo player, const Rid& rid);
std::string encode_sessions(const std::vector<SessionView>& sessions, const Rid& rid);
std::string encode_logged_out(const Rid& rid);
std::string encode_link_code(std::string_view code, std::int64_t expires_at, const Rid& rid);
// Bot accounts (docs/bots.md): upgraded {player}; a new token, shown once; the tokens, without
// their secrets; a revoked token's id.
std::string encode_upgraded(PlayerInfo player, const Rid& rid);
std::string encode_bot_token(std::string_view token, std::string_view id, const Rid& rid);
struct BotTokenView {
  std::string id;
  std::int64_t created_at = 0;
  std::int64_t last_used = 0;  // 0: never
};
std::string encode_bot_tokens(const std::vector<BotTokenView>& tokens, const Rid& rid);
std::string encode_bot_token_revoked(std::string_view id, const Rid& rid);
std::string encode_pong(const Rid& rid);
std::string encode_game(const GameView& game, const Rid& rid);
// The messages of every move. buffer: a string whose capacity the text reuses (the server's
// recycled buffers: protocol/message_pool.hpp), so that a move allocates nothing.
std::string encode_moved(const GameView& game, std::optional<engine::Direction> dir,
                         const engine::MoveOutcome& outcome, const Rid& rid,
                         std::string buffer = {});
// Rooms and races (PROTOCOL.md §5–§6).
struct RoomPlayerView {
  std::string id;
  std::string name;
  bool ready = false;
  bool connected = true;
  std::int64_t score = 0;  // in the rooms list: the race score so far
  bool ghost = false;      // the ghost racer of a ghost room
  bool slow = false;       // their round trip is long (our addition; RaceState::round_trip)
  bool bot = false;        // a bot account, the computer's included (docs/bots.md)
  // In the rooms list, while a race runs: the racer's board, row by row (size × size cells;
  // empty elsewhere). Our addition, for the lobby's miniature live boards.
  std::vector<std::int64_t> cells;
};
// Owns its data: a room's view outlives the lock it was taken under.
struct RoomView {
  std::string code;
  std::string host;
  RoomOptions options;
  std::string state;  // waiting, countdown or racing
  std::vector<RoomPlayerView> players;
  int spectators = 0;
  int grace = 0;  // seconds a racer who dropped keeps their place (our addition; 0: not said)
};
struct RacerGame {
  std::string_view player;
  GameView game;
};
struct Standing {
  std::string_view player;
  std::string name;  // owned: a player's name is read as a copy (it may change)
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  int moves = 0;
  engine::GameState state = engine::GameState::playing;
  int place = 0;     // 0 is first; equal results share a place
  bool bot = false;  // a bot account
};
// A racer's rating in the race's variant, before and after (whole points); rd_* are the
// deviations; provisional: the after's deviation is at or above 110.
struct RatingChange {
  std::string_view player;
  int before = 0;
  int after = 0;
  int rd_before = 0;
  int rd_after = 0;
  bool provisional = false;
};
struct ReplayLink {
  std::string_view player;
  std::string_view game;
};
// A ghost race's result: the run raced (a game of player, named name), the ghost's score when
// the race ended, and each other racer's margin: their score minus the ghost's.
struct GhostResult {
  std::string_view game;
  std::string_view player;
  std::string name;
  std::int64_t score = 0;
  std::vector<std::pair<std::string_view, std::int64_t>> margins;
};
struct RaceOverView {
  std::string_view code;
  std::string_view reason;  // target, time, all_over or forfeit
  std::optional<std::string_view> winner;
  std::string_view variant;  // the rating variant (protocol/rating_variant.hpp)
  std::vector<Standing> standings;
  std::vector<RatingChange> ratings;
  std::vector<ReplayLink> replays;
  std::optional<GhostResult> ghost;
};

std::string encode_room(const RoomView& room, const Rid& rid);
// {"type":"room_closed","code","reason"}: the operator closed the room (our addition).
std::string encode_room_closed(std::string_view code, std::string_view reason);
// {"type":"kicked","code"}: the host sent you out of their waiting room (our addition).
std::string encode_kicked(std::string_view code);
std::string encode_rooms(const std::vector<RoomView>& rooms, const Rid& rid);
// Cluster mode: one node's public rooms as a JSON array of `rooms` entries, and `rooms` for
// this node's rooms followed by such lists from other nodes (trusted: our nodes made them;
// one that is not an array is skipped).
std::string encode_room_list(const std::vector<RoomView>& rooms);
std::string encode_rooms(const std::vector<RoomView>& local, const std::vector<std::string>& remote,
                         const Rid& rid);
// Our addition (cluster mode): the room is on another node; reconnect to url and go on there.
// reason: "join_room" or "spectate" (repeat the request there) or "quick_match" (paired).
std::string encode_redirect(std::string_view url, std::string_view code, std::string_view reason,
                            const Rid& rid);
std::string encode_countdown(std::string_view code, int seconds);
std::string encode_race_start(std::string_view code, int time_limit,
                              const std::vector<RacerGame>& games);
std::string encode_race_state(std::string_view code, std::int64_t remaining_ms,
                              const std::vector<RacerGame>& games, const Rid& rid);
// bot: the mover is a bot account ("bot":true).
std::string encode_race_update(std::string_view code, std::string_view player, bool bot,
                               const engine::Game& game, const engine::MoveOutcome& outcome,
                               std::string buffer = {});
std::string encode_race_over(const RaceOverView& result);
// request.period is the period answered (period_at applied; current is not read).
std::string encode_leaderboard(const LeaderboardRequest& request,
                               const std::vector<LeaderboardEntry>& entries,
                               const std::optional<LeaderboardEntry>& me, const Rid& rid);

// GET /api/replays/<id> (PROTOCOL.md §7).
struct ReplayView {
  std::string_view id;
  const engine::GameConfig& config;
  std::string_view moves;
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  engine::GameState state = engine::GameState::over;
  PlayerInfo player;
  std::int64_t ended_at = 0;
  std::span<const std::int32_t> times = {};  // per move letter, ms from the start; none: left out
};
std::string encode_replay(const ReplayView& replay);

// GET /api/players/<id> (our addition): a player's profile.
// An achievement a player holds: what it is called and asks, and the game that earned it.
struct AchievementView {
  std::string_view id;
  std::string_view title;
  std::string_view description;
  std::string_view game_id;
  std::int64_t at = 0;  // Unix ms the game ended
};
// {"type":"achievement","achievement":{"id","title","description","game","at"}}: sent to the
// player when a recorded game earned it, once.
std::string encode_achievement(const AchievementView& achievement);

struct ProfileView {
  struct Result {  // a best result, or a race game (room set); game_id is its replay
    std::string_view game_id;
    std::string_view room;
    engine::Mode mode = engine::Mode::classic;
    int size = 4;
    std::int64_t score = 0;
    std::int64_t max_tile = 0;
    int moves = 0;
    engine::GameState state = engine::GameState::over;
    std::int64_t at = 0;
    std::string_view outcome;  // a race game: won, lost or draw (empty: not known)
  };
  struct RatingPoint {  // a rating after a race; rd 0: from before Glicko-2
    std::int64_t at = 0;
    int rating = 0;
    int rd = 0;
  };
  struct VariantRating {  // a variant's rating now, its record, and its history (oldest first)
    Variant variant = kDefaultVariant;
    int rating = 0;
    int rd = 0;
    bool provisional = true;
    int races = 0;
    int wins = 0;
    int losses = 0;
    std::vector<RatingPoint> history;
  };
  PlayerInfo player;
  int wins = 0;
  int losses = 0;
  std::int64_t created_at = 0;
  int games = 0;
  std::vector<Result> bests;
  // Every variant, in kVariants' order: the default's is also the profile's "rating", "rd",
  // "provisional" and "rating_history".
  std::vector<VariantRating> ratings;
  std::vector<Result> races;                  // newest first
  std::vector<AchievementView> achievements;  // in the order they were granted
  int daily_streak = 0;                       // days in a row with a daily attempt, up to today
  int longest_daily_streak = 0;
};
std::string encode_profile(const ProfileView& profile);

// {"type":"queued","variant","rating","rd","window","window_step","window_every_ms",
// "window_max"}: quick match queued the player, looking for an opponent rated within ±window
// of rating, the window growing by window_step every window_every_ms up to window_max.
struct QueuedView {
  Variant variant = kDefaultVariant;
  int rating = 0;
  int rd = 0;
  int window = 0;
  int window_step = 0;
  std::int64_t window_every_ms = 0;
  int window_max = 0;
};
std::string encode_queued(const QueuedView& queued, const Rid& rid);

// A message with only a type (match_cancelled, stopped) and the rid.
std::string encode_bare(std::string_view type, const Rid& rid);
// Our addition: the direct reply to leave_room.
std::string encode_left(std::string_view code, const Rid& rid);
// {"type":"bot_record","records":{"easy":{"wins","losses","draws"},"medium":…,"hard":…}}: every
// strength, zeros for one never raced.
// {"type":"emote","code","player","emote"}: a racer's emote, to the room and its spectators.
std::string encode_emote(std::string_view code, std::string_view player, Emote emote,
                         const Rid& rid);
std::string encode_bot_record(const std::vector<BotRecordView>& records, const Rid& rid);

std::string encode_error(const ProtocolError& error, const Rid& rid);
std::string encode_error(ErrorCode code, std::string_view message, const Rid& rid);
std::string encode_shutdown();

}  // namespace tilerace::protocol
