#include "server/server.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>

#include <unistd.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "server/accept_loop.hpp"
#include "server/base/secrets.hpp"
#include "server/net/https_redirect.hpp"
#include "server/node.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

namespace {

// A file the options name, a line each: nullopt (logged) when it cannot be read.
std::optional<std::vector<std::string>> lines_of(const std::string& path, const char* option) {
  std::vector<std::string> lines;
  if (path.empty()) return lines;
  std::ifstream file(path);
  if (!file) {
    spdlog::error("--{} {}: cannot read it", option, path);
    return std::nullopt;
  }
  for (std::string line; std::getline(file, line);) lines.push_back(std::move(line));
  return lines;
}

// The edge phase: what the options name outside the process — the certificate, the name
// files, the operator API's token, the proxies, the web root — read and checked into edge.
// False (logged) when one cannot be used.
bool read_edge(const Options& options, NodeEdge& edge) {
  try {
    if (!options.tls_cert.empty()) {
      edge.tls = std::make_unique<TlsCertificates>(options.tls_cert, options.tls_key);
      spdlog::info("TLS: certificate {} from {}", edge.tls->serial(), options.tls_cert);
    }
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return false;
  }
  const auto blocked = lines_of(options.name_blocklist, "name-blocklist");
  const auto reserved = lines_of(options.reserved_names, "reserved-names");
  if (!blocked || !reserved) return false;
  edge.names = {protocol::ReservedNames(*reserved), protocol::NameBlocklist(*blocked)};
  if (!options.name_blocklist.empty()) {
    spdlog::info("names: {} blocked terms from {}", edge.names.blocklist.size(),
                 options.name_blocklist);
  }
  if (!options.admin_token_file.empty()) {
    std::string error;
    std::optional<std::string> token = AdminGuard::read_token(options.admin_token_file, error);
    if (!token) {
      spdlog::error("{}", error);
      return false;
    }
    edge.admin.emplace(std::move(*token));
    spdlog::info("the operator API is on (/admin/api/, the /admin console)");
  }
  std::string unused;  // the options checked them
  edge.proxies = *TrustedProxies::parse(options.trusted_proxies, unused);
  std::error_code fs_error;
  edge.web_root = std::filesystem::canonical(options.web_root, fs_error);
  if (fs_error) {
    spdlog::error("--web-root {}: {}", options.web_root, fs_error.message());
    return false;
  }
  return true;
}

// Binds and listens on host:port; false (logged) when it cannot.
bool listen_on(tcp::acceptor& acceptor, const std::string& host, std::uint16_t port) {
  try {
    const tcp::endpoint endpoint(asio::ip::make_address(host), port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(asio::socket_base::max_listen_connections);
    return true;
  } catch (const std::exception& e) {
    spdlog::error("cannot listen on {}:{}: {}", host, port, e.what());
    return false;
  }
}

// The store phase: the keys every node sharing the store derives the same values from, made
// once and kept there. nullopt (logged) when the store cannot be read.
std::optional<NodeSecrets> read_secrets(Store& store) {
  try {
    return NodeSecrets{store.server_secret("daily", random_hex(32)),
                       store.server_secret("device_marks", random_hex(32))};
  } catch (const std::exception& e) {
    spdlog::error("cannot read the server's secrets: {}", e.what());
    return std::nullopt;
  }
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

// The serving phase: the HTTPS redirect, the accept loop and the node's own loops until a
// stop signal; then the node shuts down, the threads run out of work, the store's jobs finish.
void serve(const Options& options, NetworkThreads& threads, Node& node, tcp::acceptor& acceptor,
           tcp::acceptor& redirect) {
  asio::io_context& ioc = threads.main();
  ServerContext& context = node.context();
  const std::uint16_t port = acceptor.local_endpoint().port();
  if (redirect.is_open()) {
    spdlog::info("redirecting http://{}:{} to https", options.host,
                 redirect.local_endpoint().port());
    asio::co_spawn(ioc, redirect_to_https(redirect, port, context), asio::detached);
  }
  spdlog::info("listening on {}://{}:{} (web root {}, {} threads)",
               context.tls != nullptr ? "https" : "http", options.host, port,
               context.web_root.string(), options.threads);
  // The acceptor, the journal loop and the signal handler all live on the main context, which
  // one thread runs: shutdown touches them with no strand or post in between.
  node.start();
  asio::co_spawn(ioc, accept_loop(threads, acceptor, context), asio::detached);
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("signal {}: shutting down", signal);
    beast::error_code ignored;
    acceptor.close(ignored);
    redirect.close(ignored);
    asio::co_spawn(ioc, node.shutdown(), asio::detached);
  });
  threads.run();
  node.join();  // every store job submitted has finished before we exit
}

}  // namespace

// The phases, in order: the edge, the threads and the port, the store's secrets, the node (built
// whole), what the journal kept, serving. The ownership and shutdown order is written in
// docs/architecture.md.
int run_server(const Options& options, std::unique_ptr<Store> store) {
  NodeEdge edge;
  if (!read_edge(options, edge)) return 2;
  NetworkThreads threads(options.threads);
  tcp::acceptor acceptor(threads.main());
  tcp::acceptor redirect(threads.main());
  if (!listen_on(acceptor, options.host, options.port)) return 2;
  if (options.redirect_http_port != 0 &&
      !listen_on(redirect, options.host, options.redirect_http_port)) {
    return 2;
  }
  const std::optional<NodeSecrets> secrets = read_secrets(*store);
  if (!secrets) return 2;
  Node node(options, threads, *store, edge, *secrets,
            default_public_url(options, acceptor.local_endpoint().port()));
  if (!node.restore(*store)) return 2;
  serve(options, threads, node, acceptor, redirect);
  spdlog::info("stopped");
  return 0;
}

}  // namespace tilerace::server
