#include "server/room_registry.hpp"

#include <openssl/rand.h>

#include <stdexcept>

namespace tilerace::server {

namespace {

std::string random_code() {
  std::array<unsigned char, protocol::kRoomCodeLength> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  std::string code;
  // 256 is a multiple of the alphabet's 32 letters, so every letter is equally likely.
  for (unsigned char b : bytes) code.push_back(protocol::kRoomCodeAlphabet[b % 32]);
  return code;
}

}  // namespace

RoomRegistry::RoomRegistry(RoomServices services) : services_(std::move(services)) {
  services_.on_empty = [this](const std::string& code) { remove(code); };
}

std::shared_ptr<Room> RoomRegistry::create(const protocol::RoomOptions& options) {
  std::lock_guard lock(mutex_);
  std::string code;
  do {
    code = random_code();
  } while (rooms_.count(code) != 0);
  auto room = std::make_shared<Room>(code, options, services_);
  rooms_.emplace(code, room);
  services_.metrics.rooms.fetch_add(1, std::memory_order_relaxed);
  return room;
}

std::shared_ptr<Room> RoomRegistry::find(std::string_view code) const {
  std::lock_guard lock(mutex_);
  const auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second;
}

std::vector<protocol::RoomView> RoomRegistry::public_rooms() const {
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [code, room] : rooms_) {
      if (room->is_public()) rooms.push_back(room);
    }
  }
  std::vector<protocol::RoomView> views;
  for (const auto& room : rooms) views.push_back(room->summary());
  return views;
}

void RoomRegistry::remove(const std::string& code) {
  std::shared_ptr<Room> doomed;  // released after the lock, never inside the room's own call
  std::lock_guard lock(mutex_);
  const auto it = rooms_.find(code);
  if (it == rooms_.end()) return;
  doomed = std::move(it->second);
  rooms_.erase(it);
}

}  // namespace tilerace::server
