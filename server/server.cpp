#include "server/server.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <unistd.h>

#include <array>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include "protocol/names.hpp"
#include "server/base/metrics.hpp"
#include "server/base/unix_time.hpp"
#include "server/cluster/cluster.hpp"
#include "server/game/bot_pool.hpp"
#include "server/game/bot_racer.hpp"
#include "server/game/daily.hpp"
#include "server/game/matchmaker.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/store_journal.hpp"
#include "server/net/admin_guard.hpp"
#include "server/net/certificate_watch.hpp"
#include "server/net/http_session.hpp"
#include "server/net/https_redirect.hpp"
#include "server/net/network_threads.hpp"
#include "server/net/server_context.hpp"
#include "server/net/ws_session.hpp"
#include "server/play/bot_fallback.hpp"
#include "server/play/cluster_directory.hpp"
#include "server/play/cluster_reach.hpp"
#include "server/play/dispatcher.hpp"
#include "server/play/local_directory.hpp"
#include "server/play/operator_desk.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::as_tuple;
using asio::use_awaitable;
using asio::ip::tcp;

namespace {

constexpr auto kShutdownBudget = std::chrono::seconds(8);
constexpr int kSocketSendBuffer = 64 * 1024;

// A plain connection over its address's limit gets a 429 and is closed. What it sent is read
// and dropped for up to a second first, so that closing does not reset the 429 away. (On the
// TLS port the connection is closed without a word: plain text there reads to a TLS client as
// a broken handshake, "wrong version number".)
asio::awaitable<void> refuse_busy(TcpSocket socket) {
  static constexpr std::string_view kResponse =
      "HTTP/1.1 429 Too Many Requests\r\nServer: tilerace\r\nConnection: close\r\n"
      "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
      "Content-Type: text/plain\r\nContent-Length: 39\r\n\r\n"
      "too many connections from your address\n";
  HttpStream stream(std::move(socket));
  stream.expires_after(std::chrono::seconds(1));
  auto [ec, n] =
      co_await asio::async_write(stream, asio::buffer(kResponse), as_tuple(use_awaitable));
  if (ec) co_return;  // the peer is gone already
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  std::array<char, 1024> sink;
  while (!ec) {
    std::tie(ec, n) = co_await stream.async_read_some(asio::buffer(sink), as_tuple(use_awaitable));
  }
}

asio::awaitable<void> accept_loop(NetworkThreads& threads, tcp::acceptor& acceptor,
                                  ServerContext& context) {
  asio::steady_timer pause(acceptor.get_executor());
  for (;;) {
    // The socket is bound to the network thread that will serve the connection.
    auto [ec, socket] =
        co_await acceptor.async_accept(threads.next().get_executor(), as_tuple(use_awaitable));
    // Shutdown closes the acceptor on this loop's thread: the loop ends (a connection accepted
    // in that instant is closed unserved) instead of accepting on a closed acceptor forever.
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (ec) {
      // E.g. out of file descriptors: keep serving the others, and do not spin on an accept
      // that fails at once.
      spdlog::warn("accept: {}", ec.message());
      pause.expires_after(std::chrono::milliseconds(50));
      co_await pause.async_wait(as_tuple(use_awaitable));
      continue;
    }
    const auto peer = socket.remote_endpoint(ec);
    if (ec) continue;  // already gone
    // A proxy of ours carries many clients: each is counted once its request names it.
    bool admitted = true;
    AddressLimits::Slot slot = context.proxies.trusts(peer.address())
                                   ? AddressLimits::Slot()
                                   : context.limits.connect(peer.address(), admitted);
    if (!admitted) {
      context.metrics.connections_refused_total.fetch_add(1, std::memory_order_relaxed);
      if (context.tls == nullptr) {
        asio::co_spawn(socket.get_executor(), refuse_busy(std::move(socket)), asio::detached);
      }
      continue;  // over TLS: the socket closes here, nothing written
    }
    socket.set_option(tcp::no_delay(true), ec);
    // A game connection never needs a big window; a fixed kernel buffer keeps what a slow
    // reader can pin in the kernel small (the send queue bound does the rest).
    socket.set_option(asio::socket_base::send_buffer_size(kSocketSendBuffer), ec);
    if (context.tls != nullptr) {
      // The handshake is the session's first step, under its deadline.
      std::make_shared<HttpsSession>(
          TlsStream(HttpStream(std::move(socket)), *context.tls->current()), context,
          std::move(slot))
          ->start();
    } else {
      std::make_shared<HttpSession>(HttpStream(std::move(socket)), context, std::move(slot))
          ->start();
    }
  }
}

// The journal pass every kJournalInterval, on the main context (one thread: NetworkThreads).
// stop(), called on that thread, ends it, also when it comes while a pass is being written (a
// cancelled timer alone would not).
class JournalLoop {
 public:
  JournalLoop(asio::io_context& ioc, PlayerRegistry& players, const RoomRegistry& rooms,
              Tournaments& tournaments, StoreWorker& worker, Metrics& metrics)
      : timer_(ioc),
        players_(players),
        rooms_(rooms),
        tournaments_(tournaments),
        worker_(worker),
        metrics_(metrics) {}

