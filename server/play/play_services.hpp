#pragma once
// Play's features, each a room of its own: solo play, accounts, presence, friends, challenges,
// moderation, tournaments and the one-connection guard. The composition root builds them
// together, once, each given what it needs by its constructor (the others among them), and
// hands them to the Dispatcher, which routes messages to them, and to what else reaches them
// (the operator's API, the cluster's messages from other nodes).
#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "server/base/metrics.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/play/accounts.hpp"
#include "server/play/challenges.hpp"
#include "server/play/friend_lists.hpp"
#include "server/play/friends.hpp"
#include "server/play/moderation.hpp"
#include "server/play/player_reach.hpp"
#include "server/play/presence_board.hpp"
#include "server/play/room_directory.hpp"
#include "server/play/session_guard.hpp"
#include "server/play/solo_play.hpp"
#include "server/play/tournaments.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

// What play needs beyond the registries: friends across nodes (reach; null on a single node),
// how long a challenge waits, the daily challenge's secret (DailyStore::server_secret), and
// what a tournament's code released does (cluster mode: out of the directory).
struct PlaySettings {
  PlayerReach* reach = nullptr;
  std::chrono::milliseconds challenge_expiry{60'000};
  std::string daily_secret;
  std::chrono::milliseconds lease{5000};  // the cluster's: how often connections are checked
  std::function<void(const std::string& code)> tournament_released;
  int tournaments_per_player_hour = 5;  // 0: no limit
  int bot_races_per_day = 100;          // races between bots a bot may have in a UTC day
};

// What signing in needs: passwords, attempt limits, device marks, the operator's name rules.
struct AccountServices {
  PasswordHasher& hasher;
  SignInLimits& limits;
  const DeviceMarks& marks;
  const protocol::NamePolicy& names;
  std::int64_t guest_name_ms = Accounts::kGuestNameMs;  // --guest-name-days
};

struct PlayServices {
  // solo_games: each player's solo game (the journal and the cluster's adoption use it too);
  // members: who plays in which tournament here (the cluster's directory reads it too).
  PlayServices(PlayerRegistry& players, SoloGames& solo_games, RoomRegistry& rooms,
               RoomDirectory& directory, TournamentMembers& members, StoreWorker& store,
               Metrics& metrics, AccountServices sign_in, PlaySettings settings = {});

  // Starts presence's and moderation's sweeps and the guard's checks on executor; stop() ends
  // them, the challenges' expiry and the tournaments' timers (shutdown).
  void start(const boost::asio::any_io_executor& executor);
  void stop();

  FriendLists friend_lists;  // shared by presence, friends, challenges and following
  SoloPlay solo;
  Accounts accounts;
  PresenceBoard presence;
  Friends friends;
  Challenges challenges;
  Moderation moderation;
  Tournaments tournaments;
  SessionGuard guard;
  const int bot_races_per_day;  // PlaySettings's
};

}  // namespace tilerace::server
