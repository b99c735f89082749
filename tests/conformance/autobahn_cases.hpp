#pragma once
// The Autobahn testsuite's cases (crossbario/autobahn-testsuite, sections 1 framing, 2 pings
// and pongs, 3 reserved bits, 4 opcodes, 5 fragmentation, 6 UTF-8, 7 close handling, 9 limits
// and performance), each written here as what it sends and what it expects, numbered as there.
// Section 9 is scaled to the endpoint's message limit. Binary messages, which the protocol has
// none of, are refused with 1003 (PROTOCOL.md §8): those cases check the refusal.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "tests/conformance/peer.hpp"

namespace tilerace::conformance {

// Autobahn's verdicts: ok; non_strict (passes, but not in the strictest way: a bad fragment
// refused only when the message ends); informational (the spec leaves it open: what happened is
// noted); refused (binary: closed 1003 by design); failed.
enum class Verdict { ok, non_strict, informational, refused, failed };

struct Outcome {
  Verdict verdict = Verdict::ok;
  std::string note;  // for failed and informational: what happened
};

struct Case {
  std::string id;    // Autobahn's number, "6.4.1"
  std::string what;  // what it sends and expects
  bool on_game;      // also run against the tilerace binary (sections 6 and 7)
  std::function<Outcome(Peer&)> run;
};

// Every case; limit is the echo endpoint's message limit, which section 9's sizes scale to.
std::vector<Case> autobahn_cases(std::size_t limit);

// The section of a case id: "6.4.1" -> 6.
int section_of(const std::string& id);

}  // namespace tilerace::conformance
