#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "protocol/decode.hpp"
#include "protocol/encode.hpp"
#include "server/base/unix_time.hpp"
#include "server/cluster/cluster.hpp"
#include "server/net/expected_close.hpp"
#include "server/net/static_files.hpp"
#include "server/net/ws_session.hpp"
#include "server/store/achievements.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::as_tuple;
using asio::use_awaitable;

namespace {

using Request = http::request<http::string_body>;

constexpr std::size_t kHeaderLimit = 8 * 1024;
constexpr std::size_t kBodyLimit = 8 * 1024;
constexpr auto kRequestTimeout = std::chrono::seconds(10);

http::message_generator text_response(const Request& req, http::status status,
                                      std::string_view content_type, std::string body) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "tilerace");
  res.set(http::field::content_type, content_type);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  const auto size = body.size();
  if (req.method() != http::verb::head) res.body() = std::move(body);
  res.content_length(size);
  return res;
}

http::message_generator json_response(const Request& req, http::status status, std::string body) {
  return text_response(req, status, "application/json", std::move(body));
}

// GET /api/players/<id>: the player's profile (404 for no such player).
asio::awaitable<http::message_generator> profile_response(const Request& req, std::string_view path,
                                                          ServerContext& context) {
  const std::string id(path.substr(std::string_view("/api/players/").size()));
  std::optional<Profile> p;
  if (!id.empty() && id.size() <= 64) {
    const StoreWorker::Job load = [&](Store& s) { p = s.profile(id); };
    co_await context.store.run(load);
  }
  if (!p) co_return json_response(req, http::status::not_found, R"({"error":"not_found"})");
  const auto result = [](const GameRecord& g) {
    return protocol::ProfileView::Result{g.id,          g.room,  g.config.mode,
                                         g.config.size, g.score, g.max_tile,
                                         g.move_count,  g.state, g.ended_at};
  };
  protocol::ProfileView view{{p->player.id, p->player.name},
                             p->player.rating,
                             p->player.wins,
                             p->player.losses,
                             p->player.created_at,
                             p->games,
                             {},
                             p->ratings,
                             {},
                             {}};
  for (const GameRecord& g : p->bests) view.bests.push_back(result(g));
  for (const GameRecord& g : p->races) view.races.push_back(result(g));
  for (const Grant& g : p->achievements) {
    if (auto a = view_of(g)) view.achievements.push_back(*a);
  }
  co_return json_response(req, http::status::ok, protocol::encode_profile(view));
}

// GET /api/leaderboard?mode=&size=&kind=&limit=&period=, /api/replays/<id> and /api/players/<id>:
// all read the store.
asio::awaitable<http::message_generator> route_store(const Request& req, std::string_view path,
                                                     std::string_view query,
                                                     ServerContext& context) {
  if (path == "/api/leaderboard") {
    auto decoded = protocol::decode_leaderboard_query(query);
    if (const auto* error = std::get_if<protocol::ProtocolError>(&decoded)) {
      co_return json_response(req, http::status::bad_request, protocol::encode_error(*error, {}));
    }
    auto& request = std::get<protocol::LeaderboardRequest>(decoded);
    request.period = protocol::period_at(request, unix_ms());
    const LeaderboardQuery q{request.mode,  request.size, request.kind,
                             request.limit, "",           request.period};
    Leaderboard board;
    const StoreWorker::Job load = [&](Store& s) { board = s.leaderboard(q); };
    co_await context.store.run(load);
    co_return json_response(req, http::status::ok,
                            protocol::encode_leaderboard(request, board.entries, std::nullopt, {}));
  }
  if (path.starts_with("/api/players/")) co_return co_await profile_response(req, path, context);
  // Only finished games are in the store, so a running game's seed is never revealed.
  const std::string id(path.substr(std::string_view("/api/replays/").size()));
  std::optional<GameRecord> game;
  std::optional<PlayerRecord> player;
  if (!id.empty() && id.size() <= 64) {
    const StoreWorker::Job load = [&](Store& s) {
      game = s.find_game(id);
      if (game) player = s.find_player(game->player_id);
    };
    co_await context.store.run(load);
  }
  if (!game) co_return json_response(req, http::status::not_found, R"({"error":"not_found"})");
  co_return json_response(
      req, http::status::ok,
      protocol::encode_replay({game->id,
                               game->config,
                               game->moves,
                               game->score,
                               game->max_tile,
                               game->state,
                               {game->player_id, player ? std::string_view(player->name) : ""},
                               game->ended_at}));
}

