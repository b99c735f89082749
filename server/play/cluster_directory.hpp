#pragma once
// Cluster mode's room directory (--redis): codes claimed across nodes, rooms located on any
// live node, public rooms of every node, quick match through the shared queue (a partner on
// another node is seated here and expected), and racers sent back to where their race runs.
// server/cluster/cluster.hpp has the model.
#include <boost/asio/any_io_executor.hpp>

#include <chrono>

#include "server/base/metrics.hpp"
#include "server/cluster/cluster.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/game/tournament_members.hpp"
#include "server/play/room_directory.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class ClusterDirectory final : public RoomDirectory {
 public:
  // executor: where follow_race's look-ups run (the cluster's main context). members: who plays
  // in which tournament here.
  ClusterDirectory(boost::asio::any_io_executor executor, Cluster& cluster, RoomRegistry& rooms,
                   PlayerRegistry& players, const TournamentMembers& members, StoreWorker& store,
                   Metrics& metrics)
      : executor_(std::move(executor)),
        cluster_(cluster),
        rooms_(rooms),
        players_(players),
        members_(members),
        store_(store),
        metrics_(metrics) {}

  bool available() const override { return cluster_.available(); }
  bool lease_confirmed() const override { return cluster_.lease_confirmed(); }
  boost::asio::awaitable<std::string> claim_code() override;
  boost::asio::awaitable<std::optional<std::string>> locate(std::string code) override;
  std::vector<std::string> remote_rooms() const override { return cluster_.remote_rooms(); }
  std::vector<std::string> node_urls() const override { return cluster_.node_urls(); }
  boost::asio::awaitable<QuickMatchResult> quick_match(std::shared_ptr<Player> player,
                                                       protocol::RoomOptions options,
                                                       Seeking seeking) override;
  boost::asio::awaitable<QuickMatchResult> rematch(std::shared_ptr<Player> player,
                                                   protocol::RoomOptions options) override;
  boost::asio::awaitable<bool> unqueue(std::shared_ptr<Player> player) override;
  void leave_queue(Player& player) override { cluster_.leave_queue(player.id); }
  // A member of a tournament on another node, between matches, is sent there the same way.
  // While the race's node is dead and its race not yet adopted, it looks again every
  // kResumeEvery, kResumeTries times, as long as the connection is the player's and no room
  // here took them back.
  void follow_race(std::weak_ptr<Participant> to, std::shared_ptr<Player> player) override;

  static constexpr int kResumeTries = 30;
  static constexpr std::chrono::milliseconds kResumeEvery{500};

 private:
  // quick_match and rematch (again): a partner from the shared pool, seated here; a partner
  // found busy is skipped and the pool asked again (the player queued anew if nobody is left).
  boost::asio::awaitable<QuickMatchResult> pair(std::shared_ptr<Player> player,
                                                protocol::RoomOptions options, Seeking seeking,
                                                bool again);
  boost::asio::awaitable<void> resume(std::weak_ptr<Participant> to,
                                      std::shared_ptr<Player> player);

  boost::asio::any_io_executor executor_;
  Cluster& cluster_;
  RoomRegistry& rooms_;
  PlayerRegistry& players_;
  const TournamentMembers& members_;
  StoreWorker& store_;
  Metrics& metrics_;
};

}  // namespace tilerace::server
