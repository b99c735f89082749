#include "server/net/http_api.hpp"

#include <boost/beast/http.hpp>

#include "protocol/daily.hpp"
#include "protocol/decode.hpp"
#include "protocol/encode.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/daily_seed.hpp"
#include "server/game/record_views.hpp"
#include "server/net/static_files.hpp"
#include "server/rules/daily.hpp"
#include "server/store/account_store.hpp"
#include "server/store/board_store.hpp"
#include "server/store/daily_store.hpp"
#include "server/store/game_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

using Request = HttpRequest;

HttpResponse text_response(const Request& req, const ServerContext& context, http::status status,
                           std::string_view content_type, std::string body) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "tilerace");
  context.headers.apply(res, req[http::field::host]);
  res.set(http::field::content_type, content_type);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  const auto size = body.size();
  if (req.method() != http::verb::head) res.body() = std::move(body);
  res.content_length(size);
  return res;
}

// GET /api/players/<id>: the player's profile (404 for no such player).
asio::awaitable<http::message_generator> profile_response(const Request& req, std::string_view path,
                                                          ServerContext& context) {
  const std::string id(path.substr(std::string_view("/api/players/").size()));
  std::optional<Profile> p;
  if (!id.empty() && id.size() <= 64) {
    const StoreWorker::JobOn<GameStore> load = [&](GameStore& s) { p = s.profile(id); };
    co_await context.store.run(load);
  }
  if (!p) co_return json_reply(req, context, http::status::not_found, R"({"error":"not_found"})");
  const auto result = [](const GameRecord& g) {
    return protocol::ProfileView::Result{.game_id = g.id,
                                         .room = g.room,
                                         .mode = g.config.mode,
                                         .size = g.config.size,
                                         .score = g.score,
                                         .max_tile = g.max_tile,
                                         .moves = g.move_count,
                                         .state = g.state,
                                         .at = g.ended_at};
  };
  protocol::ProfileView view{.player = {p->player.id, p->player.name, p->player.bot},
                             .wins = p->player.wins,
                             .losses = p->player.losses,
                             .created_at = p->player.created_at,
                             .games = p->games};
  const std::int64_t now = unix_ms();
  for (const protocol::Variant v : protocol::kVariants) {
    const glicko2::Rating r = p->player.ratings[protocol::index_of(v)].at_time(now);
    auto& shown_v = view.ratings.emplace_back(protocol::ProfileView::VariantRating{
        .variant = v, .rating = shown(r.rating), .rd = shown(r.rd), .provisional = provisional(r)});
    for (const VariantStanding& s : p->standings) {
      if (s.variant != v) continue;
      shown_v.races = s.races;
      shown_v.wins = s.wins;
      shown_v.losses = s.losses;
    }
    for (const RatingPoint& h : p->history) {
      if (h.variant == v) shown_v.history.push_back({h.at, h.rating, h.rd});
    }
  }
  for (const GameRecord& g : p->bests) view.bests.push_back(result(g));
  for (const RaceGameRecord& g : p->races) {
    view.races.push_back(result(g.game));
    view.races.back().outcome = g.outcome;
  }
  for (const Grant& g : p->achievements) {
    if (auto a = view_of(g)) view.achievements.push_back(*a);
  }
  const DailyStreaks streaks = daily_streaks(p->daily_days, day_of(unix_ms()));
  view.daily_streak = streaks.current;
  view.longest_daily_streak = streaks.longest;
  co_return json_reply(req, context, http::status::ok, protocol::encode_profile(view));
}

