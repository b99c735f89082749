#pragma once
// Rooms by invite code. Codes are 6 characters from the unambiguous alphabet, drawn from the
// CSPRNG and never reused while the room exists. Lock order: registry, then player (a room
// calls back into the registry with its own lock held, so the registry never takes a room's).
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/matchmaker.hpp"
#include "server/room.hpp"

namespace tilerace::server {

class RoomRegistry {
 public:
  explicit RoomRegistry(RoomServices services);

  std::shared_ptr<Room> create(const protocol::RoomOptions& options);
  // Quick match: a room seating waiting and arriving, both ready, registered only once both
  // are in it (checked and linked under both players' locks). On anything but paired, room
  // is left null and nothing was created.
  Claim create_matched(const protocol::RoomOptions& options, const std::shared_ptr<Player>& waiting,
                       const std::shared_ptr<Player>& arriving, std::shared_ptr<Room>& room);
  // Brings back a journaled race under its old code; false if it cannot be rebuilt.
  bool restore(const ActiveRaceRecord& record, std::vector<std::shared_ptr<Player>> players);
  std::shared_ptr<Room> find(std::string_view code) const;
  // Public rooms, as list_rooms and GET /api/rooms show them.
  std::vector<protocol::RoomView> public_rooms() const;
  // Journal entries of every running race.
  std::vector<ActiveRaceRecord> journal() const;
  // Server shutdown: every room stops arming timers (Room::stop).
  void stop();

 private:
  std::vector<std::shared_ptr<Room>> all() const;
  std::string unused_code_locked() const;
  void remove(const std::string& code);

  RoomServices services_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Room>, std::less<>> rooms_;
};

}  // namespace tilerace::server
