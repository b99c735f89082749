#pragma once
// Scripted tournament players for end-to-end tests: a field of players joined to one
// tournament, each playing every match it is put in by a script until the tournament is over.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {

// How a scripted player plays a match.
enum class Script {
  better_seed_wins,  // everyone but the player numbered lowest resigns at once: they win
  race_the_clock,    // everyone plays a few moves (3 to 5, by their number) and waits for the
                     // time limit
};

// Sends m and returns its answer (the message carrying its rid), passing over the snapshots
// that were already on their way.
inline json ask(WsClient& ws, json m) {
  static int asked = 0;
  const std::string rid = fmt::format("ask{}", ++asked);
  m["rid"] = rid;
  ws.send(m);
  for (;;) {
    const std::optional<json> reply = ws.next(10s);
    if (!reply) {
      ADD_FAILURE() << "no answer to " << m.dump();
      return json::object();
    }
    if (reply->contains("rid") && (*reply)["rid"] == rid) return *reply;
  }
}

// The match rooms a spectator has watched (it got their `room`): a loser resigns only once its
// room is watched, so that the spectator sees every match raced.
struct Watched {
  std::mutex mutex;
  std::condition_variable changed;
  std::set<std::string> rooms;

  void add(const std::string& room) {
    {
      std::lock_guard lock(mutex);
      rooms.insert(room);
    }
    changed.notify_all();
  }
  bool wait_for(const std::string& room, std::chrono::seconds deadline) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, deadline, [&] { return rooms.count(room) > 0; });
  }
};

// A scripted player, numbered by the order they joined (the host is 0).
struct Scripted {
  Scripted(std::uint16_t port, int number_)
      : racer(port, fmt::format("racer{:02}", number_)), number(number_) {}
  // What a player was, kept while they are away (a server restarting).
  struct Saved {
    int number = 0;
    std::string id, token;
    std::vector<json> race_overs;
  };
  Saved saved() const { return {number, racer.id, racer.token, race_overs}; }
  // The player saved back on a new connection; welcome is their welcome.
  Scripted(std::uint16_t port, const Saved& s, json& welcome)
      : racer(port, s.id, s.token, welcome), number(s.number), race_overs(s.race_overs) {}
  Racer racer;
  int number;
  std::vector<json> race_overs;   // every race_over of their own races
  std::vector<json> walkovers;    // every race_over of a walkover of theirs
  std::string room;               // the code of the match room they were last seated in
  std::set<std::string> watched;  // the other matches' rooms whose race stream they got
  json last;                      // the last tournament snapshot they got
  std::string failure;            // what went wrong, if anything
};

// Plays every match p is put in until the tournament is over (or the deadline passes).
inline void play_out(Scripted& p, const std::map<std::string, int>& number_of, Script script,
                     std::chrono::seconds deadline, Watched* watched) {
  const auto until = std::chrono::steady_clock::now() + deadline;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left <= 0ms) {
      p.failure = "no end before the deadline";
      return;
    }
    const std::optional<json> m = p.racer.ws.next(left);
    if (!m) {
      p.failure = "the connection closed";
      return;
    }
    const std::string type = (*m)["type"];
    if (type == "room") {
      for (const json& r : (*m)["room"]["players"]) {
        if (r["id"] == p.racer.id) p.room = (*m)["room"]["code"];
      }
      continue;
    }
    // Between their own matches, a member follows the others (their race stream).
    const bool own = !m->contains("code") || (*m)["code"] == p.room;
    if (!own && (type == "race_start" || type == "race_update" || type == "race_state" ||
                 type == "race_over")) {
      p.watched.insert((*m)["code"].get<std::string>());
      continue;
    }
    if (type == "tournament") {
      p.last = (*m)["tournament"];
      if (p.last["state"] == "finished" || p.last["state"] == "cancelled") return;
    } else if (type == "race_start") {
      int best = p.number;  // the best-numbered racer of the room
      for (const auto& [id, game] : (*m)["games"].items()) best = std::min(best, number_of.at(id));
      if (script == Script::better_seed_wins) {
        if (best == p.number) continue;
        if (watched != nullptr && !watched->wait_for((*m)["code"], 10s)) {
          p.failure = "nobody watched room " + (*m)["code"].get<std::string>();
          return;
        }
        p.racer.ws.send({{"type", "resign"}});
      } else {
        const std::vector<const char*> dirs = {"left", "down", "right", "down", "left"};
        for (int i = 0; i < 3 + p.number % 3; ++i)
          p.racer.ws.send({{"type", "move"}, {"dir", dirs[i]}});
      }
    } else if (type == "race_over") {
      ((*m)["reason"] == "walkover" ? p.walkovers : p.race_overs).push_back(*m);
    }
  }
}

// n players (the host first) in one tournament created with options; returns them, joined.
inline std::vector<std::unique_ptr<Scripted>> field(ServerProcess& server, int n, json options,
                                                    std::string& code) {
  std::vector<std::unique_ptr<Scripted>> players;
  for (int i = 0; i < n; ++i) players.push_back(std::make_unique<Scripted>(server.port(), i));
  options["type"] = "create_tournament";
  const json created = players[0]->racer.ws.request(options);
  EXPECT_EQ(created["type"], "tournament") << created.dump();
  code = created["tournament"]["code"];
  for (int i = 1; i < n; ++i) {
    players[i]->racer.ws.send({{"type", "join_tournament"}, {"code", code}, {"rid", i}});
    const json joined = players[i]->racer.ws.until("tournament");
    EXPECT_EQ(joined["rid"], i);
    EXPECT_EQ(joined["tournament"]["players"].size(), static_cast<std::size_t>(i + 1));
  }
  return players;
}

// Runs every player's script on its own thread until the tournament is over.
inline void run(std::vector<std::unique_ptr<Scripted>>& players, Script script,
                std::chrono::seconds deadline, Watched* watched = nullptr) {
  std::map<std::string, int> number_of;
  for (const auto& p : players) number_of[p->racer.id] = p->number;
  std::vector<std::thread> threads;
  for (auto& p : players) {
    threads.emplace_back([&p, &number_of, script, deadline, watched] {
      play_out(*p, number_of, script, deadline, watched);
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& p : players) EXPECT_EQ(p->failure, "") << p->racer.id;
}

// Each player's rating moved once per race they played, each from where the last left it.
inline void expect_one_rating_change_per_race(const Scripted& p, int races) {
  ASSERT_EQ(static_cast<int>(p.race_overs.size()), races) << p.racer.id;
  int rating = 1500;
  for (const json& over : p.race_overs) {
    const json& mine = over["ratings"][p.racer.id];
    EXPECT_EQ(mine["before"], rating) << p.racer.id;
    EXPECT_NE(mine["after"], mine["before"]) << p.racer.id;
    rating = mine["after"];
  }
}

}  // namespace tilerace::e2e
