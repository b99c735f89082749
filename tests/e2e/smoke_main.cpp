// tilerace-smoke: plays against a server that is already running (used by make test-docker).
//   tilerace-smoke play PORT           plays a 3×3 classic game to its end; prints the game id
//   tilerace-smoke check PORT GAME_ID  exits 0 when that game is on the 3×3 score leaderboard
//   tilerace-smoke race PORT [--one-node] [--tls NAME CA_FILE]
//                                      through a cluster's balancer: two players who land on
//                                      different nodes race (one follows a redirect), watched
//                                      by a spectator who sees every move; prints the room code.
//                                      --one-node: behind a proxy of a single node, where
//                                      nobody is redirected. --tls: over wss://, verifying the
//                                      certificate for NAME against CA_FILE (a proxy's own CA).
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/wss_client.hpp"

namespace {

using tilerace::e2e::json;

// The next message, or an exception: this tool fails loudly.
template <typename Client>
json next(Client& ws) {
  const auto m = ws.next(std::chrono::seconds(10));
  if (!m) throw std::runtime_error("connection closed");
  return *m;
}

// One WebSocket connection, plain or over TLS.
class Socket {
 public:
  virtual ~Socket() = default;
  virtual void send(const json& message) = 0;
  virtual json next() = 0;
};

template <typename Client>
class SocketOf : public Socket {
 public:
  template <typename... Args>
  explicit SocketOf(Args&&... args) : client_(std::forward<Args>(args)...) {}
  void send(const json& message) override { client_.send(message); }
  json next() override { return ::next(client_); }