  void start() { asio::co_spawn(timer_.get_executor(), run(), asio::detached); }

  void stop() {
    stopped_ = true;
    timer_.cancel();
  }

 private:
  asio::awaitable<void> run() {
    while (!stopped_) {
      timer_.expires_after(kJournalInterval);
      auto [ec] = co_await timer_.async_wait(as_tuple(use_awaitable));
      if (ec || stopped_) co_return;  // shutdown: drain writes the last pass
      // A tournament before its matches' races: a journaled match race's tournament knows it.
      co_await tournaments_.journal(worker_);
      co_await flush_journal(players_, rooms_, worker_, metrics_);
      co_await worker_.probe();  // /healthz notices the database leaving or coming back
      // Once a day (and at start): the abandoned daily attempts of the days before.
      if (std::string today = day_of(unix_ms()); today != closed_before_) {
        if (co_await close_dailies(worker_, today)) closed_before_ = std::move(today);
      }
    }
  }

  asio::steady_timer timer_;
  bool stopped_ = false;
  std::string closed_before_;  // the day before which daily attempts were closed
  PlayerRegistry& players_;
  const RoomRegistry& rooms_;
  Tournaments& tournaments_;
  StoreWorker& worker_;
  Metrics& metrics_;
};

// Waits until every session has closed (aborting the stragglers once the budget is spent),
// then journals what is left and releases the network threads. Nothing is stopped: each
// thread's run() returns when the last handler of its context has run.
asio::awaitable<void> drain(NetworkThreads& threads, SessionSet& sessions, PlayerRegistry& players,
                            const RoomRegistry& rooms, Tournaments& tournaments,
                            StoreWorker& worker, Metrics& metrics) {
  asio::steady_timer timer(threads.main());
  const auto deadline = std::chrono::steady_clock::now() + kShutdownBudget;
  bool aborted = false;
  while (sessions.size() > 0) {
    if (!aborted && std::chrono::steady_clock::now() >= deadline) {
      spdlog::warn("{} connections did not close in time: closing them", sessions.size());
      sessions.for_each([](Session& s) { s.abort(); });
      aborted = true;
    }
    timer.expires_after(std::chrono::milliseconds(20));
    co_await timer.async_wait(use_awaitable);
  }
  co_await tournaments.journal(worker);
  co_await flush_journal(players, rooms, worker, metrics);
  threads.release();
}

// Where clients reach this node when --public-url does not say: its own address and port.
std::string default_public_url(const Options& options, std::uint16_t port) {
  if (!options.public_url.empty()) return options.public_url;
  std::string host = options.host;
  if (host == "0.0.0.0" || host == "::") {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    host = name;
  } else if (host.find(':') != std::string::npos) {
    host = "[" + host + "]";
  }
  return fmt::format("{}://{}:{}/ws", options.tls_cert.empty() ? "ws" : "wss", host, port);
}

}  // namespace

