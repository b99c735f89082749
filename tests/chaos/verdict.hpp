#pragma once
// The chaos suite's judgement: the clients' Ledger held against what PostgreSQL recorded.
// A violation is any of: a race a driver ran that was never recorded (once a move of it was
// acknowledged: a race whose node died before it answered any move may be lost, as
// docs/operations.md says, and is counted apart) or was recorded twice; a
// race_over that contradicts the record; an acknowledged move that is not where the recorded
// replay says (move count and score after it); a rating applied twice; two nodes accepting
// moves of one race at once (acknowledgements from one node, then another, then the first
// again within a second). Also the time from each fault, and from each move sent while it
// lasted, to the next move answered in a race it hit, by kind of fault.
#include <map>
#include <string>
#include <vector>

#include "tests/chaos/ledger.hpp"

namespace tilerace::chaos {

struct Verdict {
  std::vector<std::string> violations;
  std::size_t races = 0;                   // recorded races the drivers ran
  std::size_t lost_before_first_move = 0;  // never recorded, no move of it acknowledged
  std::size_t acks = 0;
  // Fault kind → the delays (ms) from the fault to the next answered move of each race it hit.
  std::map<std::string, std::vector<double>> recovery_ms;
  // Fault kind → for each move sent in a race it hit while it lasted, the delay (ms) to that
  // racer's next answered move.
  std::map<std::string, std::vector<double>> during_ms;
};

// database: a PostgreSQL URL; doors_of: the client link (port) of each node, by index.
Verdict judge(const Ledger& ledger, const std::string& database,
              const std::vector<std::uint16_t>& doors);

}  // namespace tilerace::chaos
