#include "server/node.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>

#include "server/base/unix_time.hpp"
#include "server/game/bot_racer.hpp"
#include "server/game/store_journal.hpp"
#include "server/play/cluster_directory.hpp"
#include "server/play/local_directory.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

constexpr auto kShutdownBudget = std::chrono::seconds(8);

}  // namespace

Node::Node(const Options& options, NetworkThreads& threads, Store& store, NodeEdge& edge,
           const NodeSecrets& secrets, std::string public_url)
    : options_(options),
      threads_(threads),
      edge_(edge),
      worker_(store, metrics_),
      bots_(options.bot_threads),
      cluster_(make_cluster(std::move(public_url))),
      rooms_(room_services(), room_events()),
      limits_(options.max_connections_per_ip, options.rooms_per_ip),
      directory_(make_directory()),
      fallback_(
          options.quick_match_bot_after > 0
              ? std::make_unique<BotFallback>(threads.main().get_executor(), *directory_, rooms_,
                                              std::chrono::seconds(options.quick_match_bot_after))
              : nullptr),
      widening_(threads.main().get_executor(), *directory_),
      hasher_(std::max(1, options.password_threads)),
      desk_(worker_, hasher_),
      marks_(secrets.device_marks),
      reach_(cluster_ ? std::make_unique<ClusterReach>(threads.main().get_executor(), *cluster_,
                                                       players_, play_)
                      : nullptr),
      play_(players_, solo_games_, rooms_, *directory_, tournament_members_, worker_, metrics_,
            {hasher_, sign_in_limits_, marks_, edge.names,
             std::int64_t{options.guest_name_days} * 86'400'000},
            play_settings(secrets)),
      dispatcher_(play_, players_, rooms_, *directory_, worker_, metrics_, limits_, fallback_.get(),
                  &widening_),
      context_(make_context(secrets)),
      journal_(threads.main(), solo_games_, rooms_, play_.tournaments, worker_, metrics_) {}

std::unique_ptr<Cluster> Node::make_cluster(std::string public_url) {
  if (options_.redis.empty()) {
    metrics_.cluster_nodes.store(0);
    return nullptr;
  }
  metrics_.cluster_available.store(0);  // until Redis first answers
  return std::make_unique<Cluster>(
      threads_.main(),
      ClusterSettings{options_.node_name,
                      std::move(public_url),
                      {options_.redis_host, options_.redis_port},
                      std::chrono::milliseconds(options_.node_lease_ms),
                      std::chrono::seconds(options_.grace)},
      rooms_, players_, solo_games_, worker_, metrics_, static_cast<ClusterEvents&>(*this));
}

RoomServices Node::room_services() {
  RoomServices services{threads_.main().get_executor(),       &worker_, &metrics_,
                        {options_.countdown, options_.grace}, {},       &bots_,
                        options_.bot_moves_per_second};
  services.settings.bot_api_moves_per_second = options_.bot_api_moves_per_second;
  services.journal = cluster_.get();  // cluster mode: moves go to the move journal
  return services;
}

RoomEvents Node::room_events() {
  if (!cluster_) return {};
  return {[this](const std::string& code) {
            cluster_->release(code);
            cluster_->rooms_changed();
          },
          [this] { cluster_->rooms_changed(); }};
}

std::unique_ptr<RoomDirectory> Node::make_directory() {
  if (cluster_) {
    return std::make_unique<ClusterDirectory>(threads_.main().get_executor(), *cluster_, rooms_,
                                              players_, tournament_members_, worker_, metrics_);
  }
  return std::make_unique<LocalDirectory>(rooms_, matchmaker_);
}

PlaySettings Node::play_settings(const NodeSecrets& secrets) {
  PlaySettings settings{reach_.get(), std::chrono::seconds(options_.challenge_seconds),
                        secrets.daily, std::chrono::milliseconds(options_.node_lease_ms)};
  settings.tournaments_per_player_hour = options_.tournaments_per_player_hour;
  settings.bot_races_per_day = options_.bot_races_per_day;
  // A tournament's code is in the cluster's directory as a room's is.
  if (cluster_)
    settings.tournament_released = [this](const std::string& c) { cluster_->release(c); };
  return settings;
}

