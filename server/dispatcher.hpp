#pragma once
// Turns one decoded client message into its effects: game logic, storage, replies. Sees
// participants, never sockets. Each connection's messages are handled one at a time (the
// session awaits handle), so a connection's replies keep the order of its requests.
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "server/matchmaker.hpp"
#include "server/metrics.hpp"
#include "server/player_registry.hpp"
#include "server/room_registry.hpp"
#include "server/store_worker.hpp"

namespace tilerace::server {

class AddressLimits;
class BotFallback;
class Cluster;

// The dispatcher's state for one connection. It owns nothing of the connection itself: out
// is the connection (which owns this struct), self a weak handle to it for the registries.
struct Connection {
  explicit Connection(Participant& out_) : out(out_) {}
  Participant& out;
  std::weak_ptr<Participant> self;
  std::shared_ptr<Player> player;  // set by a successful hello
  std::shared_ptr<Room> spectating;
  std::string address;  // the peer's address as AddressLimits counts it
};

class Dispatcher {
 public:
  // cluster: null on a single node. fallback: null when quick match never offers the computer.
  Dispatcher(PlayerRegistry& players, RoomRegistry& rooms, Matchmaker& matchmaker,
             StoreWorker& store, Metrics& metrics, AddressLimits& limits,
             Cluster* cluster = nullptr, BotFallback* fallback = nullptr)
      : players_(players),
        rooms_(rooms),
        matchmaker_(matchmaker),
        store_(store),
        metrics_(metrics),
        limits_(limits),
        cluster_(cluster),
        fallback_(fallback) {}

  // Handles one decoded message (or decode error) from connection. What needs no storage is
  // done before this returns (most messages: moves, rooms, pings), and nullopt comes back.
  // Otherwise the rest of the work comes back, not started: the caller co_awaits it before
  // the connection's next message. It refers to connection and decoded, which must outlive it.
  std::optional<boost::asio::awaitable<void>> handle(Connection& connection,
                                                     const protocol::Decoded& decoded);

  // The connection has closed: the player is detached unless a newer connection replaced it.
  void disconnected(Connection& connection);

  // Sends a protocol error to connection.
  void send_error(Connection& connection, const protocol::ProtocolError& error,
                  const protocol::Rid& rid);

 private:
  boost::asio::awaitable<void> on_hello(Connection& c, const protocol::Hello& m,
                                        const protocol::Rid& rid);
  boost::asio::awaitable<void> on_new_game(Connection& c, const protocol::NewGame& m,
                                           const protocol::Rid& rid);
  // A solo game's move, slide, undo or resign; the rest only when it ended the game (the
  // result is recorded before the replies go out).
  std::optional<boost::asio::awaitable<void>> on_play(Connection& c,
                                                      const protocol::ClientMessage& m,
                                                      const protocol::Rid& rid);
  boost::asio::awaitable<void> finish_play(Connection& c, std::vector<std::string> replies,
                                           GameRecord finished, std::size_t recorded_moves,
                                           const protocol::Rid& rid);
  // create_room, join_room, leave_room, ready, quick_match, cancel_match, list_rooms,
  // spectate, stop_spectating.
  void on_room(Connection& c, const protocol::ClientMessage& m, const protocol::Rid& rid);
  void on_quick_match(Connection& c, const protocol::QuickMatch& m, const protocol::Rid& rid);
  // create_room's end: c's player joins the new room, then the computer when options ask.
  void open_room(Connection& c, const std::shared_ptr<Room>& room,
                 const protocol::RoomOptions& options, const protocol::Rid& rid);
  // The room a quick match opens: public (strangers' races are there to be watched), with the
  // default target and time limit.
  static protocol::RoomOptions quick_match_room(const protocol::QuickMatch& m);
  // Takes the player out of the quick-match queue (cluster mode: in the background).
  void leave_queue(Player& player);

  // Cluster mode (dispatcher_cluster.cpp): the room messages that need the directory; nullopt
  // when the message is handled as on a single node (on_room).
  std::optional<boost::asio::awaitable<void>> on_cluster_room(Connection& c,
                                                              const protocol::ClientMessage& m,
                                                              const protocol::Rid& rid);
  boost::asio::awaitable<void> cluster_create(Connection& c, const protocol::RoomOptions& options,
                                              const protocol::Rid& rid);
  // join_room or spectate for a room this node does not have: a redirect or no_such_room.
  boost::asio::awaitable<void> cluster_locate(Connection& c, const std::string& code,
                                              std::string_view reason, const protocol::Rid& rid);
  boost::asio::awaitable<void> cluster_quick_match(Connection& c, const protocol::QuickMatch& m,
                                                   const protocol::Rid& rid);
  boost::asio::awaitable<void> cluster_cancel_match(Connection& c, const protocol::Rid& rid);
  // A player back (hello with a token) who races in a room of another node — the one it ran
  // on, or the survivor that adopted it — is sent there (redirect, reason "resume"). While
  // the race's node is dead and its race not yet adopted, it looks again every
  // kResumeEvery, kResumeTries times, as long as the connection is the player's and no room
  // here took them back. Runs beside the connection (spawned), not in its handler.
  static constexpr int kResumeTries = 30;
  static constexpr std::chrono::milliseconds kResumeEvery{500};
  boost::asio::awaitable<void> cluster_resume(std::weak_ptr<Participant> to,
                                              std::shared_ptr<Player> player);
  void send_unavailable(Connection& c, const protocol::Rid& rid);
  // A racer's move, slide or resignation, answered once journaled (Room::play_acked).
  boost::asio::awaitable<void> race_play(Connection& c, std::shared_ptr<Room> room,
                                         const protocol::ClientMessage& message, protocol::Rid rid);
  // Records a finished solo game; false (and `internal` sent) when the store failed. The
  // `achievement` messages for what it granted are added to earned, for the caller to send
  // after its own reply.
  boost::asio::awaitable<bool> record(Connection& c, const GameRecord& game,
                                      const protocol::Rid& rid, std::vector<std::string>& earned);
  void stop_spectating(Connection& c);
  boost::asio::awaitable<void> on_leaderboard(Connection& c, const protocol::LeaderboardRequest& m,
                                              const protocol::Rid& rid);
  boost::asio::awaitable<void> on_bot_record(Connection& c, const protocol::Rid& rid);
  void send(Connection& c, std::string message);
  // The room p is a member of, or null.
  static std::shared_ptr<Room> room_of(Player& p);

  PlayerRegistry& players_;
  RoomRegistry& rooms_;
  Matchmaker& matchmaker_;
  StoreWorker& store_;
  Metrics& metrics_;
  AddressLimits& limits_;
  Cluster* cluster_;
  BotFallback* fallback_;
};

}  // namespace tilerace::server
