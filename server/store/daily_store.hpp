#pragma once
// The store's daily challenge: each day's ranked attempts, and the secret its seeds come from.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/store/game_store.hpp"

namespace tilerace::server {

class DailyStore {
 public:
  // The daily challenge. The value kept under name: the stored one, or candidate, stored now
  // when there was none (so every node sharing the store gets the same).
  virtual std::string server_secret(std::string_view name, std::string_view candidate) = 0;
  // Claims the ranked attempt of attempt's player at its day and mode for its game: true when
  // this is their first (it is now on the day's board), false when they had one.
  virtual bool claim_daily(const DailyAttempt& attempt) = 0;
  // The attempt of game_id is over as it stands (abandoned with nothing journaled).
  virtual void finish_daily(std::string_view game_id) = 0;
  // Every ranked attempt of a day whose game is recorded (its replay exists: an abandoned one
  // once the day's sweep recorded it), by mode, best first.
  virtual std::vector<DailyAttempt> daily_attempts(std::string_view day) = 0;
  // The ranked attempts of days before day that never finished (abandoned), with the
  // player's journaled game where there is one (nullopt when nothing was played).
  virtual std::vector<std::pair<DailyAttempt, std::optional<ActiveGameRecord>>> open_dailies(
      std::string_view day) = 0;

 protected:
  ~DailyStore() = default;
};

}  // namespace tilerace::server