 private:
  Client client_;
};

// Opens a connection on a path of the balancer.
using Connect = std::function<std::unique_ptr<Socket>(const std::string& path)>;

int play(std::uint16_t port) {
  tilerace::e2e::WsClient ws(port);
  ws.send({{"type", "hello"}, {"name", "smoke"}});
  if (next(ws)["type"] != "welcome") throw std::runtime_error("no welcome");
  ws.send({{"type", "new_game"}, {"size", 3}});
  const json game = next(ws);
  const std::string id = game["game"]["id"];
  const char* dirs[] = {"up", "down", "left", "right"};
  for (int i = 0; i < 5000; ++i) {
    ws.send({{"type", "move"}, {"dir", dirs[(i * 7 + i / 3) % 4]}});
    const json moved = next(ws);
    if (moved["type"] != "moved") throw std::runtime_error("unexpected " + moved.dump());
    if (moved["state"] == "over") {
      std::cerr << "game " << id << " over: score " << moved["score"] << " after " << moved["moves"]
                << " moves\n";
      std::cout << id << "\n";
      return 0;
    }
  }
  throw std::runtime_error("the game did not end");
}

int check(std::uint16_t port, const std::string& id) {
  const auto r =
      tilerace::e2e::http_request(port, "/api/leaderboard?mode=classic&size=3&limit=100");
  const json board = json::parse(r.body);  // named: a range-for over a temporary's member dangles
  for (const json& e : board["entries"]) {
    if (e["game"] == id) {
      std::cerr << "game " << id << " is on the leaderboard, rank " << e["rank"] << "\n";
      return 0;
    }
  }
  std::cerr << "game " << id << " is not on the leaderboard: " << r.body << "\n";
  return 1;
}

// A player behind the balancer on port: connected where the balancer sends them, or on the
// path a redirect named.
struct Player {
  Player(Connect connect_, const std::string& name)
      : connect(std::move(connect_)), ws(connect("/ws")) {
    ws->send({{"type", "hello"}, {"name", name}});
    const json welcome = ws->next();
    if (welcome["type"] != "welcome") throw std::runtime_error("no welcome: " + welcome.dump());
    id = welcome["player"]["id"];
    token = welcome["token"];
  }
  json request(const json& m) {
    ws->send(m);
    return ws->next();
  }
  // Follows a redirect (url is a path on the balancer): the same player, on that node.
  void follow(const json& redirect) {
    const std::string path = redirect["url"];
    if (path.empty() || path[0] != '/') throw std::runtime_error("not a path: " + path);
    ws = connect(path);
    if (request({{"type", "hello"}, {"name", "x"}, {"token", token}})["type"] != "welcome")
      throw std::runtime_error("token refused after a redirect");
  }
  json until(std::string_view type) {
    for (;;) {
      const json m = ws->next();
      if (m["type"] == type) return m;
    }
  }
  Connect connect;
  std::unique_ptr<Socket> ws;
  std::string id;
  std::string token;
};

int race(const Connect& connect, bool one_node) {
  Player ann(connect, "ann");
  const json room = ann.request({{"type", "create_room"}, {"size", 4}, {"public", true}});
  const std::string code = room["room"]["code"];
  std::unique_ptr<Player> bob;
  if (one_node) {
    bob = std::make_unique<Player>(connect, "bob");
    const json joined = bob->request({{"type", "join_room"}, {"code", code}});
    if (joined["type"] != "room") throw std::runtime_error("cannot join: " + joined.dump());
  }
  // Round robin sends the next connections to the other node: join there, be redirected.
  for (int i = 0; i < 6 && !bob; ++i) {
    auto candidate = std::make_unique<Player>(connect, "bob");
    const json answer = candidate->request({{"type", "join_room"}, {"code", code}});
    if (answer["type"] != "redirect") continue;  // landed on ann's node: try another connection
    std::cerr << "bob was redirected to " << answer["url"] << "\n";
    candidate->follow(answer);
    if (candidate->request({{"type", "join_room"}, {"code", code}})["type"] != "room")
      throw std::runtime_error("cannot join after the redirect");
    bob = std::move(candidate);
  }
  if (!bob) throw std::runtime_error("no connection reached the other node");
  Player watcher(connect, "watcher");
  json watching = watcher.request({{"type", "spectate"}, {"code", code}});
  if (watching["type"] == "redirect") {
    watcher.follow(watching);
    watching = watcher.request({{"type", "spectate"}, {"code", code}});
  }
  if (watching["type"] != "room") throw std::runtime_error("cannot spectate: " + watching.dump());
  ann.ws->send({{"type", "ready"}, {"ready", true}});
  bob->ws->send({{"type", "ready"}, {"ready", true}});
  ann.until("race_start");
  bob->until("race_start");
  const char* dirs[] = {"up", "left", "down", "right"};
  int moves = 0;
  for (int i = 0; moves < 5 && i < 40; ++i) {
    ann.ws->send({{"type", "move"}, {"dir", dirs[i % 4]}});
    if (ann.until("moved")["changed"] == true) ++moves;
  }
  for (int seen = 0; seen < moves;) {
    const json update = watcher.until("race_update");
    if (update["player"] == ann.id && update["moves"] != ++seen)
      throw std::runtime_error("the spectator missed a move");
  }
  bob->ws->send({{"type", "resign"}});
  const json over = ann.until("race_over");
  if (over["winner"] != ann.id) throw std::runtime_error("unexpected result " + over.dump());
  std::cerr << "race " << code << (one_node ? "" : " across two nodes") << ": " << moves
            << " moves seen by the spectator, winner ann (" << over["reason"] << ")\n";
  std::cout << code << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string verb = argc > 2 ? argv[1] : "";
    const auto port = static_cast<std::uint16_t>(argc > 2 ? std::stoi(argv[2]) : 0);
    if (verb == "play") return play(port);
    if (verb == "check" && argc > 3) return check(port, argv[3]);
    if (verb == "race") {
      bool one_node = false;
      std::optional<std::pair<std::string, std::string>> tls;  // name, CA file
      for (int i = 3; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--one-node") {
          one_node = true;
        } else if (flag == "--tls" && i + 2 < argc) {
          tls.emplace(argv[i + 1], argv[i + 2]);
          i += 2;
        } else {
          throw std::runtime_error("unknown flag " + flag);
        }
      }
      return race(
          [port, tls](const std::string& path) -> std::unique_ptr<Socket> {
            if (!tls)
              return std::make_unique<SocketOf<tilerace::e2e::WsClient>>(port, std::nullopt, path);
            return std::make_unique<SocketOf<tilerace::e2e::WssClient>>(port, tls->second,
                                                                        tls->first, path);
          },
          one_node);
    }
    std::cerr << "usage: tilerace-smoke play PORT | check PORT GAME_ID | race PORT [--one-node] "
                 "[--tls NAME CA_FILE]\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tilerace-smoke: " << e.what() << "\n";
    return 1;
  }
}