http::message_generator route(const Request& req, ServerContext& context) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    return json_response(req, http::status::method_not_allowed,
                         R"({"error":"method_not_allowed"})");
  }
  if (path == "/healthz") {
    // Alive either way (a balancer should not drop a node whose races go on); the body says
    // what an outage of the database or of Redis degrades.
    const bool database = context.metrics.store_available.load(std::memory_order_relaxed) == 1;
    const bool redis = context.cluster == nullptr || context.cluster->available();
    std::string body = database && redis ? R"({"status":"ok")" : R"({"status":"degraded")";
    if (!database) body += R"(,"database":"unreachable")";
    if (!redis) body += R"(,"redis":"unreachable")";
    body += "}";
    return json_response(req, http::status::ok, body);
  }
  if (path == "/metrics") {
    return text_response(req, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                         context.metrics.render());
  }
  if (path == "/ws") {
    return json_response(req, http::status::upgrade_required,
                         R"({"error":"websocket_upgrade_required"})");
  }
  if (path == "/api/rooms") {
    if (context.cluster == nullptr) {
      return json_response(req, http::status::ok,
                           protocol::encode_rooms(context.rooms.public_rooms(), {}));
    }
    if (!context.cluster->available()) {
      return json_response(req, http::status::service_unavailable,
                           R"({"error":"cluster_unavailable"})");
    }
    return json_response(
        req, http::status::ok,
        protocol::encode_rooms(context.rooms.public_rooms(), context.cluster->remote_rooms(), {}));
  }
  if (path == "/api" || path.starts_with("/api/")) {
    return json_response(req, http::status::not_found, R"({"error":"not_found"})");
  }
  const auto file = resolve_static(context.web_root, target);
  if (!file) return text_response(req, http::status::not_found, "text/plain", "not found\n");
  http::file_body::value_type body;
  beast::error_code ec;
  body.open(file->c_str(), beast::file_mode::scan, ec);
  if (ec) return text_response(req, http::status::not_found, "text/plain", "not found\n");
  const auto size = body.size();
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    res.set(http::field::content_type, content_type(*file));
    res.content_length(size);
    res.keep_alive(req.keep_alive());
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  res.set(http::field::server, "tilerace");
  res.set(http::field::content_type, content_type(*file));
  res.set(http::field::cache_control, "no-cache");
  res.content_length(size);
  res.keep_alive(req.keep_alive());
  return res;
}

void fail(beast::error_code ec, const char* what) {
  if (expected_close(ec)) return;
  spdlog::debug("http {}: {}", what, ec.message());
}

}  // namespace

HttpSession::HttpSession(HttpStream&& stream, ServerContext& context, AddressLimits::Slot slot)
    : stream_(std::move(stream)),
      executor_(stream_.get_executor()),
      context_(context),
      slot_(std::move(slot)) {}

void HttpSession::start() {
  // In the set before any handler can run (so it is never removed before it is added), and
  // owned by the coroutine's frame from its creation (add may post a shutdown onto its thread,
  // and then the coroutine starts after it, not inline).
  auto session = run(shared_from_this());
  context_.sessions.add(shared_from_this());
  asio::co_spawn(executor_, std::move(session), asio::detached);
}

void HttpSession::abort() {
  asio::post(executor_, [self = shared_from_this()] {
    if (self->handed_over_) return;
    beast::error_code ignored;
    self->stream_.socket().close(ignored);
  });
}

asio::awaitable<void> HttpSession::run([[maybe_unused]] std::shared_ptr<HttpSession> self) {
  struct Leave {
    HttpSession& session;
    ~Leave() { session.context_.sessions.remove(&session); }
  } leave{*this};
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(kBodyLimit);
    stream_.expires_after(kRequestTimeout);
    auto [ec, bytes] = co_await http::async_read(stream_, buffer, parser, as_tuple(use_awaitable));
    if (ec) co_return fail(ec, "read");
    Request req = parser.release();
    if (beast::websocket::is_upgrade(req) && req.target() == "/ws") {
      handed_over_ = true;
      std::make_shared<WsSession>(stream_.release_socket(), context_, std::move(slot_))
          ->start(std::move(req));
      co_return;
    }
    context_.metrics.http_requests_total.fetch_add(1, std::memory_order_relaxed);
    const std::string_view target = req.target();
    const std::string_view path = target.substr(0, target.find('?'));
    const bool from_store = (req.method() == http::verb::get || req.method() == http::verb::head) &&
                            (path == "/api/leaderboard" || path.starts_with("/api/replays/") ||
                             path.starts_with("/api/players/"));
    const std::string_view query =
        path.size() < target.size() ? target.substr(path.size() + 1) : std::string_view();
    // No co_await inside ?: here: GCC 12 miscompiles it (the response came out empty).
    std::optional<http::message_generator> response;
    if (from_store) {
      try {
        response.emplace(co_await route_store(req, path, query, context_));
      } catch (const std::exception& e) {
        spdlog::error("http {}: {}", path, e.what());
        response.emplace(json_response(req, http::status::service_unavailable,
                                       R"({"error":"store_unavailable"})"));
      }
    } else {
      response.emplace(route(req, context_));
    }
    const bool keep_alive = response->keep_alive();
    auto [wec, written] =
        co_await beast::async_write(stream_, std::move(*response), as_tuple(use_awaitable));
    if (wec) co_return fail(wec, "write");
    if (!keep_alive) {
      beast::error_code ignored;
      stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
      co_return;
    }
  }
}

}  // namespace tilerace::server