// The ownership and shutdown order this function keeps is written in docs/architecture.md.
int run_server(const Options& options, std::unique_ptr<Store> store) {
  std::unique_ptr<TlsCertificates> tls;
  if (!options.tls_cert.empty()) {
    try {
      tls = std::make_unique<TlsCertificates>(options.tls_cert, options.tls_key);
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
      return 2;
    }
    spdlog::info("TLS: certificate {} from {}", tls->serial(), options.tls_cert);
  }
  // The operator's name files, a line each: nullopt when one cannot be read.
  const auto lines_of = [](const std::string& path,
                           const char* option) -> std::optional<std::vector<std::string>> {
    std::vector<std::string> lines;
    if (path.empty()) return lines;
    std::ifstream file(path);
    if (!file) {
      spdlog::error("--{} {}: cannot read it", option, path);
      return std::nullopt;
    }
    for (std::string line; std::getline(file, line);) lines.push_back(std::move(line));
    return lines;
  };
  const auto blocked = lines_of(options.name_blocklist, "name-blocklist");
  const auto reserved = lines_of(options.reserved_names, "reserved-names");
  if (!blocked || !reserved) return 2;
  const protocol::NamePolicy names{protocol::ReservedNames(*reserved),
                                   protocol::NameBlocklist(*blocked)};
  if (!options.name_blocklist.empty()) {
    spdlog::info("names: {} blocked terms from {}", names.blocklist.size(), options.name_blocklist);
  }
  std::optional<AdminGuard> admin;
  if (!options.admin_token_file.empty()) {
    std::string error;
    std::optional<std::string> token = AdminGuard::read_token(options.admin_token_file, error);
    if (!token) {
      spdlog::error("{}", error);
      return 2;
    }
    admin.emplace(std::move(*token));
    spdlog::info("the operator API is on (/admin/api/, the /admin console)");
  }
  std::string unused;
  const TrustedProxies proxies = *TrustedProxies::parse(options.trusted_proxies, unused);
  NetworkThreads threads(options.threads);
  asio::io_context& ioc = threads.main();
  Metrics metrics;
  StoreWorker worker(*store, metrics);
  PlayerRegistry players;
  BotPool bots(options.bot_threads);
  RoomRegistry rooms(RoomServices{ioc.get_executor(),
                                  &worker,
                                  &metrics,
                                  {options.countdown, options.grace},
                                  {},
                                  &bots,
                                  options.bot_moves_per_second});
  Matchmaker matchmaker;
  AddressLimits limits(options.max_connections_per_ip, options.rooms_per_ip);
  std::optional<Cluster> cluster;
  if (!options.redis.empty()) {
    metrics.cluster_available.store(0);  // until Redis first answers
    cluster.emplace(ioc,
                    ClusterSettings{options.node_name,
                                    options.public_url,
                                    {options.redis_host, options.redis_port},
                                    std::chrono::milliseconds(options.node_lease_ms),
                                    std::chrono::seconds(options.grace)},
                    rooms, players, worker, metrics);
    rooms.set_journal(&*cluster);
    rooms.on_opened = [&cluster] { cluster->rooms_changed(); };
    rooms.on_released = [&cluster](const std::string& code) {
      cluster->release(code);
      cluster->rooms_changed();
    };
  } else {
    metrics.cluster_nodes.store(0);
  }
  // Where rooms are found and strangers paired: this node, or the cluster.
  std::unique_ptr<RoomDirectory> directory;
  if (cluster) {
    directory = std::make_unique<ClusterDirectory>(ioc.get_executor(), *cluster, rooms, players,
                                                   worker, metrics);
  } else {
    directory = std::make_unique<LocalDirectory>(rooms, matchmaker);
  }
  std::optional<BotFallback> fallback;
  if (options.quick_match_bot_after > 0) {
    fallback.emplace(ioc.get_executor(), *directory, rooms,
                     std::chrono::seconds(options.quick_match_bot_after));
  }
  PasswordHasher hasher(std::max(1, options.password_threads));
  OperatorDesk desk(worker, hasher);
  SignInLimits sign_in_limits;
  // Players on other nodes, for the friends features (cluster mode).
  std::optional<ClusterReach> reach;
  if (cluster) reach.emplace(ioc.get_executor(), *cluster, players);
  // The daily challenge's key: made once and kept in the store, so every node sharing it
  // derives the same seeds (read before serving, as the journal is below).
  // The device marks' key, likewise shared.
  std::string daily_secret;
  std::string marks_secret;
  try {
    daily_secret = store->server_secret("daily", random_hex(32));
    marks_secret = store->server_secret("device_marks", random_hex(32));
  } catch (const std::exception& e) {
    spdlog::error("cannot read the server's secrets: {}", e.what());
    return 2;
  }
  const DeviceMarks marks(marks_secret);
  Dispatcher dispatcher(
      players, rooms, *directory, worker, metrics, limits,
      {hasher, sign_in_limits, marks, names, std::int64_t{options.guest_name_days} * 86'400'000},
      fallback ? &*fallback : nullptr,
      {reach ? &*reach : nullptr, std::chrono::seconds(options.challenge_seconds), daily_secret,
       std::chrono::milliseconds(options.node_lease_ms)});
  if (reach) {
    reach->attach(dispatcher.friends(), dispatcher.challenges(), dispatcher.moderation(),
                  dispatcher.guard());
  }
  if (cluster) {  // a tournament's code is in the directory as a room's is, and is adopted
    Tournaments& tournaments = dispatcher.tournaments();
    tournaments.on_released = [&cluster](const std::string& code) { cluster->release(code); };
    cluster->tournament_codes = [&tournaments] { return tournaments.codes(); };
    cluster->adopt_tournaments = [&tournaments, &cluster, &worker](std::string orphan) {
      return tournaments.adopt(std::move(orphan), cluster->settings().public_url, worker);
    };
  }
  SessionSet sessions;

  std::error_code fs_error;
  const auto web_root = std::filesystem::canonical(options.web_root, fs_error);
  if (fs_error) {
    spdlog::error("--web-root {}: {}", options.web_root, fs_error.message());
    return 2;
  }
  ServerContext context{
      {options.max_message, options.rate, options.keepalive},
      web_root,
      metrics,
      dispatcher,
      sessions,
      rooms,
      worker,
      limits,
      *directory,
      tls.get(),
      {tls != nullptr, options.allowed_origins, [&directory] { return directory->node_urls(); }},
      proxies,
      daily_secret,
      admin ? &*admin : nullptr,
      admin ? &desk : nullptr};

  // Races that were running when the server last stopped go on (the worker is idle: nothing
  // else uses the store yet). The computer opponents are players too (their games are
  // replayed, their names shown), one per strength.
  try {
    for (const auto s :
         {engine::BotStrength::easy, engine::BotStrength::medium, engine::BotStrength::hard}) {
      const std::string name = bot_player_name(s);
      store->add_player({bot_player_id(s), name, protocol::name_key(name), unix_ms()},
                        std::nullopt);
    }
    // In cluster mode this node's earlier races come back through adoption instead (after its
    // first heartbeat: Cluster), so that a survivor adopting them at the same moment and this
    // node never both run one.
    if (!cluster) {
      const auto restored =
          restore_races(load_races(store->active_races(), *store, *store, players, metrics), rooms);
      if (!restored.empty()) spdlog::info("{} races restored from the journal", restored.size());
      // Tournaments after the races: a match whose race came back is watched in its room.
      if (const std::size_t n = dispatcher.tournaments().restore(*store, *store, *store); n > 0) {
        spdlog::info("{} tournaments restored from the journal", n);
      }
    }
  } catch (const std::exception& e) {
    spdlog::error("cannot read the race journal: {}", e.what());
    return 2;
  }

  tcp::acceptor acceptor(ioc);
  try {
    const tcp::endpoint endpoint(asio::ip::make_address(options.host), options.port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(asio::socket_base::max_listen_connections);
  } catch (const std::exception& e) {
    spdlog::error("cannot listen on {}:{}: {}", options.host, options.port, e.what());
    rooms.stop();
    return 2;
  }
  // The actual port, for tests and scripts that ask for port 0.
  const std::uint16_t port = acceptor.local_endpoint().port();
  tcp::acceptor redirect(ioc);
  if (options.redirect_http_port != 0) {
    try {
      const tcp::endpoint endpoint(asio::ip::make_address(options.host),
                                   options.redirect_http_port);
      redirect.open(endpoint.protocol());
      redirect.set_option(asio::socket_base::reuse_address(true));
      redirect.bind(endpoint);
      redirect.listen(asio::socket_base::max_listen_connections);
    } catch (const std::exception& e) {
      spdlog::error("cannot listen on {}:{}: {}", options.host, options.redirect_http_port,
                    e.what());
      rooms.stop();
      return 2;
    }
    spdlog::info("redirecting http://{}:{} to https", options.host,
                 redirect.local_endpoint().port());
    asio::co_spawn(ioc, redirect_to_https(redirect, port, context), asio::detached);
  }
  spdlog::info("listening on {}://{}:{} (web root {}, {} threads)", tls ? "https" : "http",
               options.host, port, web_root.string(), options.threads);
  if (cluster) {
    cluster->set_public_url(default_public_url(options, port));
    spdlog::info("cluster: node {} at {}, redis {}:{}", options.node_name,
                 cluster->settings().public_url, options.redis_host, options.redis_port);
    cluster->start();
  }

  // The acceptor, the journal loop and the signal handler all live on the main context, which
  // one thread runs: shutdown touches them with no strand or post in between.
  JournalLoop journal(ioc, players, rooms, dispatcher.tournaments(), worker, metrics);
  asio::co_spawn(ioc, accept_loop(threads, acceptor, context), asio::detached);
  journal.start();
  dispatcher.start();
  std::optional<CertificateWatch> certificate_watch;
  if (tls) certificate_watch.emplace(ioc, *tls).start();

  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("signal {}: shutting down", signal);
    beast::error_code ignored;
    acceptor.close(ignored);
    redirect.close(ignored);
    const auto shutdown = [&]() -> asio::awaitable<void> {
      // Cluster mode: out of the directory first, so nobody is sent here any more.
      if (cluster) co_await cluster->leave();
      journal.stop();
      if (certificate_watch) certificate_watch->stop();
      rooms.stop();
      bots.stop();  // computer racers take no more turns
      if (fallback) fallback->stop();
      dispatcher.stop();  // presence's sweep and the challenges' expiry
      sessions.shutdown_all();
      co_await drain(threads, sessions, players, rooms, dispatcher.tournaments(), worker, metrics);
    };
    asio::co_spawn(ioc, shutdown, asio::detached);
  });

  threads.run();
  worker.join();  // every store job submitted has finished before we exit
  spdlog::info("stopped");
  return 0;
}

}  // namespace tilerace::server
