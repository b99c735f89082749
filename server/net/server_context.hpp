#pragma once
// What every connection shares: configuration, metrics, the dispatcher, and the set of live
// sessions (for shutdown). Owned by run_server, outlives every session (server.cpp says how).
#include <filesystem>

#include "server/base/address_limits.hpp"
#include "server/base/metrics.hpp"
#include "server/game/room_registry.hpp"
#include "server/net/dispatch_sink.hpp"
#include "server/net/security_headers.hpp"
#include "server/net/session_set.hpp"
#include "server/net/trusted_proxies.hpp"
#include "server/net/ws_context.hpp"
#include "server/play/dispatcher.hpp"
#include "server/play/room_directory.hpp"

namespace tilerace::server {

class AdminGuard;
class Moderation;
class OperatorDesk;
class TlsCertificates;

struct ServerContext {
  EdgeLimits edge;
  std::filesystem::path web_root;  // canonical
  Metrics& metrics;
  Dispatcher& dispatcher;
  SessionSet& sessions;
  RoomRegistry& rooms;
  StoreWorker& store;
  AddressLimits& limits;
  RoomDirectory& directory;
  TlsCertificates* tls = nullptr;    // set: the port speaks HTTPS and WSS only
  SecurityHeaders headers;           // on every HTTP answer; who may open a WebSocket
  TrustedProxies proxies;            // whose forwarding headers name the client
  std::string daily_secret;          // the daily challenge's seeds' key (game/daily_seed.hpp)
  AdminGuard* admin = nullptr;       // the operator API's edge; null: the API is off
  OperatorDesk* desk = nullptr;      // its operators (set with admin)
  Moderation* moderation = nullptr;  // what its actions go through (set with admin)
  // What the WebSocket sessions see of all this (refers to the members above: a context is
  // built in place and never copied).
  DispatchSink sink{dispatcher};
  WsContext ws{edge, metrics, sessions, sink};
};

}  // namespace tilerace::server
