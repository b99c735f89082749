#pragma once
// The operator's API (docs/operations.md, "Moderation" and "Operators"), under /admin/api/:
// reads by GET (players?q=, players/<id>, audit?before=&limit=, reports?open=1, suspicion,
// operators, me) and actions by POST with a JSON body — ban, unban, rename, reset_password,
// hide_game, show_game, close_room, resolve_report (the dispatcher's Moderation), and sign_in,
// sign_out, totp_enrol, totp_confirm, create_operator, sign_out_operator, remove_operator (the
// OperatorDesk). Every request but sign_in carries `Authorization: Bearer` with an operator's
// session or the owner's bootstrap token; each route needs a role (answer 403 without it).
// Without --admin-token-file the API is off (404). Answers are JSON, never cached.
#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/message_generator.hpp>

#include <string>

#include "server/net/http_api.hpp"
#include "server/net/server_context.hpp"

namespace tilerace::server {

// Whether req is for the operator's API.
bool is_admin_request(const HttpRequest& req);
// Its answer; address: the client's (for the guard's count of failed attempts). Throws when
// the store cannot be reached (answer store_unavailable then).
boost::asio::awaitable<boost::beast::http::message_generator> answer_admin(const HttpRequest& req,
                                                                           ServerContext& context,
                                                                           std::string address);

}  // namespace tilerace::server
