#include "tests/chaos/race_driver.hpp"

#include <algorithm>
#include <array>

namespace tilerace::chaos {

namespace {

using namespace std::chrono_literals;
using e2e::port_of;

constexpr int kTurns = 60;           // moves each racer tries before the race ends by a resignation
constexpr auto kStall = 1500ms;      // a move unanswered this long: the link is given up
constexpr auto kHandshake = 2000ms;  // an upgrade (and its welcome) that takes longer, too
const std::array<std::string, 4> kDirs{"up", "down", "left", "right"};

}  // namespace

RaceDriver::RaceDriver(int index, std::vector<std::uint16_t> doors, Ledger& ledger,
                       std::function<bool(const std::string&, const std::string&)> recorded)
    : index_(index),
      doors_(std::move(doors)),
      ledger_(ledger),
      recorded_(std::move(recorded)),
      random_(static_cast<unsigned>(index) + 1) {
  ann_.name = "ann" + std::to_string(index);
  bob_.name = "bob" + std::to_string(index);
}

RaceDriver::~RaceDriver() { stop(); }

void RaceDriver::start() {
  racing_ = std::thread([this] { run(); });
  watching_ = std::thread([this] { watch(); });
}

void RaceDriver::stop() {
  {
    std::lock_guard lock(watched_mutex_);
    stopping_ = true;
  }
  watched_changed_.notify_all();
  if (racing_.joinable()) racing_.join();
  if (watching_.joinable()) watching_.join();
}

void RaceDriver::run() {
  while (!stopping_) one_race();
}

bool RaceDriver::connect(Seat& seat, std::uint16_t port, Clock::time_point deadline) {
  seat.ws.reset();
  while (Clock::now() < deadline) {
    std::uint16_t door = port;
    if (door == 0 && seat.stalled != 0) {
      const auto at = std::find(doors_.begin(), doors_.end(), seat.stalled);
      door = at == doors_.end() || at + 1 == doors_.end() ? doors_.front() : *(at + 1);
    }
    if (door == 0) door = doors_[random_() % doors_.size()];
    seat.stalled = 0;
    try {
      auto ws = std::make_unique<WsClient>(door, std::nullopt, "/ws",
                                           std::vector<std::pair<std::string, std::string>>{},
                                           kHandshake);
      json hello{{"type", "hello"}, {"name", seat.name}};
      if (!seat.token.empty()) hello["token"] = seat.token;
      ws->send(hello);
      const std::optional<json> welcome = ws->next(kHandshake);
      if (welcome && (*welcome)["type"] == "welcome") {
        if (seat.token.empty()) {
          seat.id = (*welcome)["player"]["id"];
          seat.token = (*welcome)["token"];
        }
        seat.ws = std::move(ws);
        seat.port = door;
        return true;
      }
    } catch (const std::exception&) {
      // That node is down or cut off: another door.
    }
    seat.stalled = door;
    port = 0;
    std::this_thread::sleep_for(200ms);  // a client's pause between attempts
  }
  return false;
}

json RaceDriver::read(Seat& seat, std::chrono::milliseconds wait) {
  if (!seat.ws || seat.ws->closed()) {
    if (!connect(seat, 0, Clock::now() + 30s)) return nullptr;
  }
  std::optional<json> m;
  try {
    m = seat.ws->next(wait);
  } catch (const std::exception&) {
  }
  if (!m) {
    seat.ws.reset();  // a stall or a drop: the next read reconnects
    return nullptr;
  }
  const std::string type = (*m)["type"];
  if (type == "moved") {
    seat.moves = (*m)["moves"];
    ledger_.ack({code_, seat.id, (*m)["game"], seat.moves, (*m)["score"].get<std::int64_t>(),
                 seat.port, Clock::now()});
  } else if (type == "game" && m->contains("game") && (*m)["game"].contains("moves")) {
    seat.moves = (*m)["game"]["moves"];
  } else if (type == "race_state" && (*m)["games"].contains(seat.id)) {
    seat.moves = (*m)["games"][seat.id]["moves"];
  } else if (type == "redirect") {
    connect(seat, port_of((*m)["url"]), Clock::now() + 30s);
  } else if (type == "race_over") {
    if ((*m)["code"] == code_) over_ = true;
    ledger_.announce({(*m)["code"], (*m)["winner"], (*m)["reason"]});
  } else if (type == "room_closed") {
    if ((*m)["code"] == code_) over_ = true;
  }
  return *m;
}

bool RaceDriver::turn(Seat& seat, const std::string& dir) {
  // A move given up with its link, or sent away by a redirect, is sent again once on the new
  // connection (as a client resends its pending move), after the race_state there resyncs the
  // move count: at_move keeps it from counting twice.
  bool fresh = false;  // a new connection (this turn's): its race_state first
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!seat.ws) {
      if (!connect(seat, 0, Clock::now() + 30s)) return !over_;
      fresh = true;
    }
    if (fresh) {
      fresh = false;
      const auto synced_by = Clock::now() + kStall;
      for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(synced_by - Clock::now());
        if (left <= 0ms) break;
        const json m = read(seat, left);
        if (m.is_null() || !seat.ws || m["type"] == "race_state") break;
        if (over_) return false;
      }
      if (!seat.ws) continue;
    }
    try {
      ledger_.sent({code_, seat.id, Clock::now()});
      seat.ws->send({{"type", "move"}, {"dir", dir}, {"at_move", seat.moves}});
    } catch (const std::exception&) {
      seat.ws.reset();
      continue;
    }
    const auto stall_at = Clock::now() + kStall;
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(stall_at - Clock::now());
      const std::uint16_t link = seat.port;
      const json m = read(seat, std::max(left, 1ms));
      if (m.is_null()) {
        if (!seat.ws) seat.stalled = link;  // given up: the next door
        break;
      }
      const std::string type = m["type"];
      if (type == "moved" || type == "game") return true;
      if (type == "redirect") {
        fresh = true;  // read() followed it; the move goes again from the race_state there
        break;
      }
      if (type == "error") {
        if (m["code"] != "stale") return !over_;
        continue;  // the game follows: read() resyncs the move count
      }
      if (over_) return false;
    }
    if (over_) return false;
  }
  return !over_;
}