ServerContext Node::make_context(const NodeSecrets& secrets) {
  return ServerContext{
      {options_.max_message, options_.rate, options_.keepalive},
      edge_.web_root,
      metrics_,
      dispatcher_,
      sessions_,
      rooms_,
      worker_,
      limits_,
      *directory_,
      edge_.tls.get(),
      {edge_.tls != nullptr, options_.allowed_origins, [this] { return directory_->node_urls(); }},
      edge_.proxies,
      secrets.daily,
      edge_.admin ? &*edge_.admin : nullptr,
      edge_.admin ? &desk_ : nullptr,
      edge_.admin ? &play_.moderation : nullptr};
}

bool Node::restore(Store& store) {
  try {
    for (const auto s :
         {engine::BotStrength::easy, engine::BotStrength::medium, engine::BotStrength::hard}) {
      const std::string name = bot_player_name(s);
      // The computer's seats are bot accounts (docs/bots.md), driven in-process.
      store.add_player({.id = bot_player_id(s),
                        .name = name,
                        .name_key = protocol::name_key(name),
                        .created_at = unix_ms(),
                        .bot = true},
                       std::nullopt);
    }
    if (cluster_) return true;  // this node's earlier races come back through adoption
    const auto restored = restore_races(
        load_races(store.active_races(), store, store, players_, solo_games_, metrics_), rooms_);
    if (!restored.empty()) spdlog::info("{} races restored from the journal", restored.size());
    // Tournaments after the races: a match whose race came back is watched in its room.
    if (const std::size_t n = play_.tournaments.restore(store, store, store); n > 0) {
      spdlog::info("{} tournaments restored from the journal", n);
    }
    return true;
  } catch (const std::exception& e) {
    spdlog::error("cannot read the race journal: {}", e.what());
    return false;
  }
}

void Node::start() {
  if (cluster_) {
    spdlog::info("cluster: node {} at {}, redis {}:{}", options_.node_name,
                 cluster_->settings().public_url, options_.redis_host, options_.redis_port);
    cluster_->start();
  }
  journal_.start();
  play_.start(rooms_.executor());
  if (edge_.tls) {
    certificate_watch_ = std::make_unique<CertificateWatch>(threads_.main(), *edge_.tls);
    certificate_watch_->start();
  }
}

asio::awaitable<void> Node::shutdown() {
  // Cluster mode: out of the directory first, so nobody is sent here any more.
  if (cluster_) co_await cluster_->leave();
  journal_.stop();
  if (certificate_watch_) certificate_watch_->stop();
  rooms_.stop();
  bots_.stop();  // computer racers take no more turns
  if (fallback_) fallback_->stop();
  widening_.stop();
  play_.stop();  // presence's sweep, the challenges' expiry, the guard's checks
  sessions_.shutdown_all();
  co_await drain();
}

asio::awaitable<void> Node::drain() {
  asio::steady_timer timer(threads_.main());
  const auto deadline = std::chrono::steady_clock::now() + kShutdownBudget;
  bool aborted = false;
  while (sessions_.size() > 0) {
    if (!aborted && std::chrono::steady_clock::now() >= deadline) {
      spdlog::warn("{} connections did not close in time: closing them", sessions_.size());
      sessions_.for_each([](Session& s) { s.abort(); });
      aborted = true;
    }
    timer.expires_after(std::chrono::milliseconds(20));
    co_await timer.async_wait(asio::use_awaitable);
  }
  co_await play_.tournaments.journal(worker_);
  co_await flush_journal(solo_games_, rooms_, worker_, metrics_);
  threads_.release();
}

void Node::on_control(const std::string& message) { reach_->on_control(message); }

void Node::on_nodes(const std::set<std::string>& live) { reach_->on_nodes(live); }

asio::awaitable<void> Node::reclaim_players() { co_await reach_->reclaim(); }

std::vector<std::string> Node::tournament_codes() { return play_.tournaments.codes(); }

asio::awaitable<std::vector<std::string>> Node::adopt_tournaments(std::string orphan) {
  co_return co_await play_.tournaments.adopt(std::move(orphan), cluster_->settings().public_url,
                                             worker_);
}

}  // namespace tilerace::server
