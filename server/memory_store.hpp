#pragma once
// A Store held in memory: for unit tests and until the SQLite store is the default.
#include <map>
#include <mutex>

#include "server/store.hpp"

namespace tilerace::server {

class MemoryStore final : public Store {
 public:
  void add_player(const PlayerRecord& player) override;
  std::optional<PlayerRecord> find_player(std::string_view id) override;
  void record_game(const GameRecord& game) override;
  std::optional<GameRecord> find_game(std::string_view id) override;
  void record_race(const RaceRecord& race) override;

 private:
  std::mutex mutex_;
  std::map<std::string, PlayerRecord, std::less<>> players_;
  std::map<std::string, GameRecord, std::less<>> games_;
  std::map<std::string, RaceRecord, std::less<>> races_;
};

}  // namespace tilerace::server
