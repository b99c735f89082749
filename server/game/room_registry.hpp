#pragma once
// Rooms by invite code. Codes are 6 characters from the unambiguous alphabet, drawn from the
// CSPRNG and never reused while the room exists. Thread-safe; its place in the lock order is
// in docs/architecture.md ("Threads and locks").
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/game/matchmaker.hpp"
#include "server/game/room.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

// Cluster mode: what the registry tells the directory, outside its lock — the code of each room
// that closed, and that a room opened.
struct RoomEvents {
  std::function<void(const std::string& code)> released;
  std::function<void()> opened;
};

class RoomRegistry {
 public:
  // services.journal set (cluster mode): the rooms journal their moves there.
  explicit RoomRegistry(RoomServices services, RoomEvents events = {});

  // A new room under code (cluster mode: claimed beforehand), or under an unused code; ghost:
  // a ghost room's run.
  std::shared_ptr<Room> create(const protocol::RoomOptions& options, std::string code = {},
                               std::shared_ptr<const GhostRun> ghost = nullptr);
  // Quick match: a room seating waiting and arriving, both ready, registered only once both
  // are in it (checked and linked under both players' locks). On anything but paired, room
  // is left null and nothing was created. code as for create. waiting_expected_by: waiting is
  // on another node (cluster mode), needs no connection here, and has until then to arrive.
  Claim create_matched(const protocol::RoomOptions& options, const std::shared_ptr<Player>& waiting,
                       const std::shared_ptr<Player>& arriving, std::shared_ptr<Room>& room,
                       std::string code = {},
                       std::optional<Room::Time> waiting_expected_by = std::nullopt);
  // A tournament's match: a room (options.tournament set) seating players, all ready,
  // registered only once all are linked to it (under the players' locks, one at a time in a
  // fixed order: a player's room is set only here and by a join, under their own lock). One who
  // is not connected is seated away until away_until; on_end watches the room (Room::watch)
  // from before anyone can reach it. Nothing is created when any of them is in a room already:
  // the answer says who (busy[i] for players[i]).
  struct MatchSeating {
    std::shared_ptr<Room> room;
    std::vector<bool> busy;
  };
  MatchSeating create_match(const protocol::RoomOptions& options,
                            const std::vector<std::shared_ptr<Player>>& players,
                            Room::Time away_until, std::function<void(const MatchEnd&)> on_end);
  // Brings back a journaled race under its old code; false if it cannot be rebuilt. players:
  // as Room::restore's, with the computer's null too; ghost: a ghost room's run.
  bool restore(const ActiveRaceRecord& record, std::vector<std::shared_ptr<Player>> players,
               std::shared_ptr<const GhostRun> ghost = nullptr);
  std::shared_ptr<Room> find(std::string_view code) const;
  // Public rooms, as list_rooms and GET /api/rooms show them.
  std::vector<protocol::RoomView> public_rooms() const;
  // Every running race, as the store's journal keeps it.
  std::vector<ActiveRaceRecord> active_races() const;
  // Where the rooms' timers run (the main context).
  const boost::asio::any_io_executor& executor() const noexcept { return services_.executor; }
  const RoomServices& services() const noexcept { return services_; }
  // Server shutdown: every room stops arming timers (Room::stop), and so does every room
  // created or restored from now on (a message or an adoption that raced the shutdown).
  void stop();
  // A code no room here has (cluster mode claims it across nodes before using it).
  std::string unused_code() const;
  // The codes of every room here.
  std::vector<std::string> codes() const;
  // Where the race of room code went, when this node ran it until another node took it over
  // (fencing) within kHandedOverKept, and has no room code now: the owner it learned then,
  // for a racer or spectator coming back here (they are sent there at once, whether or not
  // Redis answers).
  std::optional<std::string> handed_over(std::string_view code) const;
  static constexpr std::chrono::minutes kHandedOverKept{10};

 private:
  std::vector<std::shared_ptr<Room>> all() const;
  std::string unused_code_locked() const;
  void remove(const std::string& code);

  RoomServices services_;
  const RoomEvents events_;
  mutable std::mutex mutex_;  // guards what follows
  std::map<std::string, std::shared_ptr<Room>, std::less<>> rooms_;
  struct HandedOver {
    std::string url;
    std::chrono::steady_clock::time_point at;
  };
  std::map<std::string, HandedOver, std::less<>> handed_over_;  // by code
  bool stopped_ = false;
};

}  // namespace tilerace::server
