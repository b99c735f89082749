// libFuzzer: the whole message dispatcher on an in-process server (real rooms, matchmaker,
// registries and an in-memory SQLite store shared by all inputs), driven by up to four fake
// players. Input: lines; a line's first byte picks the player (byte % 4), the rest is the text that
// player sends. "@@" in a text becomes the last room code the server announced and "%%"
// the player's last token, so rooms can be joined and sessions resumed. A first byte of '~'
// (then the player digit) disconnects and reconnects that player instead.
// Oracles: no crash or sanitizer report, no exception out of the dispatcher, and every
// message the server sends is one valid JSON object.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/decode.hpp"
#include "server/base/address_limits.hpp"
#include "server/base/metrics.hpp"
#include "server/game/matchmaker.hpp"
#include "server/game/player_registry.hpp"
#include "server/game/room_registry.hpp"
#include "server/play/dispatcher.hpp"
#include "server/play/local_directory.hpp"
#include "server/store/sqlite_dialect.hpp"
#include "server/store/store_worker.hpp"

namespace {

using namespace tilerace;
using namespace tilerace::server;
namespace asio = boost::asio;
using json = nlohmann::json;

// What the harness learns from the server's messages, for "@@" and "%%".
struct Seen {
  std::string room_code;
};

class FakeParticipant final : public Participant {
 public:
  FakeParticipant(Seen& seen, std::string& token) : token_(token), seen_(seen) {}
  void deliver(SharedMessage message) override {
    const json j = json::parse(*message, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("type")) std::abort();
    if (j["type"] == "room") seen_.room_code = j["room"]["code"];
    if (j["type"] == "welcome") token_ = j["token"];
  }
  void close(std::uint16_t) override {}

 private:
  std::string& token_;  // the player's, kept across reconnects
  Seen& seen_;
};

struct FuzzPlayer {
  std::shared_ptr<FakeParticipant> participant;
  std::optional<Connection> connection;
  std::string token;
};

void replace_all(std::string& text, std::string_view what, std::string_view with) {
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16 * 1024) return 0;
  asio::io_context ioc;
  auto busy = asio::make_work_guard(ioc);  // poll and run_one_for never find it stopped
  Metrics metrics;
  // One database for the whole run: opening and migrating one per input would cost more
  // than the input itself. Its rows only grow; no input can reach another input's players.
  static SqliteStore store(":memory:");
  StoreWorker worker(store, metrics);  // joined below, so no job outlives this input's io_context
  PlayerRegistry players;
  // No countdown: races start at once, with no waiting on timers.
  const RaceSettings settings{.countdown = 0, .grace = 60};
  RoomRegistry rooms(RoomServices{ioc.get_executor(), &worker, &metrics, settings, {}});
  Matchmaker matchmaker;
  LocalDirectory directory(rooms, matchmaker);
  AddressLimits limits(0, 0);
  static PasswordHasher hasher(1, PasswordHasher::kCheap);
  SignInLimits sign_in_limits;
  static const DeviceMarks marks("the fuzzer's device marks secret");
  static const protocol::NamePolicy names{protocol::ReservedNames(),
                                          protocol::NameBlocklist({"blocked"})};
  TournamentMembers tournament_members;
  SoloGames solo_games;
  PlayServices play(players, solo_games, rooms, directory, tournament_members, worker, metrics,
                    {hasher, sign_in_limits, marks, names});
  Dispatcher dispatcher(play, players, rooms, directory, worker, metrics, limits);
  Seen seen;

  std::array<FuzzPlayer, 4> fleet;
  const auto connect = [&](FuzzPlayer& p) {
    p.participant = std::make_shared<FakeParticipant>(seen, p.token);
    p.connection.emplace(*p.participant);
    p.connection->self = p.participant;
    p.connection->address = "127.0.0.1";
  };
  for (auto& p : fleet) connect(p);

  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t lines = 0;
  for (std::size_t begin = 0; begin < input.size() && lines < 64; ++lines) {
    auto end = input.find('\n', begin);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view line = input.substr(begin, end - begin);
    begin = end + 1;
    if (line.empty()) continue;
    if (line[0] == '~') {
      FuzzPlayer& p = fleet[(line.size() > 1 ? static_cast<unsigned char>(line[1]) : 0) % 4];
      dispatcher.disconnected(*p.connection);
      connect(p);
      ioc.poll();
      continue;
    }
    FuzzPlayer& p = fleet[static_cast<unsigned char>(line[0]) % 4];
    std::string text(line.substr(1, 4096));
    replace_all(text, "@@", seen.room_code);
    replace_all(text, "%%", p.token);
    if (!protocol::valid_utf8(text)) continue;  // the WebSocket layer closes these (1007)
    const protocol::Decoded decoded = protocol::decode_client(text);
    // What needs no storage is done at once; the rest comes back to be awaited.
    if (auto rest = dispatcher.handle(*p.connection, decoded)) {
      bool done = false;
      asio::co_spawn(ioc, std::move(*rest), [&](std::exception_ptr e) {
        if (e) std::abort();  // the dispatcher must turn every failure into a protocol error
        done = true;
      });
      while (!done) ioc.run_one_for(std::chrono::seconds(10));
    }
    ioc.poll();
  }
  for (auto& p : fleet) dispatcher.disconnected(*p.connection);
  play.stop();  // challenges' expiry timers
  ioc.poll();
  worker.join();
  ioc.poll();  // the completions of the last jobs
  busy.reset();
  return 0;
}
