#pragma once
// Who acts at the operator API (docs/operations.md, "Operators"): an operator signed in, with
// their role, or the owner's bootstrap token (which manages operators only). Every audit entry
// of an action names them, their role and the address the request came from.
#include <cstdint>
#include <string>

namespace tilerace::server {

struct Actor {
  std::string id;       // the operator's id ("" for the token)
  std::string name;     // the operator's name ("owner token" for the token)
  std::string role;     // owner, moderator, viewer, or token
  std::string address;  // the request's client address
  std::string session;  // the hash of the session the request came with ("" for the token)
};

}  // namespace tilerace::server
