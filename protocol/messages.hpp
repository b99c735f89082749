#pragma once
// Typed client messages of PROTOCOL.md and the error vocabulary of §8. Produced only by
// protocol::decode_client, so everything here has already been validated.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "engine/types.hpp"
#include "protocol/period.hpp"
#include "protocol/rating_variant.hpp"

namespace tilerace::protocol {

enum class ErrorCode : std::uint8_t {
  bad_json,
  unknown_type,
  bad_field,
  not_hello,
  already_hello,
  bad_token,
  no_game,
  game_over,
  stale,
  not_allowed,
  no_such_room,
  room_full,
  race_running,
  already_in_room,
  not_in_room,
  not_started,
  not_a_player,
  rate_limited,
  internal,
  unavailable,      // our addition: what needs the cluster directory (Redis) cannot be done now
  name_taken,       // our addition (accounts): another player has this name
  bad_credentials,  // our addition (accounts): no such name, or the wrong password
  // our additions (friends; docs/protocol.md, "Friends")
  no_such_player,     // no player with that name or id
  not_friends,        // what needs a friendship (challenge, follow, accept) without one
  offline,            // the friend is not connected anywhere
  no_such_challenge,  // unknown, expired or answered already
  no_such_game,       // our addition (ghost races): no recorded game with that id
  banned,             // our addition (moderation): the player is banned
  // our additions (tournaments; docs/protocol.md, "Tournaments")
  no_such_tournament,     // no tournament with that code
  tournament_full,        // it has max_players players
  tournament_started,     // joining, or starting, a tournament that has begun
  already_in_tournament,  // a player is in one tournament at a time
  not_in_tournament,      // leave or start from a player in none
};
// How many error codes there are: one past the last.
inline constexpr std::size_t kErrorCodes =
    static_cast<std::size_t>(ErrorCode::not_in_tournament) + 1;
std::string_view to_string(ErrorCode code) noexcept;

// A client's request id: absent, a string of at most 64 characters, or an integer.
using Rid = std::variant<std::monostate, std::string, std::int64_t>;

struct Hello {
  // A new guest's name (protocol/names.hpp); without one (and without token or link code) the
  // server makes one up. Ignored with a token or a link code.
  std::optional<std::string> name;
  std::optional<std::string> token;
  std::optional<std::string> link_code;  // kLinkCodeLength characters of kRoomCodeAlphabet
  // A bot's API token (docs/bots.md); the upgrade's Authorization: Bearer stands for it.
  std::optional<std::string> bot_token;
  std::string device;  // the client's label for this device; may be empty
};
// Accounts (our addition; docs/protocol.md, "Accounts").
struct Register {
  std::string password;  // checked (protocol/passwords.hpp)
};
struct Login {
  std::string name;
  std::string password;  // at most kMaxPasswordChars; not checked for strength
  std::string device;
  std::string device_mark;  // a welcome's device_mark, as given (at most kMaxDeviceMarkBytes)
};
struct SessionsRequest {};
struct Logout {};
struct LogoutAll {};
struct ChangePassword {
  std::string old_password;
  std::string password;  // checked (protocol/passwords.hpp)
};
struct LinkCodeRequest {};
struct Rename {
  std::string name;  // checked as hello's (protocol/names.hpp)
};
// Bot accounts (our addition; docs/bots.md).
struct UpgradeToBot {
  std::string password;  // the account's, at most kMaxPasswordChars
};
struct BotTokenRequest {};   // a new API token
struct BotTokensRequest {};  // the tokens, listed without their secrets
struct RevokeBotToken {
  std::string id;  // kBotTokenIdLength hex digits
};
struct Ping {
  std::optional<std::int32_t> rtt;  // the client's last round trip, ms (our addition)
};
struct NewGame {
  engine::GameConfig config;  // seed filled only when explicit
  bool explicit_seed = false;
  bool daily = false;  // today's daily challenge (protocol/daily.hpp): config is its mode
};
struct Move {
  engine::Direction dir;
  std::optional<std::int32_t> at_move;
};
struct Slide {
  engine::Cell cell;
  std::optional<std::int32_t> at_move;
};
struct Undo {};
struct Resign {};

// Room settings (PROTOCOL.md §5) plus our addition, max_moves_per_second (0: no cap).
struct RoomOptions {
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  std::int64_t target = 2048;  // 0 for fifteen
  int time_limit = 300;        // seconds
  int max_players = 2;
  bool is_public = false;
  int max_moves_per_second = 0;
  // A bot's moves a second in a race with people (docs/bots.md, "Limits"): 0 for the server's
  // limit; else at most that.
  int bot_pace = 0;
  std::optional<engine::BotStrength> bot;  // create_room: seat the computer as a racer
  // create_room: race this recorded game's run (a game id); the room then has its mode, size
  // and target, and a ghost racer replaying it (docs/protocol.md, "Ghost races")
  std::optional<std::string> ghost;
  // A tournament's match room: the tournament's code (set by the server, never decoded). Its
  // one race decides the match, and the room closes after it.
  std::string tournament;
  // Quick match's bot queue (set by the server, never decoded): bots, and people who asked to
  // be matched with bots too (docs/bots.md).
  bool bot_queue = false;
};
struct CreateRoom {
  RoomOptions options;
};
struct JoinRoom {
  std::string code;  // upper-cased, from the room-code alphabet
};
struct LeaveRoom {};
struct Ready {
  bool ready = true;
};
struct QuickMatch {
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  bool bots = false;  // a person: match me with bots too (docs/bots.md, "Quick match")
};
struct CancelMatch {};
struct ListRooms {};
struct BotRecordRequest {};  // our addition: the player's record against the computer
// Our addition: a racer's reaction, relayed to the room. A fixed set, never free text.
enum class Emote : std::uint8_t { hi, gl, gg, nice, wow, oops };
std::string_view to_string(Emote e) noexcept;
std::optional<Emote> emote_from_string(std::string_view name) noexcept;
struct SendEmote {
  Emote emote;
};
struct Spectate {
  std::string code;
};
struct StopSpectating {};

// Friends (our addition; docs/protocol.md, "Friends"). Every friendship change is one message
// naming the other player by id (player) or, where allowed, by name.
enum class FriendVerb : std::uint8_t { request, accept, decline, remove, block, unblock };
struct FriendChange {
  FriendVerb verb = FriendVerb::request;
  std::string player;  // their id; empty when named
  std::string name;    // request and block only: their name instead of player
};
struct FriendsRequest {};
struct Challenge {
  std::string player;
  RoomOptions options;  // mode, size, target, time_limit; a private room for two
};
// Why a challenge was declined (our addition, for bots; docs/bots.md).
enum class DeclineReason : std::uint8_t { generic, later, no_bots, only_bots, settings };
std::string_view to_string(DeclineReason reason) noexcept;
struct ChallengeAnswer {
  std::string id;
  bool accept = true;
  std::optional<DeclineReason> reason;  // a decline's, if given
};
struct Rematch {};
struct SpectatePlayer {
  std::string player;
};
// Moderation (docs/protocol.md, "Moderation"): a player reports another to the operator; the
// host of a waiting room sends a racer out of it.
enum class ReportReason : std::uint8_t { name, cheating, abuse };
std::string_view to_string(ReportReason reason) noexcept;
struct Report {
  std::string player;
  ReportReason reason = ReportReason::abuse;
  std::string note;  // at most kMaxNoteChars characters
};
struct Kick {
  std::string player;
};

// Tournaments (our addition; docs/protocol.md, "Tournaments").
enum class TournamentFormat : std::uint8_t { single_elimination, swiss, arena };
std::string_view to_string(TournamentFormat format) noexcept;
struct TournamentOptions {
  TournamentFormat format = TournamentFormat::single_elimination;
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  std::int64_t target = 2048;  // 0 for fifteen
  int time_limit = 180;        // each match's race, seconds
  int max_players = 16;
  bool is_public = false;
  std::optional<std::int64_t> starts;  // Unix ms the clock starts it at; none: the host does
  int rounds = 5;                      // Swiss
  bool third_place = false;            // single elimination
  int duration = 1800;                 // arena, seconds
  int room_size = 2;                   // Swiss and arena: up to 4 race all against all
  bool bots = false;                   // bot accounts may join (docs/bots.md)
};
struct CreateTournament {
  TournamentOptions options;
};
struct JoinTournament {
  std::string code;
};
struct LeaveTournament {};
struct StartTournament {};
struct SpectateTournament {
  std::string code;
};

// daily: a day's daily challenge board (board "daily"), ranked by score, then fewer moves,
// then the earlier finish.
enum class LeaderboardKind : std::uint8_t { score, rating, daily };
struct LeaderboardRequest {
  engine::Mode mode = engine::Mode::classic;
  int size = 4;
  LeaderboardKind kind = LeaderboardKind::score;
  int limit = 10;        // 1–100
  Period period;         // all time unless asked
  bool current = false;  // "day" or "week": period.kind's period at the time of answering
  // kind rating: the variant ("variant", else the one mode and size are rated in), and
  // whether provisional ratings are listed too ("provisional")
  Variant variant = kDefaultVariant;
  bool provisional = false;
  bool bots = false;  // board "bots": the bots' rating board (docs/bots.md)
};

// The period a request asks for, answered at now_ms (Unix milliseconds).
inline Period period_at(const LeaderboardRequest& r, std::int64_t now_ms) {
  return r.current ? period_containing(r.period.kind, now_ms) : r.period;
}

// One row of a leaderboard as the wire shows it.
struct LeaderboardEntry {
  int rank = 0;  // 1 + the number of strictly better entries: ties share a rank
  std::string player_id;
  std::string name;
  // kind score (fifteen: score is the move count, fewer is better)
  std::int64_t score = 0;
  std::int64_t max_tile = 0;
  int moves = 0;
  std::string game_id;
  std::int64_t at = 0;  // Unix ms the game ended
  // kind rating: in the board's variant
  int rating = 0;
  int rd = 0;
  bool provisional = false;  // rd at or above 110
  bool listed = true;        // me only: false when the board leaves them out (provisional)
  int wins = 0;
  int losses = 0;
  bool bot = false;  // a bot account
};

using ClientMessage =
    std::variant<Hello, Ping, NewGame, Move, Slide, Undo, Resign, CreateRoom, JoinRoom, LeaveRoom,
                 Ready, QuickMatch, CancelMatch, ListRooms, Spectate, StopSpectating,
                 LeaderboardRequest, BotRecordRequest, SendEmote, Register, Login, SessionsRequest,
                 Logout, LogoutAll, ChangePassword, LinkCodeRequest, Rename, FriendChange,
                 FriendsRequest, Challenge, ChallengeAnswer, Rematch, SpectatePlayer, Report, Kick,
                 CreateTournament, JoinTournament, LeaveTournament, StartTournament,
                 SpectateTournament, UpgradeToBot, BotTokenRequest, BotTokensRequest,
                 RevokeBotToken>;

// A player's record against the computer of one strength (bot_record).
struct BotRecordView {
  engine::BotStrength strength = engine::BotStrength::medium;
  int wins = 0;
  int losses = 0;
  int draws = 0;
};

struct ProtocolError {
  ErrorCode code = ErrorCode::internal;
  std::string message;              // for people; clients switch on code
  std::string field;                // set with bad_field
  std::int64_t retry_after_ms = 0;  // rate_limited sign-ins: when to try again; 0: not said
  std::string reason;               // a refused name's (protocol/names.hpp NameReason); or empty
};

struct Decoded {
  std::variant<ClientMessage, ProtocolError> result;
  Rid rid;  // echoed in the reply, also when result is an error

