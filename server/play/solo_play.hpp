#pragma once
// Solo play (PROTOCOL.md §4): the shell of the solo rules (rules/solo_rules.hpp). It runs them
// on the player's game in SoloGames, under its slot's lock, and carries out their effects:
// counts, the journal's dirty mark, and
// a finished game committed to the store before the message that ended it is sent; if the
// store fails, that message is taken back and the game is as last acknowledged.
#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "server/base/metrics.hpp"
#include "server/game/solo_games.hpp"
#include "server/play/connection.hpp"
#include "server/rules/solo_rules.hpp"
#include "server/store/game_store.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class SoloPlay {
 public:
  // daily_secret: the daily challenge's seeds' key.
  SoloPlay(SoloGames& games, StoreWorker& store, Metrics& metrics, std::string daily_secret)
      : games_(games), store_(store), metrics_(metrics), daily_secret_(std::move(daily_secret)) {}

  // c's player (set) starts a new game; the one it replaces ends as resigned, recorded first.
  // A daily game (m.daily) is today's, on the day's seed: the player's first of the day in its
  // mode ranks (claimed in the store first), later ones are practice.
  boost::asio::awaitable<void> new_game(Connection& c, const protocol::NewGame& m,
                                        protocol::Rid rid);
  // A move, slide, undo or resign of c's player (set) in their solo game. Done before this
  // returns unless it ended the game: then the rest (recording, then the replies) comes back,
  // not started, for the caller to await.
  std::optional<boost::asio::awaitable<void>> play(Connection& c,
                                                   const protocol::ClientMessage& message,
                                                   const protocol::Rid& rid);
  // player_id's current solo game as `game`, or empty when they have none.
  std::string snapshot(std::string_view player_id) const;
  // Signing in: a daily game of player_id still playing after its day ends as it stood
  // (solo_day_over), recorded before anything shows it; if the store fails, it stays as it
  // was (the sweep of the day's abandoned attempts records it from the journal).
  boost::asio::awaitable<void> end_past_daily(std::string player_id);

 private:
  // c's player's slot (cached in c).
  SoloSlot& slot_of(Connection& c);
  boost::asio::awaitable<void> finish(Connection& c, SoloEffects effects, protocol::Rid rid);
  // Commits a finished game (counted): what it granted, or nullopt when the store failed
  // (logged).
  boost::asio::awaitable<std::optional<std::vector<Grant>>> commit(const GameRecord& game);
  // The game of id in slot, whose record failed, goes back to its first `before` moves,
  // playing again (and journaled again).
  void take_back_unrecorded(SoloSlot& slot, const std::string& id, std::size_t before);
  // Records a finished game (commit); false (and `internal` sent) when the store failed. The
  // `achievement` messages for what it granted are added to earned, for the caller to send
  // after its own reply.
  boost::asio::awaitable<bool> record(Connection& c, const GameRecord& game,
                                      const protocol::Rid& rid, std::vector<std::string>& earned);
  void send_error(Connection& c, protocol::ErrorCode code, std::string_view text,
                  const protocol::Rid& rid);

  SoloGames& games_;
  StoreWorker& store_;
  Metrics& metrics_;
  std::string daily_secret_;
};

}  // namespace tilerace::server
