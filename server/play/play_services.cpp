#include "server/play/play_services.hpp"

#include "server/base/unix_time.hpp"

namespace tilerace::server {

PlayServices::PlayServices(PlayerRegistry& players, SoloGames& solo_games, RoomRegistry& rooms,
                           RoomDirectory& directory, TournamentMembers& members, StoreWorker& store,
                           Metrics& metrics, AccountServices sign_in, PlaySettings settings)
    : solo(solo_games, store, metrics, std::move(settings.daily_secret)),
      accounts(players, solo_games, store, sign_in.hasher, sign_in.limits, sign_in.marks,
               sign_in.names, sign_in.guest_name_ms, metrics),
      presence(players, friend_lists, solo_games, settings.reach),
      friends(players, friend_lists, store, presence, metrics, settings.reach, unix_ms),
      challenges(
          {players, rooms, directory, presence, friend_lists, store, metrics, settings.reach},
          rooms.executor(), settings.challenge_expiry),
      moderation(players, rooms, directory, store, metrics, settings.reach),
      tournaments(players, rooms, members, metrics,
                  std::chrono::seconds(rooms.services().settings.grace), unix_ms,
                  std::move(settings.tournament_released), settings.tournaments_per_player_hour),
      guard(players, store, metrics, settings.reach, settings.lease),
      bot_races_per_day(settings.bot_races_per_day) {}

void PlayServices::start(const boost::asio::any_io_executor& executor) {
  presence.start(executor);
  moderation.start(executor);
  guard.start(executor);
}

void PlayServices::stop() {
  presence.stop();
  challenges.stop();
  moderation.stop();
  tournaments.stop();
  guard.stop();
}

}  // namespace tilerace::server
