#pragma once
// A race follows its racers off a node cut from them (a gray failure of its client side: the
// node keeps its lease, so nobody adopts its races, yet its players cannot reach it). A racer
// who comes back through another node B is not sent back to the owner A blindly: B asks A to
// release the race ("release" on A's control channel). A lets it go when none of its racers
// holds it there any more — a racer whose connection moved to another node does not, and each
// connection A still has is probed with a ping and counts only if the peer answers within
// kProbe. B then adopts that one race as it adopts a dead node's (Adoption::take: the store
// moves it under its next epoch, the move journal is taken over, and fencing keeps A from
// acknowledging anything more), and tells A it has it ("taken": A's room hands its spectators
// over). Without a release within kAnswer the racer is redirected to A as before. A racer who
// reaches a third node meanwhile is sent to B. docs/operations.md, "Races follow their
// racers", has the bound.
//
// Control messages (newline-separated fields):
//   release  <code> <asker node> <asker url> <request id>          B → A
//   released <request id> <yes|no|to> <url, for "to">               A → B
//   taken    <code> <race id> <node> <epoch> <url>                  B → A
// Threading: the cluster's main context runs everything here; a probe's answer is posted there.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "server/store/game_store.hpp"

namespace tilerace::server {

class RoomRegistry;

// A node as the directory names it: its name, and where clients reach it.
struct NodeAddress {
  std::string node;
  std::string url;
};

class RaceRelease {
 public:
  // How long a racer's connection on the owner has to answer a ping before it counts as cut off.
  static constexpr std::chrono::milliseconds kProbe{500};
  // How long an asker waits for the owner's answer before it redirects the racer there.
  static constexpr std::chrono::milliseconds kAnswer{1500};

  // What it needs of the cluster (Cluster gives it; each awaitable runs on the main context).
  struct Links {
    NodeAddress self;                 // this node
    std::chrono::milliseconds lease;  // how long a release stands without a "taken"
    // The live node heard from within two heartbeats that has a code (Cluster::owner_of).
    std::function<boost::asio::awaitable<std::optional<NodeAddress>>(std::string code)> owner_of;
    // Sends a message on a node's control channel (Cluster::tell).
    std::function<boost::asio::awaitable<void>(std::string node, std::string message)> tell;
    // Adopts the race of room that node released here: its record, or nullopt
    // (Adoption::take).
    std::function<boost::asio::awaitable<std::optional<ActiveRaceRecord>>(std::string node,
                                                                          std::string room)>
        take;
    std::function<void()> rooms_changed;  // this node's listing is to be published again
  };
  RaceRelease(boost::asio::any_io_executor main, Links links, RoomRegistry& rooms);

  // Cluster::follow (main context): where a racer of code's race who came back here goes.
  boost::asio::awaitable<std::optional<std::string>> follow(std::string code);
  // A control message of the kinds above (main context); false for any other kind.
  bool on_control(const std::string& message);

 private:
  enum class Verdict { kept, released, elsewhere };
  struct Answer {
    Verdict verdict = Verdict::kept;
    std::string url;  // elsewhere: where the race went
  };
  struct Waiting {
    explicit Waiting(const boost::asio::any_io_executor& executor)
        : timer(executor, boost::asio::steady_timer::time_point::max()) {}
    boost::asio::steady_timer timer;  // cancelled when it is over
    std::optional<Answer> answer;
  };
  struct Releasing {
    std::string node;
    std::string url;
    std::chrono::steady_clock::time_point until;
  };

  // B: asks node, which has code, to release it; kept when no answer comes within kAnswer.
  boost::asio::awaitable<Answer> ask(const std::string& node, const std::string& code);
  // A: answers a release request.
  boost::asio::awaitable<void> answer(std::string code, std::string asker, std::string url,
                                      std::string id);
  // A: the verdict on code for asker.
  boost::asio::awaitable<Answer> decide(const std::string& code, const std::string& asker,
                                        const std::string& url);
  // Sends message to node in the background (a failure is only logged: the asker times out).
  void tell(std::string node, std::string message);

  boost::asio::any_io_executor main_;
  Links links_;
  RoomRegistry& rooms_;
  std::uint64_t next_request_ = 0;
  std::map<std::string, std::shared_ptr<Waiting>> asked_;   // B: by request id
  std::map<std::string, std::shared_ptr<Waiting>> taking_;  // B: by code, while it is taken
  std::map<std::string, Releasing> releasing_;              // A: by code, released to node
};

}  // namespace tilerace::server