bool RaceDriver::one_race() {
  const auto setup_deadline = Clock::now() + 60s;
  const auto give_up = [&] {
    ledger_.setback();
    for (Seat* s : {&ann_, &bob_}) {
      try {
        if (s->ws) s->ws->send({{"type", "leave_room"}});
      } catch (const std::exception&) {
      }
      s->ws.reset();
    }
    return false;
  };
  over_ = false;
  code_.clear();
  if (!ann_.ws && !connect(ann_, 0, setup_deadline)) return give_up();
  try {
    ann_.ws->send({{"type", "create_room"},
                   {"size", 6},
                   {"time_limit", 600},
                   {"public", true},
                   {"rid", "create"}});
  } catch (const std::exception&) {
    return give_up();
  }
  // The answer, by its rid: a `room` pushed on reconnecting (a room ann is still in, as a
  // given-up setup may leave her) is not it.
  while (code_.empty()) {
    const json m = read(ann_, 5s);
    if (m.is_null() || Clock::now() > setup_deadline) return give_up();
    if (m.value("rid", "") != "create") continue;
    if (m["type"] == "room") code_ = m["room"]["code"];
    if (m["type"] == "error") return give_up();  // unavailable (Redis away), already in a room
  }
  if (!bob_.ws && !connect(bob_, 0, setup_deadline)) return give_up();
  bool seated = false;
  for (int attempt = 0; !seated && attempt < 3; ++attempt) {
    try {
      bob_.ws->send({{"type", "join_room"}, {"code", code_}});
    } catch (const std::exception&) {
      return give_up();
    }
    for (;;) {
      const json m = read(bob_, 5s);
      if (m.is_null() || m["type"] == "error") return give_up();
      if (m["type"] == "redirect") break;  // followed: ask again there
      if (m["type"] == "room" && m["room"]["code"] == code_) {
        seated = true;
        break;
      }
    }
  }
  if (!seated) return give_up();
  try {
    ann_.ws->send({{"type", "ready"}, {"ready", true}});
    bob_.ws->send({{"type", "ready"}, {"ready", true}});
  } catch (const std::exception&) {
    return give_up();
  }
  for (Seat* s : {&ann_, &bob_}) {
    for (;;) {
      const json m = read(*s, 10s);
      if (m.is_null()) return give_up();
      if (m["type"] == "race_start") break;
    }
    s->moves = 0;
  }
  ledger_.race({code_, ann_.id, bob_.id, false});
  {
    std::lock_guard lock(watched_mutex_);
    watched_ = code_;
  }
  watched_changed_.notify_all();
  for (int i = 0; i < kTurns && !over_; ++i) {
    if (!turn(ann_, kDirs[random_() % 4]) || !turn(bob_, kDirs[random_() % 4])) break;
  }
  // bob resigns; the race ends when PostgreSQL has it.
  const auto end_deadline = Clock::now() + 120s;
  while (Clock::now() < end_deadline) {
    if (recorded_(code_, ann_.id)) {
      ledger_.finished(code_);
      // Both leave the room: the next race has a room of its own.
      for (Seat* s : {&ann_, &bob_}) {
        try {
          if (s->ws) s->ws->send({{"type", "leave_room"}});
        } catch (const std::exception&) {
          s->ws.reset();
        }
        s->ws.reset();  // and come back afresh (through any node)
      }
      return true;
    }
    if (!over_ && (bob_.ws || connect(bob_, 0, Clock::now() + 10s))) {
      try {
        bob_.ws->send({{"type", "resign"}});
      } catch (const std::exception&) {
        bob_.ws.reset();
      }
      read(bob_, 2s);
    }
    read(ann_, 1s);  // race_over, if it comes on this link
  }
  return give_up();
}

