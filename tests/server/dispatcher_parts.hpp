#pragma once
// A Dispatcher and what it is wired to on one node — registries, matchmaker, the store's
// worker, limits, accounts — on the caller's io_context and store, in memory: for the unit
// tests that drive the dispatcher (or the REST routes beside it) without sockets, and for
// bench/alloc_bench. Call stop() before the io_context and the store go.
#include <boost/asio/io_context.hpp>

#include "server/base/address_limits.hpp"
#include "server/play/dispatcher.hpp"
#include "server/play/local_directory.hpp"
#include "server/store/store.hpp"

namespace tilerace::server::testing {

struct DispatcherParts {
  DispatcherParts(boost::asio::io_context& ioc, Store& store, RaceSettings settings = {})
      : worker(store, metrics),
        rooms(RoomServices{ioc.get_executor(), &worker, &metrics, settings, {}}) {}

  // Stops the rooms' timers and waits for the store's worker.
  void stop() {
    play.stop();
    rooms.stop();
    worker.join();
  }

  Metrics metrics;
  StoreWorker worker;
  PlayerRegistry players;
  SoloGames solo_games;
  RoomRegistry rooms;
  Matchmaker matchmaker;
  LocalDirectory directory{rooms, matchmaker};
  AddressLimits limits{0, 0};
  PasswordHasher hasher{1, PasswordHasher::kCheap};
  SignInLimits sign_in_limits;
  DeviceMarks marks{"the test's device marks secret"};
  protocol::NamePolicy names;
  TournamentMembers tournament_members;
  PlayServices play{players,
                    solo_games,
                    rooms,
                    directory,
                    tournament_members,
                    worker,
                    metrics,
                    {hasher, sign_in_limits, marks, names}};
  Dispatcher dispatcher{play, players, rooms, directory, worker, metrics, limits};
};

}  // namespace tilerace::server::testing
