// Achievements with the real binary on each store: granted from recorded races only, exactly
// once, announced to the player after race_over, kept across a restart (a race recorded
// after the restart still grants; nothing is granted twice) and listed on the profile.
#include <gtest/gtest.h>
#include <signal.h>

#include "tests/e2e/backend.hpp"
#include "tests/e2e/harness.hpp"
#include "tests/e2e/race_client.hpp"

namespace tilerace::e2e {
namespace {

class Achievements : public BackendTest {};
TILERACE_BOTH_BACKENDS(Achievements);

const std::vector<std::string> kServerArgs{"--countdown", "0", "--rate", "100000"};

struct Won {
  json race_over;
  std::vector<json> achievements;  // the `achievement` messages the winner read after it
};

// winner races a newcomer, who leaves the race (winner wins by forfeit); then winner leaves
// the room. Returns race_over and the achievements announced before winner's `left`.
Won win_a_race(Racer& winner, std::uint16_t port, const std::string& rival_name) {
  Racer rival(port, rival_name);
  const std::string code = create_room(winner, {})["code"];
  EXPECT_EQ(rival.ws.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  start_race({&winner, &rival});
  rival.ws.send({{"type", "leave_room"}});
  Won won{winner.ws.until("race_over"), {}};
  EXPECT_EQ(won.race_over["winner"], winner.id) << won.race_over.dump();
  winner.ws.send({{"type", "leave_room"}});
  std::vector<json> read;
  winner.ws.until("left", 5s, &read);
  for (const json& m : read) {
    if (m["type"] == "achievement") won.achievements.push_back(m["achievement"]);
  }
  // The loser earned nothing: their next answer comes with no achievement before it.
  std::vector<json> theirs;
  rival.ws.send({{"type", "ping"}, {"rid", "p"}});
  rival.ws.until("pong", 5s, &theirs);
  for (const json& m : theirs) EXPECT_NE(m["type"], "achievement") << m.dump();
  return won;
}

TEST_P(Achievements, RaceWinsGrantEachOnceAcrossARestartAndTheProfileListsThem) {
  TempDir data;
  std::string id, token, first_game, fifth_game;
  {
    ServerProcess server(args(kServerArgs), TILERACE_WEB_ROOT, data.path());
    Racer ann(server.port(), "ann");
    id = ann.id;
    token = ann.token;
    const Won first = win_a_race(ann, server.port(), "rival1");
    ASSERT_EQ(first.achievements.size(), 1u);
    EXPECT_EQ(first.achievements[0]["id"], "first_race_win");
    EXPECT_EQ(first.achievements[0]["title"], "First win");
    EXPECT_FALSE(first.achievements[0]["description"].get<std::string>().empty());
    first_game = first.race_over["replays"][id];
    EXPECT_EQ(first.achievements[0]["game"], first_game);
    for (int n = 2; n <= 4; ++n) {
      EXPECT_TRUE(win_a_race(ann, server.port(), "rival" + std::to_string(n)).achievements.empty())
          << n;
    }
    EXPECT_EQ(server.stop(SIGTERM), 0);
  }
  ServerProcess server(args(kServerArgs), TILERACE_WEB_ROOT, data.path());
  json welcome;
  Racer ann(server.port(), id, token, welcome);
  ASSERT_EQ(welcome["resumed"], true);
  // The fifth win in a row, the first after the restart: the run was kept.
  const Won fifth = win_a_race(ann, server.port(), "rival5");
  ASSERT_EQ(fifth.achievements.size(), 1u);
  EXPECT_EQ(fifth.achievements[0]["id"], "on_a_roll");
  fifth_game = fifth.race_over["replays"][id];
  EXPECT_EQ(fifth.achievements[0]["game"], fifth_game);
  EXPECT_TRUE(win_a_race(ann, server.port(), "rival6").achievements.empty());

  const HttpResult r = http_request(server.port(), "/api/players/" + id);
  ASSERT_EQ(r.status, 200);
  const json held = json::parse(r.body)["achievements"];
  ASSERT_EQ(held.size(), 2u) << held.dump();
  EXPECT_EQ(held[0]["id"], "first_race_win");
  EXPECT_EQ(held[0]["game"], first_game);
  EXPECT_EQ(held[1]["id"], "on_a_roll");
  EXPECT_EQ(held[1]["game"], fifth_game);
  EXPECT_LE(held[0]["at"].get<std::int64_t>(), held[1]["at"].get<std::int64_t>());
  EXPECT_EQ(query("SELECT COUNT(*) FROM achievements", data.path()), 2);
}

}  // namespace
}  // namespace tilerace::e2e
