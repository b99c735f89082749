#include "server/cluster/race_release.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <charconv>

#include "server/cluster/control_fields.hpp"
#include "server/game/room_registry.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

namespace {

asio::awaitable<void> wait(asio::steady_timer& timer) {
  co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
}

}  // namespace

RaceRelease::RaceRelease(asio::any_io_executor main, Links links, RoomRegistry& rooms)
    : main_(std::move(main)), links_(std::move(links)), rooms_(rooms) {}

asio::awaitable<std::optional<std::string>> RaceRelease::follow(std::string code) {
  const std::string& here = links_.self.url;
  // A take of this race in progress here: its end says where the race is.
  for (auto it = taking_.find(code); it != taking_.end(); it = taking_.find(code)) {
    const std::shared_ptr<Waiting> taking = it->second;
    co_await wait(taking->timer);
  }
  const std::optional<NodeAddress> owner = co_await links_.owner_of(code);
  if (!owner) co_return std::nullopt;  // no live node has it (yet)
  if (owner->node == links_.self.node) co_return here;
  const Answer answer = co_await ask(owner->node, code);
  if (answer.verdict == Verdict::elsewhere) co_return answer.url;
  if (answer.verdict == Verdict::kept) co_return owner->url;
  if (taking_.contains(code)) co_return here;  // another racer's follow took it meanwhile
  const auto taking = std::make_shared<Waiting>(main_);
  taking_.emplace(code, taking);
  std::optional<ActiveRaceRecord> taken;
  try {
    taken = co_await links_.take(owner->node, code);
  } catch (const std::exception& e) {
    spdlog::error("cluster: taking race {} from node {}: {}", code, owner->node, e.what());
  }
  taking_.erase(code);
  taking->timer.cancel();
  if (!taken) co_return owner->url;  // still theirs, or ended meanwhile: they say which
  spdlog::warn("cluster: node {} released room {} (race {}): its racers are here", owner->node,
               code, taken->id);
  links_.rooms_changed();
  tell(owner->node, "taken\n" + code + "\n" + taken->id + "\n" + links_.self.node + "\n" +
                        std::to_string(taken->epoch) + "\n" + here);
  co_return here;
}

asio::awaitable<RaceRelease::Answer> RaceRelease::ask(const std::string& node,
                                                      const std::string& code) {
  const std::string id = std::to_string(++next_request_);
  auto waiting = std::make_shared<Waiting>(main_);
  waiting->timer.expires_after(kAnswer);
  asked_.emplace(id, waiting);
  tell(node, "release\n" + code + "\n" + links_.self.node + "\n" + links_.self.url + "\n" + id);
  co_await wait(waiting->timer);
  asked_.erase(id);
  co_return waiting->answer.value_or(Answer{});
}

bool RaceRelease::on_control(const std::string& message) {
  const std::string kind = message.substr(0, message.find('\n'));
  if (kind == "release") {
    const auto f = control_fields(message, 4);  // release, code, asker, url, id
    if (f.size() != 5) return true;
    asio::co_spawn(main_, answer(f[1], f[2], f[3], f[4]), asio::detached);
  } else if (kind == "released") {
    const auto f = control_fields(message, 3);  // released, id, verdict, url
    if (f.size() != 4) return true;
    const auto it = asked_.find(f[1]);
    if (it == asked_.end()) return true;  // answered too late: the racer was redirected
    it->second->answer = Answer{f[2] == "yes"  ? Verdict::released
                                : f[2] == "to" ? Verdict::elsewhere
                                               : Verdict::kept,
                                f[3]};
    it->second->timer.cancel();
  } else if (kind == "taken") {
    const auto f = control_fields(message, 5);  // taken, code, race id, node, epoch, url
    if (f.size() != 6) return true;
    releasing_.erase(f[1]);
    RaceOwner owner{f[3], 0, f[5]};
    if (std::from_chars(f[4].data(), f[4].data() + f[4].size(), owner.epoch).ec != std::errc{}) {
      return true;
    }
    if (const auto room = rooms_.find(f[1])) room->lose(f[2], owner);
  } else {
    return false;
  }
  return true;
}

asio::awaitable<void> RaceRelease::answer(std::string code, std::string asker, std::string url,
                                          std::string id) {
  const Answer a = co_await decide(code, asker, url);
  const char* verdict = a.verdict == Verdict::released    ? "yes"
                        : a.verdict == Verdict::elsewhere ? "to"
                                                          : "no";
  tell(asker, "released\n" + id + "\n" + verdict + "\n" + a.url);
}

asio::awaitable<RaceRelease::Answer> RaceRelease::decide(const std::string& code,
                                                         const std::string& asker,
                                                         const std::string& url) {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(releasing_, [now](const auto& entry) { return entry.second.until <= now; });
  // Released already: to whoever it went to (the same asker decides afresh: its take failed).
  if (const auto it = releasing_.find(code); it != releasing_.end() && it->second.node != asker) {
    co_return Answer{Verdict::elsewhere, it->second.url};
  }
  const auto room = rooms_.find(code);
  if (!room) {
    if (std::optional<std::string> to = rooms_.handed_over(code)) {
      co_return Answer{Verdict::elsewhere, std::move(*to)};
    }
    co_return Answer{};
  }
  const auto here = room->racers_here();
  if (!here) co_return Answer{};
  // Any racer heard from within kProbe still holds the race here.
  struct Probe {
    explicit Probe(const asio::any_io_executor& executor) : timer(executor) {}
    asio::steady_timer timer;
    bool heard = false;
  };
  const auto probe = std::make_shared<Probe>(main_);
  probe->timer.expires_after(kProbe);
  bool asked = false;
  for (const auto& connection : *here) {
    asked |= connection->probe([probe, main = main_] {
      asio::post(main, [probe] {
        probe->heard = true;
        probe->timer.cancel();
      });
    });
  }
  if (asked) co_await wait(probe->timer);
  if (probe->heard) co_return Answer{};
  releasing_[code] = {asker, url, std::chrono::steady_clock::now() + links_.lease};
  spdlog::warn("cluster: room {}: no racer here answers; its race goes to node {}", code, asker);
  co_return Answer{Verdict::released, {}};
}

void RaceRelease::tell(std::string node, std::string message) {
  asio::co_spawn(main_, links_.tell(std::move(node), std::move(message)),
                 [](const std::exception_ptr& e) {
                   if (!e) return;
                   try {
                     std::rethrow_exception(e);
                   } catch (const std::exception& x) {
                     spdlog::debug("cluster: a race release message: {}", x.what());
                   }
                 });
}

}  // namespace tilerace::server
