#include "server/options.hpp"

#include <boost/program_options.hpp>

#include "server/net/security_headers.hpp"
#include "server/net/trusted_proxies.hpp"

#include <unistd.h>

#include <charconv>
#include <iostream>
#include <thread>

namespace tilerace::server {

namespace po = boost::program_options;

namespace {

// The values given for a list option (repeated, or separated by commas or spaces), in order.
std::vector<std::string> items_of(const po::variables_map& vm, const char* name) {
  std::vector<std::string> items;
  if (!vm.count(name)) return items;
  for (const std::string& value : vm[name].as<std::vector<std::string>>()) {
    std::string_view rest = value;
    while (!rest.empty()) {
      const auto end = rest.find_first_of(", ");
      if (end != 0) items.emplace_back(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
  return items;
}

// Every option, in groups as --help shows them, each stored into o.
po::options_description describe(Options& o) {
  po::options_description desc(
      "tilerace — race 2048 over WebSockets\n\n"
      "Every option may also be set by an environment variable: --web-root is\n"
      "TILERACE_WEB_ROOT, and so on. The command line wins.\n\nOptions");
  desc.add_options()("help", "print this help and exit");
  po::options_description serving("Serving");
  // clang-format off
  serving.add_options()
    ("host", po::value(&o.host)->default_value(o.host), "address to bind")
    ("port", po::value(&o.port)->default_value(o.port), "HTTP and WebSocket port (0: any free port)")
    ("web-root", po::value(&o.web_root)->default_value(o.web_root), "folder of the web client's static files")
    ("threads", po::value(&o.threads)->default_value(o.threads), "network threads (0: one per core)")
    ("tls-cert", po::value(&o.tls_cert), "PEM certificate (the chain may follow it): the port then speaks HTTPS and WSS only; reloaded on SIGHUP and when the file changes")
    ("tls-key", po::value(&o.tls_key), "PEM private key of --tls-cert")
    ("redirect-http-port", po::value(&o.redirect_http_port), "with --tls-cert: also listen for plain HTTP on this port and answer every request with a 308 to https")
    ("trusted-proxy", po::value<std::vector<std::string>>()->multitoken()->composing(), "address or CIDR of a proxy of ours (several: repeat, or separate by commas): only from these peers does the client's address come from Forwarded or X-Forwarded-For, for limits, logs and metrics")
    ("allowed-origin", po::value<std::vector<std::string>>()->multitoken()->composing(), "another origin of this site (https://host[:port]; several: repeat, or separate by commas): its pages may open WebSockets here and be connected to from here. The site's own origin always may")
    ("log-level", po::value(&o.log_level)->default_value(o.log_level), "trace, debug, info, warn, error or off")
    ("clock-offset-ms", po::value(&o.clock_offset_ms)->default_value(o.clock_offset_ms), "moves the server's wall clock by this many ms (testing day boundaries: the daily challenge, the boards' periods); steady timers are not moved");
  // clang-format on
  desc.add(serving);
  po::options_description storage("Storage and cluster");
  // clang-format off
  storage.add_options()
    ("data", po::value(&o.data)->default_value(o.data), "data folder (the SQLite file lives here)")
    ("database", po::value(&o.database), "postgresql://user:password@host:port/dbname: share PostgreSQL with other nodes (default: SQLite under --data)")
    ("node-name", po::value(&o.node_name), "this node's name among those sharing a database (default: hostname:port)")
    ("redis", po::value(&o.redis), "redis://host:port: cluster mode, one world across the nodes sharing this Redis and --database")
    ("public-url", po::value(&o.public_url), "cluster mode: where clients reach this node, e.g. wss://play.example/node/2/ws or a path such as /node/2/ws (default: ws://<host>:<port>/ws)")
    ("node-lease-ms", po::value(&o.node_lease_ms)->default_value(o.node_lease_ms), "cluster mode: a node silent this long is taken for dead");
  // clang-format on
  desc.add(storage);
  po::options_description play("Play");
  // clang-format off
  play.add_options()
    ("grace", po::value(&o.grace)->default_value(o.grace), "seconds a disconnected racer keeps their place")
    ("countdown", po::value(&o.countdown)->default_value(o.countdown), "seconds of countdown before a race")
    ("challenge-seconds", po::value(&o.challenge_seconds)->default_value(o.challenge_seconds), "seconds a challenge to a friend waits for its answer")
    ("bot-threads", po::value(&o.bot_threads)->default_value(o.bot_threads), "threads the computer opponents think on")
    ("bot-moves-per-second", po::value(&o.bot_moves_per_second)->default_value(o.bot_moves_per_second), "a computer racer's pace, so that its races can be watched")
    ("bot-api-moves-per-second", po::value(&o.bot_api_moves_per_second)->default_value(o.bot_api_moves_per_second), "a bot account's moves a second at most in a race with people (a room's bot_pace may ask for fewer)")
    ("bot-races-per-day", po::value(&o.bot_races_per_day)->default_value(o.bot_races_per_day), "races between bots one bot account may have in a UTC day")
    ("quick-match-bot-after", po::value(&o.quick_match_bot_after)->default_value(o.quick_match_bot_after), "seconds a player waits alone in quick match before the computer (medium) races them; 0: never");
  // clang-format on
  desc.add(play);
  po::options_description limits("Limits");
  // clang-format off
  limits.add_options()
    ("max-message", po::value(&o.max_message)->default_value(o.max_message), "largest client message in bytes (larger: close 1009)")
    ("rate", po::value(&o.rate)->default_value(o.rate), "messages per second per connection (burst: twice this)")
    ("keepalive", po::value(&o.keepalive)->default_value(o.keepalive), "seconds of silence before a connection is pinged; closed after twice this")
    ("max-connections-per-ip", po::value(&o.max_connections_per_ip)->default_value(o.max_connections_per_ip), "connections open at once from one address (IPv6: one /64); 0: no limit")
    ("rooms-per-ip", po::value(&o.rooms_per_ip)->default_value(o.rooms_per_ip), "rooms one address may create per minute; 0: no limit")
    ("tournaments-per-player-hour", po::value(&o.tournaments_per_player_hour)->default_value(o.tournaments_per_player_hour), "tournaments one player may create an hour, on every node sharing the store; 0: no limit");
  // clang-format on
  desc.add(limits);
  po::options_description names("Names and operators");
  // clang-format off
  names.add_options()
    ("reserved-names", po::value(&o.reserved_names), "a file of names players may not take, one a line (# starts a comment), besides admin, operator, moderator, support, tilerace, computer, bot, guest and the like; matched through look-alikes")
    ("name-blocklist", po::value(&o.name_blocklist), "a file of terms player names may not contain, one a line (# starts a comment); matched after normalisation and through look-alikes (0 for o, 4 for a, ...)")
    ("guest-name-days", po::value(&o.guest_name_days)->default_value(o.guest_name_days), "days a guest's name stays theirs without a sign-in or a game; then another player may take it, and the guest comes back under a generated name (0: at once)")
    ("admin-token-file", po::value(&o.admin_token_file), "a file holding the operator API's bearer token (at least 32 bytes; white space around it is ignored): /admin/api/ and the /admin console answer only with it. Without it the API is off")
    ("password-threads", po::value(&o.password_threads)->default_value(o.password_threads), "threads passwords are hashed on (argon2id, about 30 ms of one core each)");
  // clang-format on
  desc.add(names);
  return desc;
}

// Where a cluster's Redis is (--redis, redis://host:port): set into o, or what is wrong.
std::string read_redis(Options& o) {
  std::string_view rest = o.redis;
  if (rest.starts_with("redis://")) rest.remove_prefix(8);
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  const auto colon = rest.rfind(':');
  o.redis_host = std::string(rest.substr(0, colon));
  int port = 6379;
  if (colon != std::string_view::npos) {
    const auto digits = rest.substr(colon + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec != std::errc() || end != digits.data() + digits.size() || port < 1 || port > 65535)
      port = 0;
  }
  if (o.redis_host.empty() || port == 0) return "--redis must be redis://host:port";
  o.redis_port = static_cast<std::uint16_t>(port);
  if (o.database.empty())
    return "--redis needs --database: the nodes of a cluster share PostgreSQL";
  if (o.node_lease_ms < 500) return "--node-lease-ms must be >= 500";
  return "";
}

// The values read checked, and what follows from them set (threads, Redis, the lists): what is
// wrong, or "" when nothing is.
std::string check(Options& o, const po::variables_map& vm) {
  if (o.threads <= 0)
    o.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (o.rate <= 0 || o.max_message < 64 || o.grace < 0 || o.countdown < 0 || o.keepalive < 1 ||
      o.challenge_seconds < 1 || o.guest_name_days < 0 || o.guest_name_days > 36'500) {
    return "--rate must be > 0, --max-message >= 64, --grace and --countdown >= 0, --keepalive "
           "and --challenge-seconds >= 1, --guest-name-days in [0, 36500]";
  }
  if (o.bot_threads < 1 || !(o.bot_moves_per_second > 0 && o.bot_moves_per_second <= 100) ||
      o.quick_match_bot_after < 0 || o.bot_api_moves_per_second < 1 ||
      o.bot_api_moves_per_second > 1000 || o.bot_races_per_day < 1) {
    return "--bot-threads must be >= 1, --bot-moves-per-second in (0, 100], "
           "--quick-match-bot-after >= 0, --bot-api-moves-per-second in [1, 1000], "
           "--bot-races-per-day >= 1";
  }
  if (!o.database.empty() && !o.database.starts_with("postgresql://") &&
      !o.database.starts_with("postgres://")) {
    return "--database must be a postgresql:// URL";
  }
  if (!o.redis.empty()) {
    if (std::string wrong = read_redis(o); !wrong.empty()) return wrong;
  }
  for (const std::string& item : items_of(vm, "allowed-origin")) {
    const std::string origin = normal_origin(item);
    if (origin.empty()) {
      return "--allowed-origin " + item + " is not an origin such as https://play.example.com";
    }
    o.allowed_origins.push_back(origin);
  }
  o.trusted_proxies = items_of(vm, "trusted-proxy");
  if (std::string bad; !TrustedProxies::parse(o.trusted_proxies, bad)) {
    return "--trusted-proxy " + bad + " is not an address or a network such as 10.0.0.0/8";
  }
  if (o.redirect_http_port != 0 && o.tls_cert.empty()) {
    return "--redirect-http-port redirects to https: it needs --tls-cert";
  }
  if (o.tls_cert.empty() != o.tls_key.empty()) return "--tls-cert and --tls-key go together";
  return "";
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv, int& exit_code) {
  Options o;
  const po::options_description desc = describe(o);
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::store(po::parse_environment(desc,
                                    [&desc](const std::string& env) -> std::string {
                                      if (env.rfind("TILERACE_", 0) != 0) return "";
                                      std::string name = env.substr(9);
                                      for (char& c : name) {
                                        c = c == '_' ? '-' : static_cast<char>(std::tolower(c));
                                      }
                                      return desc.find_nothrow(name, false) ? name : "";
                                    }),
              vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      exit_code = 0;
      return std::nullopt;
    }
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "tilerace: " << e.what() << "\n(see --help)\n";
    exit_code = 2;
    return std::nullopt;
  }
  if (const std::string wrong = check(o, vm); !wrong.empty()) {
    std::cerr << "tilerace: " << wrong << "\n";
    exit_code = 2;
    return std::nullopt;
  }
  if (o.node_name.empty()) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    o.node_name = std::string(host) + ":" + std::to_string(o.port);
  }
  return o;
}

}  // namespace tilerace::server
