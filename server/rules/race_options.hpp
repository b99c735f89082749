#pragma once
// A room's options as a running race journals them, and back (the computer is not journaled:
// a restored race seats whoever raced).
#include "protocol/messages.hpp"
#include "server/rules/play_records.hpp"

namespace tilerace::server {

RaceOptionsRecord record_of(const protocol::RoomOptions& options);
protocol::RoomOptions options_of(const RaceOptionsRecord& record);

}  // namespace tilerace::server
