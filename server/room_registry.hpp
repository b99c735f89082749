#pragma once
// Rooms by invite code. Codes are 6 characters from the unambiguous alphabet, drawn from the
// CSPRNG and never reused while the room exists.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/room.hpp"

namespace tilerace::server {

class RoomRegistry {
 public:
  explicit RoomRegistry(RoomServices services);

  std::shared_ptr<Room> create(const protocol::RoomOptions& options);
  std::shared_ptr<Room> find(std::string_view code) const;
  // Public rooms, as list_rooms and GET /api/rooms show them.
  std::vector<protocol::RoomView> public_rooms() const;

 private:
  void remove(const std::string& code);

  RoomServices services_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Room>, std::less<>> rooms_;
};

}  // namespace tilerace::server
