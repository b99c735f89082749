#pragma once
// Command-line and environment configuration of the tilerace binary.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilerace::server {

struct Options {
  std::string host = "0.0.0.0";
  std::uint16_t port = 8080;
  std::string data = "./data";
  std::string database;    // postgresql://… for the shared store; empty: SQLite under data
  std::string node_name;   // this server among those sharing a database; empty: host:port
  std::string redis;       // redis://host:port: cluster mode (needs database); empty: one node
  std::string redis_host;  // parsed from redis
  std::uint16_t redis_port = 6379;
  std::string public_url;    // where clients reach this node; empty: ws://<host>:<port>/ws
  int node_lease_ms = 5000;  // cluster mode: a node silent this long is dead
  std::string web_root = "web-client";
  int threads = 0;  // 0: hardware concurrency
  std::size_t max_message = 4096;
  double rate = 60;                 // messages per second per connection; the burst is twice this
  int grace = 60;                   // seconds a racer may be away before forfeiting
  int challenge_seconds = 60;       // how long a friend's challenge waits for its answer
  int countdown = 3;                // seconds before a race starts
  int bot_threads = 1;              // threads the computer opponents think on
  double bot_moves_per_second = 3;  // a computer racer's pace
  // Bot accounts (docs/bots.md): a bot's moves a second in a race with people, and the races
  // between bots it may have in a UTC day.
  int bot_api_moves_per_second = 20;
  int bot_races_per_day = 100;
  int quick_match_bot_after =
      20;              // seconds alone in quick match before the computer races; 0: never
  int keepalive = 15;  // seconds of silence before a ping; twice this before closing
  std::size_t max_connections_per_ip = 32;  // 0: no limit
  std::size_t rooms_per_ip = 10;            // rooms created per address per minute; 0: no limit
  int tournaments_per_player_hour = 5;      // tournaments one player may create an hour; 0: none
  std::string log_level = "info";
  std::int64_t clock_offset_ms = 0;  // added to the wall clock (tests of day boundaries)
  std::string name_blocklist;        // a file of terms names may not hold, one a line; empty: none
  std::string reserved_names;    // a file of names players may not take besides the built-in ones
  int guest_name_days = 30;      // a guest's name goes to another player after this long unused
  std::string admin_token_file;  // the operator API's bearer token (≥ 32 bytes); empty: API off
  int password_threads = 1;      // threads passwords are hashed on
  std::string tls_cert;          // PEM certificate (and chain): the port speaks HTTPS and WSS only
  std::string tls_key;           // its PEM private key; both or neither
  std::uint16_t redirect_http_port = 0;  // with TLS: plain HTTP here answers 308 to https; 0: off
  // Other origins of this site ("https://host[:port]", lower case): their pages may open
  // WebSockets here, and pages from here may connect to them.
  std::vector<std::string> allowed_origins;
  // Our own proxies ("10.0.0.0/8", "::1"): only from them, the client's address comes from
  // Forwarded / X-Forwarded-For.
  std::vector<std::string> trusted_proxies;
};

// Parses argv, then TILERACE_* environment variables for options not given on the command
// line. Returns nullopt after printing --help or an error (exit_code tells which).
std::optional<Options> parse_options(int argc, char** argv, int& exit_code);

}  // namespace tilerace::server
