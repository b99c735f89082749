#pragma once
// The pairing tests' 1-on-1 matches: a round's pairs, and a result reported as a's.
#include <utility>
#include <vector>

#include "server/rules/entrant.hpp"

namespace tilerace::server {

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

inline Pairs pairs_of(const std::vector<Group>& matches) {
  Pairs pairs;
  for (const Group& m : matches) pairs.emplace_back(m.at(0), m.at(1));
  return pairs;
}

// Reports a's match with b to format: for_a is how a came out of it (b the other way).
template <class Format>
bool report(Format& format, std::size_t a, std::size_t b, Result for_a) {
  const Result for_b = for_a == Result::win    ? Result::loss
                       : for_a == Result::loss ? Result::win
                                               : Result::draw;
  return format.report({a, b}, {for_a, for_b});
}

}  // namespace tilerace::server