// GET /api/daily/<day>: a day's daily challenge once it is over — each mode's seed and every
// ranked attempt (403 while the day runs, 404 for no such day).
asio::awaitable<http::message_generator> daily_response(const Request& req, std::string_view path,
                                                        ServerContext& context) {
  const std::string day(path.substr(std::string_view("/api/daily/").size()));
  const auto period = protocol::period_from_string(day);
  if (!period || period->kind != protocol::PeriodKind::day) {
    co_return json_reply(req, context, http::status::not_found, R"({"error":"not_found"})");
  }
  if (day >= day_of(unix_ms())) {
    co_return json_reply(req, context, http::status::forbidden, R"({"error":"daily_not_over"})");
  }
  std::vector<DailyAttempt> attempts;
  const StoreWorker::JobOn<DailyStore> load = [&](DailyStore& s) {
    attempts = s.daily_attempts(day);
  };
  co_await context.store.run(load);
  protocol::DailyResultsView view{day, {}};
  for (const protocol::DailyMode& mode : protocol::kDailyModes) {
    protocol::DailyResultsView::Mode m{&mode, daily_seed(context.daily_secret, day, mode), {}};
    for (const DailyAttempt& a : attempts) {
      if (a.mode != mode.key) continue;
      const auto* prev = m.attempts.empty() ? nullptr : &m.attempts.back();
      const bool tie =
          prev != nullptr && prev->score == a.score && prev->moves == a.moves && prev->at == a.at;
      m.attempts.push_back({tie ? prev->rank : static_cast<int>(m.attempts.size()) + 1, a.player_id,
                            a.name, a.game_id, a.score, a.max_tile, a.moves, a.at});
    }
    view.modes.push_back(std::move(m));
  }
  co_return json_reply(req, context, http::status::ok, protocol::encode_daily_results(view));
}

// The path of a request's target, and its query (after '?', or empty).
std::string_view path_of(const Request& req) {
  const std::string_view target = req.target();
  return target.substr(0, target.find('?'));
}
std::string_view query_of(const Request& req) {
  const std::string_view target = req.target();
  const auto at = target.find('?');
  return at == std::string_view::npos ? std::string_view() : target.substr(at + 1);
}

}  // namespace

HttpResponse json_reply(const Request& req, const ServerContext& context, http::status status,
                        std::string body) {
  return text_response(req, context, status, "application/json", std::move(body));
}

bool needs_store(const Request& req) {
  const std::string_view path = path_of(req);
  return (req.method() == http::verb::get || req.method() == http::verb::head) &&
         (path == "/api/leaderboard" || path.starts_with("/api/replays/") ||
          path.starts_with("/api/players/") || path.starts_with("/api/daily/"));
}

http::message_generator store_unavailable(const Request& req, const ServerContext& context) {
  return json_reply(req, context, http::status::service_unavailable,
                    R"({"error":"store_unavailable"})");
}

namespace {

// A refused WebSocket upgrade: status with body, and the connection closed.
http::message_generator refusal(const Request& req, const ServerContext& context,
                                http::status status, std::string_view body) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "tilerace");
  context.headers.apply(res, req[http::field::host]);
  res.set(http::field::content_type, "application/json");
  res.keep_alive(false);
  res.body() = body;
  res.prepare_payload();
  return res;
}

}  // namespace

http::message_generator too_many_connections(const Request& req, const ServerContext& context) {
  return refusal(req, context, http::status::too_many_requests,
                 R"({"error":"too_many_connections"})");
}

http::message_generator forbidden_origin(const Request& req, const ServerContext& context) {
  return refusal(req, context, http::status::forbidden, R"({"error":"origin_not_allowed"})");
}

