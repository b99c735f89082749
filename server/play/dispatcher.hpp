#pragma once
// Routes one decoded client message to what handles it: a std::visit over the message
// variant with one route per message type, so a message type without a route does not
// compile (docs/architecture.md says where to add one). Sees participants, never sockets.
// Each connection's messages are handled one at a time (the session awaits the work handle
// returns), so a connection's replies keep the order of its requests.
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/play/connection.hpp"
#include "server/play/play_services.hpp"
#include "server/play/room_directory.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class AddressLimits;
class BotFallback;
class WideningSearch;

class Dispatcher {
 public:
  // What is left of a message's work after handle returns: nullopt when it is done.
  using Work = std::optional<boost::asio::awaitable<void>>;

  // play: the features routed to. directory: this node's (LocalDirectory) or the cluster's.
  // fallback: null when quick match never offers the computer. widening: null when a waiting
  // player is paired only by whoever comes next (windows never widen).
  Dispatcher(PlayServices& play, PlayerRegistry& players, RoomRegistry& rooms,
             RoomDirectory& directory, StoreWorker& store, Metrics& metrics, AddressLimits& limits,
             BotFallback* fallback = nullptr, WideningSearch* widening = nullptr);

  // Handles one decoded message (or decode error) from connection. What needs no storage or
  // Redis is done before this returns (most messages: moves, rooms, pings), and nullopt comes
  // back. Otherwise the rest of the work comes back, not started: the caller co_awaits it
  // before the connection's next message. It refers to connection and decoded, which must
  // outlive it.
  Work handle(Connection& connection, const protocol::Decoded& decoded);

  // The connection has closed: the player is detached unless a newer connection replaced it.
  void disconnected(Connection& connection);

  // Sends a protocol error to connection.
  void send_error(Connection& connection, const protocol::ProtocolError& error,
                  const protocol::Rid& rid);

 private:
  // The routes, one per client message type (c's player is set for all but Hello). A move,
  // slide, undo or resign goes to play with the whole message instead.
  Work route(Connection& c, const protocol::Hello& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Ping& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::NewGame& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::CreateRoom& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::JoinRoom& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::LeaveRoom& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Ready& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::QuickMatch& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::CancelMatch& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::ListRooms& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Spectate& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::StopSpectating& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::LeaderboardRequest& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::BotRecordRequest& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::SendEmote& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Login& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Register& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::SessionsRequest& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Logout& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::LogoutAll& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::ChangePassword& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::LinkCodeRequest& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::UpgradeToBot& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::BotTokenRequest& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::BotTokensRequest& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::RevokeBotToken& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Rename& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::FriendChange& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::FriendsRequest& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Challenge& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::ChallengeAnswer& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Rematch& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::SpectatePlayer& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Report& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::Kick& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::CreateTournament& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::JoinTournament& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::LeaveTournament& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::StartTournament& m, const protocol::Rid& rid);
  Work route(Connection& c, const protocol::SpectateTournament& m, const protocol::Rid& rid);
  // move, slide, undo or resign: the player's race when they race, else their solo game.
  Work play(Connection& c, const protocol::ClientMessage& m, const protocol::Rid& rid);

  boost::asio::awaitable<void> on_hello(Connection& c, const protocol::Hello& m,
                                        const protocol::Rid& rid);
  boost::asio::awaitable<void> on_login(Connection& c, const protocol::Login& m,
                                        const protocol::Rid& rid);
  // The end of a hello or login (in: who it signed c in, or nullopt when it was refused): the
  // connection takes its epoch (SessionGuard::take), then welcome, then the friends.
  boost::asio::awaitable<void> signed_in(Connection& c, std::optional<Accounts::SignedIn> in,
                                         const protocol::Rid& rid);
  // welcome, then where the player was; false when a newer connection elsewhere superseded c
  // (closed with 4000, no welcome).
  bool welcome(Connection& c, Accounts::SignedIn in, std::int64_t epoch, const protocol::Rid& rid);
  // work, then other nodes check c's player (their sessions or name may have changed).
  boost::asio::awaitable<void> then_recheck(Connection& c, boost::asio::awaitable<void> work);
  // create_room's end: c's player joins the new room, then the computer or the ghost when
  // options ask.
  void open_room(Connection& c, const std::shared_ptr<Room>& room,
                 const protocol::RoomOptions& options, const protocol::Rid& rid);
  // create_room's rest: a ghost's run when asked (options then take its mode, size and
  // target), out of the quick-match queue, a code, the room.
  boost::asio::awaitable<void> create_room(Connection& c, protocol::RoomOptions options,
                                           const protocol::Rid& rid);
  // The run of the recorded game id for a ghost room, or null when c was told why not.
  boost::asio::awaitable<std::shared_ptr<const GhostRun>> load_ghost(Connection& c,
                                                                     const std::string& id,
                                                                     const protocol::Rid& rid);
  // join_room or spectate for a room this node does not have (join_tournament or
  // spectate_tournament for a tournament: reason says which): a redirect, or no_such_room
  // (no_such_tournament).
  boost::asio::awaitable<void> locate(Connection& c, const std::string& code,
                                      std::string_view reason, const protocol::Rid& rid);
  // create_tournament's rest: a code claimed across nodes, the tournament.
  boost::asio::awaitable<void> create_tournament(Connection& c, protocol::CreateTournament m,
                                                 const protocol::Rid& rid);
  boost::asio::awaitable<void> quick_match(Connection& c, const protocol::QuickMatch& m,
                                           const protocol::Rid& rid);
  boost::asio::awaitable<void> cancel_match(Connection& c, const protocol::Rid& rid);
  boost::asio::awaitable<void> revoke_bot_token(Connection& c, protocol::RevokeBotToken m,
                                                protocol::Rid rid);
  // Whether c's bot may race bots again today (PlayServices::bot_races_per_day); else c is told
  // not_allowed.
  boost::asio::awaitable<bool> may_race_bots(Connection& c, const protocol::Rid& rid);
  // The room a quick match opens: public (strangers' races are there to be watched), with the
  // default target and time limit.
  static protocol::RoomOptions quick_match_room(const protocol::QuickMatch& m);
  // The directory cannot be reached (cluster mode, Redis away).
  void send_unavailable(Connection& c, const protocol::Rid& rid);
  void stop_spectating(Connection& c);
  // spectate_player's rest: the friend's room, from their presence, spectated as `spectate`.
  boost::asio::awaitable<void> follow(Connection& c, const protocol::SpectatePlayer& m,
                                      const protocol::Rid& rid);
  // What a message's work changed of c's player's presence is pushed once it is done.
  boost::asio::awaitable<void> then_refresh(Connection& c, boost::asio::awaitable<void> work);
  boost::asio::awaitable<void> on_leaderboard(Connection& c, const protocol::LeaderboardRequest& m,
                                              const protocol::Rid& rid);
  boost::asio::awaitable<void> on_bot_record(Connection& c, const protocol::Rid& rid);
  void error(Connection& c, protocol::ErrorCode code, std::string_view text,
             const protocol::Rid& rid);

  PlayerRegistry& players_;
  RoomRegistry& rooms_;
  RoomDirectory& directory_;
  StoreWorker& store_;
  Metrics& metrics_;
  AddressLimits& limits_;
  BotFallback* fallback_;
  WideningSearch* widening_;
  PlayServices& play_;
};

}  // namespace tilerace::server