  bool ok() const noexcept { return result.index() == 0; }
  const ClientMessage& message() const { return std::get<ClientMessage>(result); }
  const ProtocolError& error() const { return std::get<ProtocolError>(result); }
};

inline constexpr int kMaxDepth = 8;  // nesting levels of arrays and objects
inline constexpr int kMaxNameChars = 20;
inline constexpr int kMaxRidChars = 64;
inline constexpr std::size_t kMaxTokenBytes = 128;
inline constexpr std::size_t kBotTokenIdLength = 16;  // hex digits
inline constexpr int kMaxDeviceChars = 40;
inline constexpr std::size_t kMaxDeviceMarkBytes = 200;  // login's device_mark
inline constexpr int kMinPasswordChars = 8;
inline constexpr int kMaxPasswordChars = 128;
inline constexpr std::size_t kLinkCodeLength = 8;
inline constexpr std::string_view kRoomCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
inline constexpr std::size_t kRoomCodeLength = 6;
inline constexpr std::size_t kMaxPlayerIdChars = 32;   // [0-9A-Za-z_-]
inline constexpr std::size_t kChallengeIdLength = 16;  // lowercase hex
inline constexpr int kMaxNoteChars = 200;              // a report's note, a moderation reason
inline constexpr int kMinTimeLimit = 30;
inline constexpr int kMaxTimeLimit = 3600;
inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 8;
inline constexpr int kMaxMovesPerSecondCap = 20;
inline constexpr int kMaxTournamentPlayers = 256;
inline constexpr int kMaxSwissRounds = 20;
inline constexpr int kMaxTournamentRoom = 4;  // Swiss and arena rooms, all against all
inline constexpr int kMinArenaSeconds = 60;
inline constexpr int kMaxArenaSeconds = 4 * 3600;
inline constexpr int kMaxLeaderboardLimit = 100;

}  // namespace tilerace::protocol