asio::awaitable<http::message_generator> answer_from_store(const Request& req,
                                                           ServerContext& context) {
  const std::string_view path = path_of(req);
  const std::string_view query = query_of(req);
  if (path == "/api/leaderboard") {
    auto decoded = protocol::decode_leaderboard_query(query);
    if (const auto* error = std::get_if<protocol::ProtocolError>(&decoded)) {
      co_return json_reply(req, context, http::status::bad_request,
                           protocol::encode_error(*error, {}));
    }
    auto& request = std::get<protocol::LeaderboardRequest>(decoded);
    request.period = protocol::period_at(request, unix_ms());
    const LeaderboardQuery q = query_of(request, {});
    Leaderboard board;
    const StoreWorker::JobOn<BoardStore> load = [&](BoardStore& s) { board = s.leaderboard(q); };
    co_await context.store.run(load);
    co_return json_reply(
        req, context, http::status::ok,
        protocol::encode_leaderboard(request, views_of(board.entries), std::nullopt, {}));
  }
  if (path.starts_with("/api/players/")) co_return co_await profile_response(req, path, context);
  if (path.starts_with("/api/daily/")) co_return co_await daily_response(req, path, context);
  // Only finished games are in the store, so a running game's seed is never revealed.
  const std::string id(path.substr(std::string_view("/api/replays/").size()));
  std::optional<GameRecord> game;
  std::optional<PlayerRecord> player;
  if (!id.empty() && id.size() <= 64) {
    const StoreWorker::JobOn<AccountStore, GameStore> load = [&](AccountStore& accounts,
                                                                 GameStore& games) {
      game = games.find_game(id);
      if (game) player = accounts.find_player(game->player_id);
    };
    co_await context.store.run(load);
  }
  if (!game)
    co_return json_reply(req, context, http::status::not_found, R"({"error":"not_found"})");
  if (!game->daily.empty() && game->daily >= day_of(unix_ms())) {
    // Its seed is the day's: every daily game of a day that is not over stays unseen.
    co_return json_reply(req, context, http::status::forbidden, R"({"error":"daily_not_over"})");
  }
  co_return json_reply(
      req, context, http::status::ok,
      protocol::encode_replay({game->id,
                               game->config,
                               game->moves,
                               game->score,
                               game->max_tile,
                               game->state,
                               {game->player_id, player ? std::string_view(player->name) : ""},
                               game->ended_at,
                               game->times}));
}

http::message_generator answer(const Request& req, ServerContext& context) {
  const std::string_view target = req.target();
  const std::string_view path = path_of(req);
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    return json_reply(req, context, http::status::method_not_allowed,
                      R"({"error":"method_not_allowed"})");
  }
  if (path == "/healthz") {
    // Alive either way (a balancer should not drop a node whose races go on); the body says
    // what an outage of the database or of Redis degrades.
    const bool database = context.metrics.store_available.load(std::memory_order_relaxed) == 1;
    const bool redis = context.directory.available();
    const bool lease = context.directory.lease_confirmed();
    std::string body = database && redis && lease ? R"({"status":"ok")" : R"({"status":"degraded")";
    if (!database) body += R"(,"database":"unreachable")";
    if (!redis) body += R"(,"redis":"unreachable")";
    // Cluster mode, the lease unconfirmed: race moves are answered once the database has
    // them, or held while it cannot be reached either (docs/operations.md, "Fencing").
    if (!lease)
      body += database ? R"(,"lease":"unconfirmed","race_moves":"confirmed_by_database")"
                       : R"(,"lease":"unconfirmed","race_moves":"held")";
    body += "}";
    return json_reply(req, context, http::status::ok, body);
  }
  if (path == "/metrics") {
    return text_response(req, context, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                         context.metrics.render());
  }
  if (path == "/ws") {
    return json_reply(req, context, http::status::upgrade_required,
                      R"({"error":"websocket_upgrade_required"})");
  }
  if (path == "/api/rooms") {
    if (!context.directory.available()) {
      return json_reply(req, context, http::status::service_unavailable,
                        R"({"error":"cluster_unavailable"})");
    }
    return json_reply(
        req, context, http::status::ok,
        protocol::encode_rooms(context.rooms.public_rooms(), context.directory.remote_rooms(), {}));
  }
  if (path == "/api" || path.starts_with("/api/")) {
    return json_reply(req, context, http::status::not_found, R"({"error":"not_found"})");
  }
  const auto file = resolve_static(context.web_root, target);
  if (!file)
    return text_response(req, context, http::status::not_found, "text/plain", "not found\n");
  http::file_body::value_type body;
  beast::error_code ec;
  body.open(file->c_str(), beast::file_mode::scan, ec);
  if (ec) return text_response(req, context, http::status::not_found, "text/plain", "not found\n");
  const auto size = body.size();
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    res.set(http::field::server, "tilerace");
    context.headers.apply(res, req[http::field::host]);
    res.set(http::field::content_type, content_type(*file));
    res.content_length(size);
    res.keep_alive(req.keep_alive());
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  res.set(http::field::server, "tilerace");
  context.headers.apply(res, req[http::field::host]);
  res.set(http::field::content_type, content_type(*file));
  res.set(http::field::cache_control, "no-cache");
  res.content_length(size);
  res.keep_alive(req.keep_alive());
  return res;
}

}  // namespace tilerace::server
