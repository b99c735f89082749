// libFuzzer: the protocol decoder on any text up to the message limit. It must never throw
// or crash, and whatever it accepts or refuses must be stable (same answer twice).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "protocol/decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // the server's default --max-message
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto first = tilerace::protocol::decode_client(text);
  const auto second = tilerace::protocol::decode_client(text);
  if (first.result.index() != second.result.index() || first.rid != second.rid) std::abort();
  (void)tilerace::protocol::decode_leaderboard_query(text);
  (void)tilerace::protocol::valid_utf8(text);
  return 0;
}
