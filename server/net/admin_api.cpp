#include "server/net/admin_api.hpp"

#include <boost/beast/http.hpp>

#include <charconv>
#include <limits>

#include "protocol/decode.hpp"
#include "server/net/admin_guard.hpp"
#include "server/play/moderation.hpp"
#include "server/play/operator_desk.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
namespace http = boost::beast::http;

namespace {

constexpr std::string_view kPrefix = "/admin/api/";

http::message_generator json(const HttpRequest& req, const ServerContext& context, int status,
                             std::string body) {
  HttpResponse res = json_reply(req, context, static_cast<http::status>(status), std::move(body));
  if (status == 401) res.set(http::field::www_authenticate, "Bearer");
  return res;
}

http::message_generator refuse(const HttpRequest& req, const ServerContext& context, int status,
                               std::string_view error, std::string_view message) {
  return json(req, context, status, protocol::encode_admin_error(error, message));
}

// A whole number from the query, or fallback when absent or not one in [min, max].
std::int64_t number(std::string_view query, std::string_view key, std::int64_t fallback,
                    std::int64_t min, std::int64_t max) {
  const auto text = protocol::query_value(query, key);
  if (!text) return fallback;
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (ec != std::errc() || end != text->data() + text->size() || n < min || n > max) {
    return fallback;
  }
  return n;
}

}  // namespace

bool is_admin_request(const HttpRequest& req) {
  const std::string_view target = req.target();
  return target.substr(0, target.find('?')).starts_with(kPrefix);
}

namespace {

// What a route needs of its caller (docs/operations.md, "Operators"): any operator (reads and
// their own session), a moderator or the owner (actions on players, games, rooms and reports),
// or the owner or the bootstrap token (operators themselves); the list of operators is for all.
enum class Need { anyone, operator_session, moderator, owner };

bool meets(const Actor& actor, Need need) {
  switch (need) {
    case Need::anyone: return true;
    case Need::operator_session: return actor.role != "token";
    case Need::moderator: return actor.role == "moderator" || actor.role == "owner";
    case Need::owner: return actor.role == "owner" || actor.role == "token";
  }
  return false;
}

std::string_view needed(Need need) {
  switch (need) {
    case Need::owner: return "this needs the owner's role";
    case Need::moderator: return "this needs a moderator's or the owner's role";
    default: return "the bootstrap token manages operators only: sign in as an operator";
  }
}

Need need_of_desk(std::string_view action) {
  if (action == "create_operator" || action == "sign_out_operator" || action == "remove_operator") {
    return Need::owner;
  }
  return Need::operator_session;
}

http::message_generator protocol_error(const HttpRequest& req, const ServerContext& context,
                                       const protocol::ProtocolError& error) {
  const int status = error.code == protocol::ErrorCode::unknown_type ? 404 : 400;
  return json(req, context, status,
              protocol::encode_admin_error(
                  protocol::to_string(error.code),
                  error.field.empty() ? error.message : error.field + ": " + error.message));
}

}  // namespace

