#pragma once
// The HTTP routes (docs/protocol.md, "HTTP"): /healthz, /metrics, /api/rooms, the store's
// /api/leaderboard, /api/replays/<id> and /api/players/<id>, and the web client's files. A
// route answers one request; it owns no connection (HttpSession reads and writes).
#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/net/server_context.hpp"

namespace tilerace::server {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

// A JSON answer to req with the server's headers (the security headers, no caching), its body
// left out for HEAD.
HttpResponse json_reply(const HttpRequest& req, const ServerContext& context,
                        boost::beast::http::status status, std::string body);

// Whether req is answered from the store (answer_from_store), not at once (answer).
bool needs_store(const HttpRequest& req);
// Every route that needs no store: the answer, 404 or 405 included.
boost::beast::http::message_generator answer(const HttpRequest& req, ServerContext& context);
// A store route's answer (404 for no such game or player, 400 for a bad query); resumes on the
// caller's executor. Throws when the store cannot be reached: answer store_unavailable then.
boost::asio::awaitable<boost::beast::http::message_generator> answer_from_store(
    const HttpRequest& req, ServerContext& context);
// 503: the store cannot be reached.
boost::beast::http::message_generator store_unavailable(const HttpRequest& req,
                                                        const ServerContext& context);
// 429 to a WebSocket upgrade from a client (behind a proxy of ours) with too many open.
boost::beast::http::message_generator too_many_connections(const HttpRequest& req,
                                                           const ServerContext& context);
// 403 to a WebSocket upgrade from a page of another site.
boost::beast::http::message_generator forbidden_origin(const HttpRequest& req,
                                                       const ServerContext& context);

}  // namespace tilerace::server
