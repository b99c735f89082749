#include "tests/chaos/people_driver.hpp"

#include "tests/chaos/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace tilerace::chaos {

namespace {

using namespace std::chrono_literals;
using e2e::json;
using e2e::WsClient;

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Sends message on ws and reads until a message of one of types (or an error) comes: it, or
// null when none came within 10 s or the connection ended.
json answer(WsClient& ws, const json& message, std::initializer_list<std::string_view> types) {
  try {
    ws.send(message);
    const auto deadline = Clock::now() + 10s;
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return nullptr;
      const std::optional<json> m = ws.next(left);
      if (!m) return nullptr;
      const std::string type = (*m)["type"];
      if (type == "error") return *m;
      for (std::string_view t : types) {
        if (type == t) return *m;
      }
    }
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

PeopleDriver::PeopleDriver(int index, std::vector<std::uint16_t> doors,
                           std::chrono::milliseconds lease, std::string admin_token,
                           const Ledger& ledger)
    : index_(index),
      doors_(std::move(doors)),
      lease_(lease),
      admin_token_(std::move(admin_token)),
      ledger_(ledger),
      random_(static_cast<unsigned>(index) + 500) {
  mover_.name = fmt::format("mover{}", index);
  friend_.name = fmt::format("friend{}", index);
  account_.name = fmt::format("account{}", index);
}

PeopleDriver::~PeopleDriver() { stop(); }

void PeopleDriver::start() {
  thread_ = std::thread([this] { run(); });
}

void PeopleDriver::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

PeopleCounts PeopleDriver::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

void PeopleDriver::violation(int PeopleCounts::*count, std::string what) {
  std::lock_guard lock(mutex_);
  ++(counts_.*count);
  counts_.violations.push_back(std::move(what));
}

void PeopleDriver::run() {
  while (!stopping_ && !setup()) std::this_thread::sleep_for(500ms);  // a client's retry pause
  for (int round = 0; !stopping_; ++round) {
    const bool judged = round % 2 == 0 ? move_round() : revocation_round(round % 4 == 3);
    if (!judged && !stopping_) {
      {
        std::lock_guard lock(mutex_);
        ++counts_.rounds_given_up;
      }
      std::this_thread::sleep_for(500ms);  // a client's pause before trying again
    }
  }
}

std::unique_ptr<WsClient> PeopleDriver::connect(const Person& who, std::uint16_t door) {
  try {
    auto ws = std::make_unique<WsClient>(door);
    json hello{{"type", "hello"}, {"name", who.name}};
    if (!who.token.empty()) hello["token"] = who.token;
    ws->send(hello);
    for (;;) {
      const std::optional<json> m = ws->next(10s);
      if (!m) return nullptr;
      if ((*m)["type"] == "welcome") return ws;
      if ((*m)["type"] == "error") return nullptr;
    }
  } catch (const std::exception&) {
    return nullptr;
  }
}

bool PeopleDriver::answers(WsClient& ws) {
  try {
    ws.send({{"type", "ping"}, {"rid", "alive"}});
    for (;;) {
      const std::optional<json> m = ws.next(3s);
      if (!m) return false;
      if ((*m)["type"] == "pong") return true;
    }
  } catch (const std::exception&) {
    return false;
  }
}

std::uint16_t PeopleDriver::door_other_than(std::uint16_t door) {
  std::uint16_t other = door;
  while (other == door) other = doors_[random_() % doors_.size()];
  return other;
}

bool PeopleDriver::setup() {
  // New guests each, friends with each other; the account registered.
  try {
    const std::uint16_t door = doors_[random_() % doors_.size()];
    WsClient a(door), b(door), c(door);
    for (auto [who, ws] :
         {std::pair{&mover_, &a}, std::pair{&friend_, &b}, std::pair{&account_, &c}}) {
      const json w = answer(*ws, {{"type", "hello"}, {"name", who->name}}, {"welcome"});
      if (w.is_null() || w["type"] != "welcome") return false;
      who->id = w["player"]["id"];
      who->token = w["token"];
    }
    const json registered =
        answer(c, {{"type", "register"}, {"password", password_}}, {"registered"});
    if (registered.is_null() || registered["type"] != "registered") return false;
    const json asked =
        answer(a, {{"type", "friend_request"}, {"player", friend_.id}}, {"friend_update"});
    if (asked.is_null() || asked["type"] == "error") return false;
    for (;;) {  // the request reaches the friend
      const std::optional<json> m = b.next(10s);
      if (!m) return false;
      if ((*m)["type"] == "friend_update" && (*m)["relation"] == "incoming") break;
    }
    const json accepted =
        answer(b, {{"type", "friend_accept"}, {"player", mover_.id}}, {"friend_update"});
    return !accepted.is_null() && accepted["relation"] == "friend";
  } catch (const std::exception&) {
    return false;
  }
}

std::string PeopleDriver::seen_by_friend() {
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto ws = connect(friend_, doors_[random_() % doors_.size()]);
    if (!ws) continue;
    try {
      ws->send({{"type", "friends"}});
      for (;;) {
        const std::optional<json> m = ws->next(5s);
        if (!m) break;
        if ((*m)["type"] != "friends") continue;
        for (const json& f : (*m)["friends"]) {
          if (f["id"] == mover_.id) return f["status"];
        }
        return "";  // not listed: nothing to judge
      }
    } catch (const std::exception&) {
    }
  }
  return "";
}

bool PeopleDriver::move_round() {
  const std::uint16_t first = doors_[random_() % doors_.size()];
  auto from = connect(mover_, first);
  if (!from) return false;
  // The move: a new connection through another node.
  const std::uint16_t second = door_other_than(first);
  auto to = connect(mover_, second);
  if (!to) return false;
  const auto welcomed = Clock::now();
  hold_until(welcomed + lease_, stopping_);
  if (stopping_) return true;
  const bool both = answers(*from);
  {
    std::lock_guard lock(mutex_);
    ++counts_.moves;
  }
  if (both) {
    violation(&PeopleCounts::two_live_connections,
              fmt::format("{}'s connection through port {} still answered a lease after a "
                          "welcome through port {}",
                          mover_.name, first, second));
  }
  from.reset();
  // Connected, and answering: their friend must not see them offline — while every node is
  // in the cluster (a node out of it is dead to the others, its players offline with it).
  if (!answers(*to)) return false;
  const bool settled = ledger_.settled(lease_);
  const std::string seen = seen_by_friend();
  if (seen.empty() || !settled || !ledger_.settled(lease_)) return false;
  {
    std::lock_guard lock(mutex_);
    ++counts_.presence_checks;
  }
  if (seen == "offline") {
    violation(&PeopleCounts::wrong_presence,
              fmt::format("{} was shown offline to their friend while connected through port {}",
                          mover_.name, second));
  }
  // Gone: offline a lease later — judged only when no fault is on their node now (a cut or a
  // bad link may keep the close from it; a kill is judged as a departure too).
  const std::optional<Fault> fault = ledger_.now_fault();
  const int node =
      static_cast<int>(std::find(doors_.begin(), doors_.end(), second) - doors_.begin());
  const bool faulted = fault && (fault->node == node || fault->node < 0);
  to.reset();  // a clean close
  const auto left = Clock::now();
  if (faulted && fault->kind != "kill") return true;
  hold_until(left + lease_ + lease_ / 2, stopping_);
  if (stopping_) return true;
  const bool calm = ledger_.settled(lease_) || (faulted && fault->kind == "kill");
  const std::string after = seen_by_friend();
  if (after.empty() || !calm) return false;
  {
    std::lock_guard lock(mutex_);
    ++counts_.presence_checks;
  }
  if (after != "offline") {
    violation(&PeopleCounts::wrong_presence,
              fmt::format("{} was shown {} to their friend a lease after leaving port {}",
                          mover_.name, after, second));
  }
  return true;
}

bool PeopleDriver::revocation_round(bool ban) {
  // Through a node cut from Redis when one is.
  std::uint16_t door = doors_[random_() % doors_.size()];
  const std::optional<Fault> fault = ledger_.now_fault();
  const bool cut = fault && fault->kind == "cut_redis" && fault->node >= 0;
  if (cut) door = doors_[static_cast<std::size_t>(fault->node)];
  try {
    WsClient laptop(door);
    const json in = answer(
        laptop,
        {{"type", "login"}, {"name", account_.name}, {"password", password_}, {"device", "laptop"}},
        {"welcome"});
    if (in.is_null() || in["type"] != "welcome") return false;
    const std::string laptop_token = in["token"];
    const std::uint16_t other = door_other_than(door);
    Clock::time_point revoked;
    if (ban) {
      const json body{
          {"player", in["player"]["id"]}, {"reason", "chaos"}, {"until", unix_ms() + 60'000}};
      const e2e::HttpResult r =
          e2e::http_request(other, "/admin/api/ban", "POST",
                            {{"Authorization", "Bearer " + admin_token_}}, body.dump());
      if (r.status != 200) return false;
      revoked = Clock::now();
    } else {
      WsClient phone(other);
      const json on = answer(phone,
                             {{"type", "login"},
                              {"name", account_.name},
                              {"password", password_},
                              {"device", "phone"}},
                             {"welcome"});
      if (on.is_null() || on["type"] != "welcome") return false;
      const json sessions = answer(phone, {{"type", "logout_all"}}, {"sessions"});
      if (sessions.is_null() || sessions["type"] != "sessions") return false;
      revoked = Clock::now();
    }
    hold_until(revoked + lease_, stopping_);
    // The laptop's connection (a ban), or its session anywhere (signed out everywhere; its
    // connection was taken over by the phone's welcome already).
    bool answered = false;
    if (ban) {
      answered = answers(laptop);
    } else {
      WsClient again(doors_[random_() % doors_.size()]);
      const json back = answer(
          again, {{"type", "hello"}, {"name", "back"}, {"token", laptop_token}}, {"welcome"});
      if (back.is_null()) return false;
      answered = back["type"] == "welcome";
    }
    {
      std::lock_guard lock(mutex_);
      ++counts_.revocations;
      if (cut) ++counts_.revocations_cut;
    }
    if (answered) {
      violation(&PeopleCounts::revoked_answered,
                fmt::format("{}'s {} session still answered a lease after {} (through port {})",
                            account_.name, ban ? "banned" : "signed-out",
                            ban ? "the ban" : "logout_all", door));
    }
    if (ban) {
      // Unbanned for the next round (through any node that answers).
      for (std::uint16_t d : doors_) {
        const e2e::HttpResult r = e2e::http_request(d, "/admin/api/unban", "POST",
                                                    {{"Authorization", "Bearer " + admin_token_}},
                                                    json{{"player", in["player"]["id"]}}.dump());
        if (r.status == 200) break;
      }
    }
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace tilerace::chaos
