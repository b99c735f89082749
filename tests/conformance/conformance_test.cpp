// The WebSocket layer held to the Autobahn testsuite's cases (autobahn_cases.hpp): every case
// against the echo harness (the server's own transport wired to an echo), and the UTF-8 and
// close-handling cases (sections 6 and 7) against the real tilerace binary too. One test per
// target and section; each prints its row of the table in docs/conformance.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <tuple>

#include "tests/conformance/autobahn_cases.hpp"
#include "tests/conformance/echo_server.hpp"
#include "tests/e2e/harness.hpp"

namespace tilerace::conformance {
namespace {

// The echo's message limit: Autobahn's 64 KiB frames of section 1 fit; section 9 scales to it.
constexpr std::size_t kLimit = 65536;

std::uint16_t port_of(Target target) {
  if (target == Target::echo) {
    static EchoServer echo(kLimit);
    return echo.port();
  }
  // No per-address connection limit (the cases open one connection each), and the rate limit
  // out of the way of section 7's bursts; the rest as shipped (4 KiB messages).
  static e2e::ServerProcess game({"--max-connections-per-ip", "0", "--rate", "10000"});
  return game.port();
}

const char* name_of(Verdict v) {
  switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::non_strict: return "non-strict";
    case Verdict::informational: return "informational";
    case Verdict::refused: return "refused";
    case Verdict::failed: return "failed";
  }
  return "?";
}

class Autobahn : public ::testing::TestWithParam<std::tuple<Target, int>> {};

TEST_P(Autobahn, EveryCaseOfTheSectionPassesStrictly) {
  const auto [target, section] = GetParam();
  const std::uint16_t port = port_of(target);
  int counts[5] = {};
  int cases = 0;
  for (const Case& c : autobahn_cases(kLimit)) {
    if (section_of(c.id) != section || (target == Target::game && !c.on_game)) continue;
    ++cases;
    Outcome outcome;
    try {
      Peer peer(port, target);
      outcome = c.run(peer);
    } catch (const std::exception& e) {
      outcome = {Verdict::failed, e.what()};
    }
    ++counts[static_cast<int>(outcome.verdict)];
    if (outcome.verdict == Verdict::failed || outcome.verdict == Verdict::non_strict) {
      ADD_FAILURE() << c.id << " (" << c.what << "): " << name_of(outcome.verdict) << ": "
                    << outcome.note;
    } else if (!outcome.note.empty()) {
      std::printf("%s %s: %s\n", c.id.c_str(), name_of(outcome.verdict), outcome.note.c_str());
    }
  }
  EXPECT_GT(cases, 0);
  std::printf("| %s | %d | %d | %d | %d | %d | %d | %d |\n",
              target == Target::echo ? "echo harness" : "tilerace", section, cases, counts[0],
              counts[1], counts[2], counts[3], counts[4]);
}

std::string test_name(const ::testing::TestParamInfo<std::tuple<Target, int>>& info) {
  return std::string(std::get<0>(info.param) == Target::echo ? "Echo" : "Tilerace") + "Section" +
         std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Echo, Autobahn,
                         ::testing::Combine(::testing::Values(Target::echo),
                                            ::testing::Values(1, 2, 3, 4, 5, 6, 7, 9)),
                         test_name);
INSTANTIATE_TEST_SUITE_P(Tilerace, Autobahn,
                         ::testing::Combine(::testing::Values(Target::game),
                                            ::testing::Values(6, 7)),
                         test_name);

}  // namespace
}  // namespace tilerace::conformance
