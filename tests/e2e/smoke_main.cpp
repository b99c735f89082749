// tilerace-smoke: plays against a server that is already running (used by make test-docker).
//   tilerace-smoke play PORT           plays a 3×3 classic game to its end; prints the game id
//   tilerace-smoke check PORT GAME_ID  exits 0 when that game is on the 3×3 score leaderboard
#include <iostream>
#include <string>

#include "tests/e2e/harness.hpp"

namespace {

using tilerace::e2e::json;

// The next message, or an exception: this tool fails loudly.
json next(tilerace::e2e::WsClient& ws) {
  const auto m = ws.next(std::chrono::seconds(10));
  if (!m) throw std::runtime_error("connection closed");
  return *m;
}

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

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string verb = argc > 2 ? argv[1] : "";
    const auto port = static_cast<std::uint16_t>(argc > 2 ? std::stoi(argv[2]) : 0);
    if (verb == "play") return play(port);
    if (verb == "check" && argc > 3) return check(port, argv[3]);
    std::cerr << "usage: tilerace-smoke play PORT | check PORT GAME_ID\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tilerace-smoke: " << e.what() << "\n";
    return 1;
  }
}
