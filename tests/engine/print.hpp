#pragma once
// gtest printers for engine enums, so parameterised test names and failures read as words.
#include <ostream>

#include "engine/types.hpp"

namespace tilerace::engine {
inline void PrintTo(Direction d, std::ostream* os) { *os << to_string(d); }
inline void PrintTo(Mode m, std::ostream* os) { *os << to_string(m); }
inline void PrintTo(GameState s, std::ostream* os) { *os << to_string(s); }
inline void PrintTo(const Cell& c, std::ostream* os) { *os << '[' << c.row << ',' << c.col << ']'; }
}  // namespace tilerace::engine
