#pragma once
// A participant that keeps what it is sent, for unit tests of rooms, races and the dispatcher.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "server/rules/participant.hpp"

namespace tilerace::server::testing {

struct FakeParticipant : Participant {
  std::vector<SharedMessage> delivered;
  std::vector<std::uint16_t> closes;

  void deliver(SharedMessage m) override { delivered.push_back(std::move(m)); }
  void close(std::uint16_t code) override { closes.push_back(code); }

  // Every message received so far, parsed, and forgotten.
  std::vector<nlohmann::json> take() {
    std::vector<nlohmann::json> out;
    for (const auto& m : delivered) out.push_back(nlohmann::json::parse(*m));
    delivered.clear();
    return out;
  }
  // The types of take(), in order.
  std::vector<std::string> take_types() {
    std::vector<std::string> types;
    for (const auto& m : take()) types.push_back(m["type"]);
    return types;
  }
};

}  // namespace tilerace::server::testing
