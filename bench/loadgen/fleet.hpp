#pragma once
// The simulated clients of one load-generator run and their scripts: racers (in rooms of
// `racers_per_room` with `spectators` each), solo players, idle players, echo clients, and
// clients that only make TLS handshakes. Every one speaks TLS when the config says so.
// Threading: everything runs on one single-threaded io_context; nothing here locks.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/loadgen/stats.hpp"

namespace tilerace::loadgen {

// corner: down and left, else right, then up; random; bot: the computer opponent's medium
// strength on the board the server sent (classic 4×4 only), so that games are real games.
enum class Strategy { random, corner, bot };

struct FleetConfig {
  std::string host = "127.0.0.1";
  std::string port = "8080";  // one port, or several separated by commas (a cluster's nodes):
                              // rooms are created round robin, members join through the next
                              // node and follow its redirect
  std::size_t racers_per_room = 2;
  std::size_t spectators = 1;  // per room
  double rate = 0;             // moves/s per player; 0: the next move as soon as the reply is in
  Strategy strategy = Strategy::corner;
  int size = 4;
  bool public_rooms = false;         // listed by list_rooms (the soak's spectator finds them)
  std::size_t max_connecting = 256;  // handshakes in progress at once
  bool tls = false;                  // wss://, without verifying the server's certificate
};

class Client;
struct Room;

class Fleet {
 public:
  Fleet(boost::asio::io_context& ioc, FleetConfig config, Stats& stats);
  ~Fleet();

  // Each starts connecting its clients in the background (bounded by max_connecting).
  void launch_races(std::size_t racers);
  void launch_solo(std::size_t players);
  void launch_idle(std::size_t players);
  void launch_echo(std::size_t senders, std::size_t listeners);
  // Clients that each make full TLS handshakes one after another (no session resumption), each
  // on a new connection closed at once; every handshake counts as a reply. Needs config.tls.
  void launch_handshakes(std::size_t clients);

  // Waits until every launched client is settled (playing, spectating or idle as asked) or
  // failed, or the deadline passes. Returns how many settled.
  boost::asio::awaitable<std::size_t> wait_settled(Clock::time_point deadline);
  // Stops moving and closes every connection; waits for the closes up to the deadline.
  boost::asio::awaitable<void> stop(Clock::time_point deadline);

  std::size_t launched() const { return clients_.size() - handed_over_; }

  // Called by clients.
  void on_settled();
  void on_failed();
  void on_connected(bool ok);
  void on_closed();
  // A client was redirected: follower carries on in its place (started here).
  void hand_over(Client* from, std::shared_ptr<Client> follower);
  // The port the client of room r (r: room number, k: its k-th connection) connects to.
  const std::string& port_for(std::size_t r, std::size_t k) const;
  const FleetConfig& config() const { return config_; }
  // A player name no other client of this run (nor, but by chance, of another run) has: names
  // are unique on the server.
  std::string new_name();
  // The clients' TLS context, or nullptr without TLS.
  boost::asio::ssl::context* tls_context() { return tls_ ? &*tls_ : nullptr; }
  Stats& stats() { return stats_; }
  bool stopping() const { return stopping_; }

 private:
  boost::asio::awaitable<void> start_all(std::vector<std::shared_ptr<Client>> clients);
  void notify();

  boost::asio::io_context& ioc_;
  FleetConfig config_;
  std::optional<boost::asio::ssl::context> tls_;
  Stats& stats_;
  std::string name_prefix_;  // random per run
  std::size_t names_ = 0;
  std::vector<std::shared_ptr<Client>> clients_;
  std::vector<std::unique_ptr<Room>> rooms_;
  std::vector<std::string> ports_;
  std::size_t settled_ = 0, failed_ = 0, handed_over_ = 0, connecting_ = 0, open_ = 0;
  bool stopping_ = false;
  boost::asio::steady_timer changed_;  // cancelled whenever a count above changes
};

}  // namespace tilerace::loadgen
