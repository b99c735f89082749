#pragma once
// One node of the game, built whole by its constructor: every service is given what it needs
// when it is made (constructor injection), and nothing is wired afterwards. The members are
// declared in the order they are built — metrics and the store's worker, the registries (players
// and their solo games) and
// the computer opponents, the cluster (cluster mode), the rooms, the directory, the sign-in
// services, play's features and the dispatcher that routes to them, the sessions and the
// context every connection shares — and are destroyed in reverse (docs/architecture.md,
// "Ownership and shutdown"). Where two parts need each other, the one built first is given the
// later one whole and uses it only from start() or its first message on: the cluster its rooms,
// the cluster's reach play's features. The node is the cluster's ClusterEvents, passing each to
// the part that owns it.
#include <boost/asio/awaitable.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "protocol/names.hpp"
#include "server/base/device_marks.hpp"
#include "server/base/metrics.hpp"
#include "server/base/password_hasher.hpp"
#include "server/cluster/cluster.hpp"
#include "server/game/bot_pool.hpp"
#include "server/game/matchmaker.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/game/solo_games.hpp"
#include "server/game/tournament_members.hpp"
#include "server/journal_loop.hpp"
#include "server/net/admin_guard.hpp"
#include "server/net/certificate_watch.hpp"
#include "server/net/network_threads.hpp"
#include "server/net/server_context.hpp"
#include "server/net/session_set.hpp"
#include "server/net/tls_certificates.hpp"
#include "server/net/trusted_proxies.hpp"
#include "server/options.hpp"
#include "server/play/bot_fallback.hpp"
#include "server/play/cluster_reach.hpp"
#include "server/play/dispatcher.hpp"
#include "server/play/operator_desk.hpp"
#include "server/play/play_services.hpp"
#include "server/play/sign_in_limits.hpp"
#include "server/play/widening_search.hpp"
#include "server/store/store.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

// What the edge phase read and checked from the options: the certificate, the operator's name
// rules, the operator API's token, the proxies trusted, the web root.
struct NodeEdge {
  std::unique_ptr<TlsCertificates> tls;  // null: plain HTTP and WebSocket
  protocol::NamePolicy names;
  std::optional<AdminGuard> admin;  // nullopt: the operator API is off
  TrustedProxies proxies;
  std::filesystem::path web_root;  // canonical
};

// The keys every node sharing the store derives the same values from (DailyStore::server_secret).
struct NodeSecrets {
  std::string daily;
  std::string device_marks;
};

class Node final : private ClusterEvents {
 public:
  // public_url: where clients reach this node (cluster mode's directory); edge outlives it.
  Node(const Options& options, NetworkThreads& threads, Store& store, NodeEdge& edge,
       const NodeSecrets& secrets, std::string public_url);
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  ServerContext& context() noexcept { return context_; }

  // Before serving, with the worker idle: the computer opponents' players, and on a single node
  // the races and tournaments the store's journal kept (in cluster mode they come back through
  // adoption, after the first heartbeat). False, logged, when the journal cannot be read.
  bool restore(Store& store);
  // Starts what runs by itself: the cluster's heartbeat, the journal loop, play's sweeps, the
  // certificate watch. On the main context's thread.
  void start();
  // SIGTERM: out of the cluster's directory, every loop and timer stopped, every session told to
  // shut down and waited for (docs/architecture.md), the last journal pass, the network threads
  // released. On the main context.
  boost::asio::awaitable<void> shutdown();
  // Waits for every store job submitted (after the threads returned).
  void join() { worker_.join(); }

 private:
  // ClusterEvents.
  void on_control(const std::string& message) override;
  void on_nodes(const std::set<std::string>& live) override;
  boost::asio::awaitable<void> reclaim_players() override;
  std::vector<std::string> tournament_codes() override;
  boost::asio::awaitable<std::vector<std::string>> adopt_tournaments(std::string orphan) override;

  // The parts that differ by mode, built in their turn.
  std::unique_ptr<Cluster> make_cluster(std::string public_url);
  RoomServices room_services();
  RoomEvents room_events();
  std::unique_ptr<RoomDirectory> make_directory();
  PlaySettings play_settings(const NodeSecrets& secrets);
  ServerContext make_context(const NodeSecrets& secrets);
  // Waits until every session has closed (aborting the stragglers once the budget is spent),
  // then journals what is left and releases the network threads.
  boost::asio::awaitable<void> drain();

  const Options& options_;
  NetworkThreads& threads_;
  NodeEdge& edge_;
  Metrics metrics_;
  StoreWorker worker_;
  PlayerRegistry players_;
  SoloGames solo_games_;  // each player's solo game
  BotPool bots_;
  std::unique_ptr<Cluster> cluster_;  // cluster mode; uses rooms_ from start() on
  RoomRegistry rooms_;
  Matchmaker matchmaker_;
  AddressLimits limits_;
  TournamentMembers tournament_members_;
  std::unique_ptr<RoomDirectory> directory_;  // this node's, or the cluster's
  std::unique_ptr<BotFallback> fallback_;     // null: quick match never offers the computer
  WideningSearch widening_;                   // quick match's windows, asked again as they grow
  PasswordHasher hasher_;
  OperatorDesk desk_;
  SignInLimits sign_in_limits_;
  const DeviceMarks marks_;
  std::unique_ptr<ClusterReach> reach_;  // cluster mode; uses play_ from its first message on
  PlayServices play_;
  Dispatcher dispatcher_;
  SessionSet sessions_;
  ServerContext context_;
  JournalLoop journal_;
  std::unique_ptr<CertificateWatch> certificate_watch_;  // with TLS
};

}  // namespace tilerace::server
