#pragma once
// The dispatcher's state for one connection. It owns nothing of the connection itself: out is
// the connection (which owns this struct), self a weak handle to it for the registries.
#include <memory>
#include <string>

#include "protocol/encode.hpp"
#include "protocol/message_pool.hpp"
#include "server/base/metrics.hpp"
#include "server/game/player.hpp"
#include "server/game/room.hpp"
#include "server/game/solo_games.hpp"
#include "server/rules/participant.hpp"

namespace tilerace::server {

class Tournament;

struct Connection {
  explicit Connection(Participant& out_) : out(out_) {}
  Participant& out;
  std::weak_ptr<Participant> self;
  std::shared_ptr<Player> player;  // set by a successful hello or login
  std::shared_ptr<SoloSlot> solo;  // the player's solo game, as SoloPlay found it last
  std::string session;             // then: the hash of this device's token (its session)
  std::shared_ptr<Room> spectating;
  std::shared_ptr<Tournament> following;  // the tournament it spectates
  std::string address;                    // the peer's address as AddressLimits counts it
  // The upgrade's Authorization: Bearer credential (at most kMaxTokenBytes), for a bot's hello
  // (docs/bots.md); empty without one.
  std::string bearer;

  // Queues message for this connection.
  void send(std::string message) const {
    out.deliver(protocol::message_pool::share(std::move(message)));
  }
};

// Sends c a protocol error (counted in metrics).
inline void send_error(Connection& c, Metrics& metrics, protocol::ErrorCode code,
                       std::string message, const protocol::Rid& rid) {
  metrics.count_error(code);
  c.send(protocol::encode_error({code, std::move(message), ""}, rid));
}

}  // namespace tilerace::server