asio::awaitable<http::message_generator> answer_admin(const HttpRequest& req,
                                                      ServerContext& context, std::string address) {
  if (context.admin == nullptr) {
    co_return refuse(req, context, 404, "not_found", "the operator API is off");
  }
  AdminGuard& guard = *context.admin;
  OperatorDesk& desk = *context.desk;
  if (guard.limited(address)) {
    context.metrics.admin_denied_total.fetch_add(1, std::memory_order_relaxed);
    co_return refuse(req, context, 429, "rate_limited",
                     "too many failed attempts from your address: try again in a minute");
  }
  const std::string_view target = req.target();
  const auto mark = target.find('?');
  const std::string_view path = target.substr(kPrefix.size(), mark - kPrefix.size());
  const std::string_view query = mark == std::string_view::npos ? "" : target.substr(mark + 1);
  const bool post = req.method() == http::verb::post;
  if (post && path == "sign_in") {  // the one route without a credential
    auto decoded = protocol::decode_desk(path, req.body());
    if (auto* error = std::get_if<protocol::ProtocolError>(&decoded)) {
      co_return protocol_error(req, context, *error);
    }
    bool failed = false;
    auto in =
        std::get<protocol::OperatorSignIn>(std::get<protocol::DeskAction>(std::move(decoded)));
    AdminAnswer answer = co_await desk.sign_in(std::move(in), address, failed);
    if (failed) {
      guard.failed(address);
      context.metrics.admin_denied_total.fetch_add(1, std::memory_order_relaxed);
    }
    co_return json(req, context, answer.status, std::move(answer.body));
  }
  // Who asks: the bootstrap token, or an operator's live session.
  const std::string_view credential = bearer_credential(req[http::field::authorization]);
  std::optional<Actor> actor;
  if (guard.is_bootstrap(credential)) {
    actor = Actor{"", "owner token", "token", address, ""};
  } else if (!credential.empty()) {
    actor = co_await desk.session(std::string(credential), address);
  }
  if (!actor) {
    guard.failed(address);
    context.metrics.admin_denied_total.fetch_add(1, std::memory_order_relaxed);
    co_return refuse(req, context, 401, "unauthorized",
                     "sign in as an operator (or bring the owner's token)");
  }
  const auto forbidden = [&](Need need) {
    context.metrics.admin_denied_total.fetch_add(1, std::memory_order_relaxed);
    return refuse(req, context, 403, "forbidden", needed(need));
  };
  Moderation& moderation = *context.moderation;
  AdminAnswer answer{404, protocol::encode_admin_error("not_found", "no such operator route")};
  if (post) {
    if (protocol::is_desk_action(path)) {
      if (!meets(*actor, need_of_desk(path))) co_return forbidden(need_of_desk(path));
      auto desk_action = protocol::decode_desk(path, req.body());
      if (auto* error = std::get_if<protocol::ProtocolError>(&desk_action)) {
        co_return protocol_error(req, context, *error);
      }
      answer = co_await desk.act(*actor, std::get<protocol::DeskAction>(std::move(desk_action)));
      co_return json(req, context, answer.status, std::move(answer.body));
    }
    if (!meets(*actor, Need::moderator)) co_return forbidden(Need::moderator);
    auto decoded = protocol::decode_admin(path, req.body());
    if (auto* error = std::get_if<protocol::ProtocolError>(&decoded)) {
      co_return protocol_error(req, context, *error);
    }
    answer = co_await moderation.act(*actor, std::get<protocol::AdminAction>(std::move(decoded)));
    co_return json(req, context, answer.status, std::move(answer.body));
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    answer = {405, protocol::encode_admin_error("method_not_allowed", "GET or POST")};
  } else if (path == "operators") {
    answer = co_await desk.operators();
  } else if (!meets(*actor, Need::operator_session)) {
    co_return forbidden(Need::operator_session);
  } else if (path == "me") {
    answer = co_await desk.me(*actor);
  } else if (path == "players" && !query.empty()) {
    answer = co_await moderation.search(protocol::query_value(query, "q").value_or(""));
  } else if (path.starts_with("players/") && path.size() > 8 && path.size() <= 8 + 64) {
    answer = co_await moderation.player(std::string(path.substr(8)));
  } else if (path == "audit") {
    const std::int64_t before = number(query, "before", std::numeric_limits<std::int64_t>::max(), 1,
                                       std::numeric_limits<std::int64_t>::max());
    answer =
        co_await moderation.audit(before, static_cast<int>(number(query, "limit", 50, 1, 500)));
  } else if (path == "suspicion") {
    answer = co_await moderation.suspicion(static_cast<int>(number(query, "limit", 50, 1, 500)));
  } else if (path == "reports") {
    answer = co_await moderation.reports(number(query, "open", 1, 0, 1) == 1);
  }
  co_return json(req, context, answer.status, std::move(answer.body));
}

}  // namespace tilerace::server