void RaceDriver::watch() {
  Seat watcher;
  watcher.name = "watcher" + std::to_string(index_);
  std::string following;  // the race this connection spectates
  std::minstd_rand random(static_cast<unsigned>(index_) + 100);
  while (!stopping_) {
    std::string code;
    {
      std::unique_lock lock(watched_mutex_);
      watched_changed_.wait(lock, [this] { return !watched_.empty() || stopping_; });
      code = watched_;
    }
    if (stopping_) break;
    if (!watcher.ws || watcher.ws->closed() || following != code) {
      std::uint16_t door = doors_[random() % doors_.size()];
      bool spectating = false;
      for (int hop = 0; hop < 3 && !spectating; ++hop) {
        try {
          watcher.ws = std::make_unique<WsClient>(door);
          json hello{{"type", "hello"}, {"name", watcher.name}};
          if (!watcher.token.empty()) hello["token"] = watcher.token;
          watcher.ws->send(hello);
          const std::optional<json> welcome = watcher.ws->next(5s);
          if (!welcome || (*welcome)["type"] != "welcome") break;
          watcher.token = (*welcome)["token"];
          watcher.ws->send({{"type", "spectate"}, {"code", code}});
          const std::optional<json> answer = watcher.ws->next(5s);
          if (answer && (*answer)["type"] == "redirect") {
            door = port_of((*answer)["url"]);
            continue;
          }
          spectating = answer && (*answer)["type"] == "room";
        } catch (const std::exception&) {
          break;
        }
      }
      if (!spectating) {
        watcher.ws.reset();
        std::this_thread::sleep_for(200ms);  // a client's pause between attempts
        continue;
      }
      following = code;
    }
    std::optional<json> m;
    try {
      m = watcher.ws->next(5s);
    } catch (const std::exception&) {
    }
    if (!m) {
      watcher.ws.reset();
      continue;
    }
    if ((*m)["type"] == "race_over") {
      ledger_.announce({(*m)["code"], (*m)["winner"], (*m)["reason"]});
    } else if ((*m)["type"] == "redirect") {
      watcher.ws.reset();  // handed over: spectate again through the owner
    }
  }
}

}  // namespace tilerace::chaos
