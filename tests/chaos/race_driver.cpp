#include "tests/chaos/race_driver.hpp"

#include <array>

namespace tilerace::chaos {

namespace {

using namespace std::chrono_literals;
using e2e::port_of;

constexpr int kTurns = 60;  // moves each racer tries before the race ends by a resignation
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
    const std::uint16_t door = port != 0 ? port : doors_[random_() % doors_.size()];
    try {
      auto ws = std::make_unique<WsClient>(door);
      json hello{{"type", "hello"}, {"name", seat.name}};
      if (!seat.token.empty()) hello["token"] = seat.token;
      ws->send(hello);
      const std::optional<json> welcome = ws->next(10s);
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
  if (!seat.ws && !connect(seat, 0, Clock::now() + 30s)) return !over_;
  try {
    ledger_.sent({code_, seat.id, Clock::now()});
    seat.ws->send({{"type", "move"}, {"dir", dir}, {"at_move", seat.moves}});
  } catch (const std::exception&) {
    seat.ws.reset();
    return !over_;
  }
  for (;;) {
    const json m = read(seat, 8s);
    if (m.is_null()) return !over_;
    const std::string type = m["type"];
    if (type == "moved" || type == "redirect") return true;
    if (type == "error") {
      if (m["code"] != "stale") return !over_;
      continue;  // the game follows: read() resyncs the move count
    }
    if (type == "game") return true;
    if (over_) return false;
  }
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
