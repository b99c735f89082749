#pragma once
// A single node's room directory: its own rooms, its own quick-match queue (the Matchmaker).
#include "server/game/matchmaker.hpp"
#include "server/game/room_registry.hpp"
#include "server/play/room_directory.hpp"

namespace tilerace::server {

class LocalDirectory final : public RoomDirectory {
 public:
  LocalDirectory(RoomRegistry& rooms, Matchmaker& matchmaker)
      : rooms_(rooms), matchmaker_(matchmaker) {}

  bool available() const override { return true; }
  boost::asio::awaitable<std::string> claim_code() override;
  boost::asio::awaitable<std::optional<std::string>> locate(std::string code) override;
  std::vector<std::string> remote_rooms() const override { return {}; }
  std::vector<std::string> node_urls() const override { return {}; }
  boost::asio::awaitable<QuickMatchResult> quick_match(std::shared_ptr<Player> player,
                                                       protocol::RoomOptions options,
                                                       Seeking seeking) override;
  boost::asio::awaitable<QuickMatchResult> rematch(std::shared_ptr<Player> player,
                                                   protocol::RoomOptions options) override;
  boost::asio::awaitable<bool> unqueue(std::shared_ptr<Player> player) override;
  void leave_queue(Player& player) override { matchmaker_.cancel(player); }
  void follow_race(std::weak_ptr<Participant>, std::shared_ptr<Player>) override {}

 private:
  RoomRegistry& rooms_;
  Matchmaker& matchmaker_;
};

}  // namespace tilerace::server
