#include "server/game/room_registry.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "server/base/secrets.hpp"
#include "server/game/bot_racer.hpp"

namespace tilerace::server {

namespace {

// Free for quick match: connected and in no room. Requires the player's lock.
bool free_locked(const Player& p) { return !p.connection.expired() && p.room.expired(); }

}  // namespace

RoomRegistry::RoomRegistry(RoomServices services, RoomEvents events)
    : services_(std::move(services)), events_(std::move(events)) {
  services_.settings.journal_moves = services_.journal != nullptr;
  services_.on_closed = [this](const std::string& code) { remove(code); };
  services_.on_handed_over = [this](const std::string& code, const std::string& url) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    std::erase_if(handed_over_,
                  [now](const auto& entry) { return now - entry.second.at > kHandedOverKept; });
    handed_over_[code] = {url, now};
  };
}

std::optional<std::string> RoomRegistry::handed_over(std::string_view code) const {
  std::lock_guard lock(mutex_);
  const auto it = handed_over_.find(code);
  if (it == handed_over_.end() || rooms_.count(code) > 0 ||
      std::chrono::steady_clock::now() - it->second.at > kHandedOverKept) {
    return std::nullopt;
  }
  return it->second.url;
}

std::string RoomRegistry::unused_code_locked() const {
  std::string code;
  do {
    code = random_code(protocol::kRoomCodeLength, protocol::kRoomCodeAlphabet);
  } while (rooms_.count(code) != 0);
  return code;
}

std::string RoomRegistry::unused_code() const {
  std::lock_guard lock(mutex_);
  return unused_code_locked();
}

std::vector<std::string> RoomRegistry::codes() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> codes;
  for (const auto& [code, room] : rooms_) codes.push_back(code);
  return codes;
}

std::shared_ptr<Room> RoomRegistry::create(const protocol::RoomOptions& options, std::string code,
                                           std::shared_ptr<const GhostRun> ghost) {
  std::shared_ptr<Room> room;
  bool stopping = false;
  {
    std::lock_guard lock(mutex_);
    if (code.empty() || rooms_.count(code) != 0) code = unused_code_locked();
    room = Room::make(std::move(code), options, services_, std::move(ghost));
    rooms_.emplace(room->code(), room);
    stopping = stopped_;
  }
  if (stopping) room->stop();  // created by a message that raced shutdown
  services_.metrics->rooms.fetch_add(1, std::memory_order_relaxed);
  if (events_.opened) events_.opened();
  return room;
}

Claim RoomRegistry::create_matched(const protocol::RoomOptions& options,
                                   const std::shared_ptr<Player>& waiting,
                                   const std::shared_ptr<Player>& arriving,
                                   std::shared_ptr<Room>& room, std::string code,
                                   std::optional<Room::Time> waiting_expected_by) {
  bool stopping = false;
  {
    std::lock_guard lock(mutex_);
    if (code.empty() || rooms_.count(code) != 0) code = unused_code_locked();
    auto made = Room::make(std::move(code), options, services_);
    made->seat(waiting, arriving, waiting_expected_by);  // nobody knows this room yet
    {
      std::scoped_lock players(waiting->mutex, arriving->mutex);
      if (!free_locked(*arriving)) return Claim::arriving_busy;
      const bool waiting_free =
          waiting_expected_by ? waiting->room.expired() : free_locked(*waiting);
      if (!waiting_free) return Claim::waiting_busy;
      waiting->room = made;
      arriving->room = made;
    }
    rooms_.emplace(made->code(), made);
    room = std::move(made);
    stopping = stopped_;
  }
  if (stopping) room->stop();  // created by a message that raced shutdown
  services_.metrics->rooms.fetch_add(1, std::memory_order_relaxed);
  if (events_.opened) events_.opened();
  return Claim::paired;
}

