#include "server/net/admin_api.hpp"

#include <boost/beast/http.hpp>

#include <charconv>
#include <limits>

#include "protocol/decode.hpp"
#include "server/net/admin_guard.hpp"

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

asio::awaitable<http::message_generator> answer_admin(const HttpRequest& req,
                                                      ServerContext& context, std::string address) {
  if (context.admin == nullptr) {
    co_return refuse(req, context, 404, "not_found", "the operator API is off");
  }
  const AdminGuard::Verdict verdict =
      context.admin->check(address, req[http::field::authorization]);
  if (verdict != AdminGuard::Verdict::allowed) {
    context.metrics.admin_denied_total.fetch_add(1, std::memory_order_relaxed);
    if (verdict == AdminGuard::Verdict::limited) {
      co_return refuse(req, context, 429, "rate_limited",
                       "too many failed attempts from your address: try again in a minute");
    }
    co_return refuse(req, context, 401, "unauthorized", "a valid operator token is required");
  }
  const std::string_view target = req.target();
  const auto mark = target.find('?');
  const std::string_view path = target.substr(kPrefix.size(), mark - kPrefix.size());
  const std::string_view query = mark == std::string_view::npos ? "" : target.substr(mark + 1);
  Moderation& moderation = context.dispatcher.moderation();
  AdminAnswer answer{404, protocol::encode_admin_error("not_found", "no such operator route")};
  if (req.method() == http::verb::post) {
    auto decoded = protocol::decode_admin(path, req.body());
    if (auto* error = std::get_if<protocol::ProtocolError>(&decoded)) {
      const int status = error->code == protocol::ErrorCode::unknown_type ? 404 : 400;
      co_return json(
          req, context, status,
          protocol::encode_admin_error(
              protocol::to_string(error->code),
              error->field.empty() ? error->message : error->field + ": " + error->message));
    }
    answer = co_await moderation.act(std::get<protocol::AdminAction>(std::move(decoded)));
  } else if (req.method() != http::verb::get && req.method() != http::verb::head) {
    answer = {405, protocol::encode_admin_error("method_not_allowed", "GET or POST")};
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
