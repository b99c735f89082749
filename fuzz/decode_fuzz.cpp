// libFuzzer: the protocol decoder on any text up to the message limit. It must never throw
// or crash, and whatever it accepts or refuses must be stable (same answer twice). The same
// text is also every operator action's body (decode_admin, decode_desk).
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
  for (const std::string_view action :
       {"ban", "unban", "rename", "reset_password", "hide_game", "close_room", "resolve_report"}) {
    (void)tilerace::protocol::decode_admin(action, text);
  }
  for (const std::string_view action :
       {"sign_in", "create_operator", "sign_out_operator", "remove_operator", "totp_confirm"}) {
    (void)tilerace::protocol::decode_desk(action, text);
  }
  return 0;
}
