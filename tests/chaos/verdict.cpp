#include "tests/chaos/verdict.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "engine/game.hpp"
#include "server/store/pg_connection.hpp"

namespace tilerace::chaos {

namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

// A recorded race: winner, and each racer's game id.
struct Recorded {
  std::string winner;
  std::map<std::string, std::string> games;  // player → game id
};

}  // namespace

Verdict judge(const Ledger& ledger, const std::string& database,
              const std::vector<std::uint16_t>& doors) {
  Verdict v;
  server::PgConnection db(database);
  const std::vector<Ack> acks = ledger.acks();
  v.acks = acks.size();
  std::map<std::string, std::vector<const Ack*>> acks_of;  // by room code
  for (const Ack& a : acks) acks_of[a.code].push_back(&a);
  std::map<std::string, std::vector<Recorded>> by_code;

  for (const RaceRun& run : ledger.races()) {
    const std::string sql = "SELECT winner, result FROM races WHERE room = '" + run.code +
                            "' AND result LIKE '%" + run.ann + "%'";
    const server::PgResult rows = db.exec(sql.c_str());
    if (rows.rows() == 0) {
      const std::size_t answered = acks_of[run.code].size();
      if (answered == 0) {
        ++v.lost_before_first_move;  // documented (docs/operations.md, what can be lost)
      } else {
        v.violations.push_back("race in room " + run.code + " was never recorded (" +
                               std::to_string(answered) + " moves of it acknowledged)");
      }
      continue;
    }
    if (rows.rows() > 1) v.violations.push_back("race in room " + run.code + " recorded twice");
    if (by_code.count(run.code) > 0) continue;  // a driver ran two races in one room: said above
    for (int i = 0; i < rows.rows(); ++i) {
      Recorded recorded;
      recorded.winner = rows.string(i, 0);
      const json result = json::parse(rows.string(i, 1));
      for (const auto& [player, game] : result["replays"].items()) recorded.games[player] = game;
      by_code[run.code].push_back(recorded);
    }
    const Recorded& r = by_code[run.code].front();
    ++v.races;
    // Every acknowledged move is where the record says.
    for (const Ack* a : acks_of[run.code]) {
      const auto game = r.games.find(a->player);
      if (game == r.games.end() || game->second != a->game) continue;  // another race's
      const std::string q =
          "SELECT mode, size, target, seed, moves FROM games WHERE id = '" + game->second + "'";
      const server::PgResult g = db.exec(q.c_str());
      if (g.rows() != 1) {
        v.violations.push_back("game " + game->second + " of a recorded race is missing");
        break;
      }
      const engine::GameConfig config{*engine::mode_from_string(g.text(0, 0)), g.integer(0, 1),
                                      g.int64(0, 2), std::stoull(g.string(0, 3))};
      const std::string moves = g.string(0, 4);
      const auto n = static_cast<std::size_t>(a->moves);
      const std::optional<engine::Game> replayed =
          n <= moves.size() ? engine::replay(config, std::string_view(moves).substr(0, n))
                            : std::nullopt;
      if (!replayed || replayed->score() != a->score) {
        v.violations.push_back("room " + run.code + ": " + a->player + "'s acknowledged move " +
                               std::to_string(n) + " (score " + std::to_string(a->score) +
                               ") is not in the recorded replay (" + std::to_string(moves.size()) +
                               " moves)");
      }
    }
  }
  // Every race_over agrees with the record of its room.
  for (const Announcement& a : ledger.announcements()) {
    const auto recorded = by_code.find(a.code);
    if (recorded == by_code.end()) continue;  // not a driver's race (a setup given up)
    const bool agrees = std::any_of(recorded->second.begin(), recorded->second.end(),
                                    [&a](const Recorded& r) { return r.winner == a.winner; });
    if (!agrees) {
      v.violations.push_back("race_over in room " + a.code + " names winner '" + a.winner +
                             "', the record another");
    }
  }
  // Ratings: one rating point per racer per rated race, and as many races counted.
  const std::int64_t counted = db.exec("SELECT coalesce(sum(races), 0) FROM players").int64(0, 0);
  const std::int64_t points = db.exec("SELECT count(*) FROM rating_history").int64(0, 0);
  if (counted != points) {
    v.violations.push_back("players' race counts add up to " + std::to_string(counted) + " for " +
                           std::to_string(points) + " rating changes: a rating applied twice");
  }
  // Two nodes accepting one race's moves: node X, then Y, then X again within a second.
  for (const auto& [code, list] : acks_of) {
    std::vector<const Ack*> sorted = list;
    std::sort(sorted.begin(), sorted.end(),
              [](const Ack* a, const Ack* b) { return a->at < b->at; });
    for (std::size_t i = 1; i < sorted.size(); ++i) {
      if (sorted[i]->node == sorted[i - 1]->node) continue;
      // sorted[i] starts a segment of another node; does the previous node answer again soon?
      for (std::size_t j = i + 1; j < sorted.size() && sorted[j]->at - sorted[i]->at < 1s; ++j) {
        if (sorted[j]->node == sorted[i - 1]->node) {
          v.violations.push_back("room " + code + ": two nodes acknowledged moves at once");
          break;
        }
      }
    }
  }
  // Recovery: from each fault, and from each move sent while it lasted, to the next answered
  // move of each race it hit.
  std::map<std::string, std::vector<const Sent*>> sent_in;  // by room code
  const std::vector<Sent> sent = ledger.sent();
  for (const Sent& m : sent) sent_in[m.code].push_back(&m);
  for (const Fault& f : ledger.faults()) {
    const std::uint16_t door = f.node >= 0 ? doors[static_cast<std::size_t>(f.node)] : 0;
    for (const auto& [code, list] : acks_of) {
      const Ack* before = nullptr;
      const Ack* after = nullptr;
      for (const Ack* a : list) {
        if (a->at <= f.at && (!before || a->at > before->at)) before = a;
        if (a->at > f.at && (!after || a->at < after->at)) after = a;
      }
      if (!before || !after || f.at - before->at > 3s) continue;  // not racing then
      if (door != 0 && before->node != door) continue;            // another node's race
      v.recovery_ms[f.kind].push_back(
          std::chrono::duration<double, std::milli>(after->at - f.at).count());
      for (const Sent* m : sent_in[code]) {
        if (m->at < f.at || m->at > f.until) continue;
        const Ack* next = nullptr;
        for (const Ack* a : list) {
          if (a->player == m->player && a->at > m->at && (!next || a->at < next->at)) next = a;
        }
        if (next) {
          v.during_ms[f.kind].push_back(
              std::chrono::duration<double, std::milli>(next->at - m->at).count());
        }
      }
    }
  }
  return v;
}

}  // namespace tilerace::chaos