RoomRegistry::MatchSeating RoomRegistry::create_match(
    const protocol::RoomOptions& options, const std::vector<std::shared_ptr<Player>>& players,
    Room::Time away_until, std::function<void(const MatchEnd&)> on_end) {
  MatchSeating seating;
  bool stopping = false;
  {
    std::lock_guard lock(mutex_);
    auto made = Room::make(unused_code_locked(), options, services_);
    made->seat_match(players, away_until, std::move(on_end));  // nobody knows this room yet
    {
      // Every player's lock at once, taken in address order (std::lock, which the two-player
      // paths use, never waits while holding one: no cycle with them).
      std::vector<Player*> order;
      for (const auto& p : players) order.push_back(p.get());
      std::sort(order.begin(), order.end());
      std::vector<std::unique_lock<std::mutex>> locks;
      for (Player* p : order) locks.emplace_back(p->mutex);
      for (const auto& p : players) seating.busy.push_back(!p->room.expired());
      if (std::find(seating.busy.begin(), seating.busy.end(), true) != seating.busy.end()) {
        return seating;
      }
      for (const auto& p : players) p->room = made;
    }
    rooms_.emplace(made->code(), made);
    seating.room = std::move(made);
    stopping = stopped_;
  }
  if (stopping) seating.room->stop();  // created by a message that raced shutdown
  services_.metrics->rooms.fetch_add(1, std::memory_order_relaxed);
  if (events_.opened) events_.opened();
  return seating;
}

bool RoomRegistry::restore(const ActiveRaceRecord& record,
                           std::vector<std::shared_ptr<Player>> players,
                           std::shared_ptr<const GhostRun> ghost) {
  // The computer racers (null in players) come back as new BotRacers; the ghost (null too)
  // is the room's own.
  std::vector<std::shared_ptr<BotRacer>> bots;
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (players[i] || ghost_of_player_id(record.racers[i].player_id)) continue;
    const auto strength = bot_of_player_id(record.racers[i].player_id);
    if (!strength || services_.bots == nullptr) return false;
    bots.push_back(std::make_shared<BotRacer>(*strength, services_));
    players[i] = bots.back()->player();
  }
  auto room = Room::restore(record, std::move(players), services_, std::move(ghost));
  if (!room) return false;
  for (const auto& bot : bots) BotRacer::resume(bot, room);
  bool stopping = false;
  {
    std::lock_guard lock(mutex_);
    rooms_.emplace(room->code(), room);
    stopping = stopped_;
  }
  if (stopping) room->stop();  // an adoption that finished during shutdown
  services_.metrics->rooms.fetch_add(1, std::memory_order_relaxed);
  return true;
}

std::shared_ptr<Room> RoomRegistry::find(std::string_view code) const {
  std::lock_guard lock(mutex_);
  const auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Room>> RoomRegistry::all() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<Room>> rooms;
  rooms.reserve(rooms_.size());
  for (const auto& [code, room] : rooms_) rooms.push_back(room);
  return rooms;
}

std::vector<protocol::RoomView> RoomRegistry::public_rooms() const {
  std::vector<protocol::RoomView> views;
  for (const auto& room : all()) {
    if (room->is_public()) views.push_back(room->listing());
  }
  return views;
}

std::vector<ActiveRaceRecord> RoomRegistry::active_races() const {
  std::vector<ActiveRaceRecord> entries;
  for (const auto& room : all()) {
    if (auto entry = room->active_record()) entries.push_back(std::move(*entry));
  }
  return entries;
}

void RoomRegistry::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;  // a room registered from now on is stopped as it comes (create, restore)
  }
  for (const auto& room : all()) room->stop();
}

void RoomRegistry::remove(const std::string& code) {
  std::shared_ptr<Room> doomed;  // released after the lock (the caller still holds the room)
  {
    std::lock_guard lock(mutex_);
    const auto it = rooms_.find(code);
    if (it == rooms_.end()) return;
    doomed = std::move(it->second);
    rooms_.erase(it);
  }
  if (events_.released) events_.released(code);
}

}  // namespace tilerace::server
