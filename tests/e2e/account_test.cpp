// Accounts over the real binary: claiming a name with a password, signing in elsewhere, the
// sessions of a player, link codes, attempt limits, names that are refused, and a session made
// on one node used on another. (That no log holds a password, token or link code is checked
// for every e2e test, by the harness.)
#include <gtest/gtest.h>

#include <fstream>

#include "tests/e2e/harness.hpp"
#include "tests/pg_cluster.hpp"
#include "tests/redis_process.hpp"

namespace tilerace::e2e {
namespace {

constexpr const char* kPassword = "correct horse battery";

// A guest named name on a new connection, who then registers with kPassword.
json registered(WsClient& ws, const std::string& name) {
  const json welcome = ws.hello(name);
  EXPECT_EQ(welcome["registered"], false);
  const json reply = ws.request({{"type", "register"}, {"password", kPassword}});
  EXPECT_EQ(reply["type"], "registered") << reply.dump();
  return welcome;
}

json login(WsClient& ws, const std::string& name, const std::string& password,
           const std::string& device = "") {
  json m{{"type", "login"}, {"name", name}, {"password", password}};
  if (!device.empty()) m["device"] = device;
  return ws.request(m);
}

TEST(Accounts, ARegisteredPlayerSignsInOnAnotherDeviceAsThemselves) {
  ServerProcess server;
  WsClient phone(server.port());
  const json first = registered(phone, "Alice");
  // A game played on the first device: the second device signs in to the same player.
  EXPECT_EQ(phone.request({{"type", "new_game"}, {"size", 4}})["type"], "game");
  WsClient laptop(server.port());
  const json welcome = login(laptop, "  ALICE ", kPassword, "Laptop");  // any case, trimmed
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(welcome["player"], first["player"]);
  EXPECT_EQ(welcome["registered"], true);
  EXPECT_NE(welcome["token"], first["token"]);                   // a session of its own
  EXPECT_EQ(laptop.expect("game")["game"]["state"], "playing");  // the game came along
  EXPECT_EQ(phone.wait_closed(), 4000);  // one connection at a time: the laptop's now
  const auto profile =
      http_request(server.port(), "/api/players/" + first["player"]["id"].get<std::string>());
  EXPECT_EQ(profile.status, 200);
  // Both devices stay signed in: each lists the other.
  const json sessions = laptop.request({{"type", "sessions"}});
  ASSERT_EQ(sessions["sessions"].size(), 2u) << sessions.dump();
  EXPECT_EQ(sessions["sessions"][1]["device"], "Laptop");
  EXPECT_EQ(sessions["sessions"][1]["current"], true);
  EXPECT_EQ(sessions["sessions"][0]["current"], false);
  WsClient phone_again(server.port());
  EXPECT_EQ(phone_again.request({{"type", "hello"}, {"token", first["token"]}})["type"], "welcome");
}

TEST(Accounts, SignOutHereOrEverywhereElse) {
  ServerProcess server;
  WsClient a(server.port());
  const json guest = registered(a, "bruno");
  WsClient b(server.port());
  const json second = login(b, "bruno", kPassword);
  ASSERT_EQ(second["type"], "welcome");
  // logout_all ends every session but this one: the first device's token no longer works.
  const json left = b.request({{"type", "logout_all"}});
  ASSERT_EQ(left["type"], "sessions");
  EXPECT_EQ(left["sessions"].size(), 1u);
  WsClient a_again(server.port());
  EXPECT_EQ(a_again.request({{"type", "hello"}, {"token", guest["token"]}})["code"], "bad_token");
  // logout ends this session and this connection.
  EXPECT_EQ(b.request({{"type", "logout"}})["type"], "logged_out");
  EXPECT_EQ(b.wait_closed(), 1000);
  WsClient b_again(server.port());
  EXPECT_EQ(b_again.request({{"type", "hello"}, {"token", second["token"]}})["code"], "bad_token");
  // The password still signs in.
  WsClient c(server.port());
  EXPECT_EQ(login(c, "bruno", kPassword)["type"], "welcome");
}

TEST(Accounts, ChangingThePasswordEndsTheOtherSessions) {
  ServerProcess server;
  WsClient a(server.port());
  const json guest = registered(a, "chen");
  const json wrong = a.request({{"type", "change_password"},
                                {"old_password", "not it at all"},
                                {"password", "new secret!"}});
  EXPECT_EQ(wrong["code"], "bad_credentials");
  WsClient b(server.port());
  EXPECT_EQ(login(b, "chen", kPassword)["type"], "welcome");
  EXPECT_EQ(a.wait_closed(), 4000);
  const json changed = b.request(
      {{"type", "change_password"}, {"old_password", kPassword}, {"password", "new secret!"}});
  EXPECT_EQ(changed["type"], "sessions");
  EXPECT_EQ(changed["sessions"].size(), 1u);
  WsClient c(server.port());
  EXPECT_EQ(login(c, "chen", kPassword)["code"], "bad_credentials");
  EXPECT_EQ(login(c, "chen", "new secret!")["type"], "welcome");
}

TEST(Accounts, ALinkCodeSignsInOneOtherDeviceOnce) {
  ServerProcess server;
  WsClient a(server.port());
  const json guest = a.hello("dora");  // guests may link devices too
  const json code = a.request({{"type", "link_code"}});
  ASSERT_EQ(code["type"], "link_code");
  EXPECT_EQ(code["code"].get<std::string>().size(), 8u);
  WsClient b(server.port());
  const json linked = b.request({{"type", "hello"}, {"link_code", code["code"]}});
  ASSERT_EQ(linked["type"], "welcome") << linked.dump();
  EXPECT_EQ(linked["player"], guest["player"]);
  WsClient c(server.port());
  const json again = c.request({{"type", "hello"}, {"link_code", code["code"]}});
  EXPECT_EQ(again["code"], "bad_credentials");
  EXPECT_EQ(again["field"], "link_code");
}

TEST(Accounts, WrongNamesAndPasswordsLookTheSameAndAreLimited) {
  ServerProcess server;
  WsClient a(server.port());
  registered(a, "emil");
  WsClient b(server.port());
  const json unknown = login(b, "nobody-here", kPassword);
  const json wrong = login(b, "emil", "wrong password");
  const json guest = login(b, "emil-guest", "whatever it is");
  EXPECT_EQ(unknown["code"], "bad_credentials");
  EXPECT_EQ(wrong["code"], "bad_credentials");
  EXPECT_EQ(unknown["message"], wrong["message"]);
  EXPECT_EQ(guest["message"], wrong["message"]);
  // Ten failures on one name in 15 minutes from devices it does not know: the next attempt
  // from such a device is refused unchecked, even with the right password, for a minute.
  for (int i = 1; i < 10; ++i)
    EXPECT_EQ(login(b, "emil", "wrong password")["code"], "bad_credentials");
  const json limited = login(b, "emil", kPassword);
  EXPECT_EQ(limited["code"], "rate_limited") << limited.dump();
  EXPECT_GT(limited["retry_after_ms"].get<std::int64_t>(), 50'000);
  EXPECT_LE(limited["retry_after_ms"].get<std::int64_t>(), 60'000);
  EXPECT_EQ(server.metric("tilerace_login_limited_total"), 1);
  EXPECT_EQ(server.metric("tilerace_login_failures_total"), 12);
  EXPECT_EQ(server.metric("tilerace_login_lockouts_total"), 1);
  EXPECT_TRUE(server.wait_for_log("sign-in lockout: the unknown devices of 'emil' for 60 s"));
  // A flood from one address is cut off too, whatever names it tries.
  WsClient flood(server.port());
  int refused = 0;
  for (int i = 0; i < 30; ++i) {
    refused += login(flood, "someone" + std::to_string(i), "guess guess")["code"] == "rate_limited";
  }
  EXPECT_GE(refused, 10);  // 20 attempts a minute from one address, counted since the test began
}

TEST(Accounts, NamesAreUniqueVisibleAndAllowed) {
  TempDir dir;
  const auto blocklist = dir.path() / "blocked.txt";
  std::ofstream(blocklist) << "# words we do not want\nbadword\n";
  ServerProcess server({"--name-blocklist", blocklist.string()});
  WsClient a(server.port());
  EXPECT_EQ(a.hello("Frida")["type"], "welcome");
  WsClient b(server.port());
  for (const char* taken : {"frida", "FRIDA", "\xEF\xBC\xA6rida"}) {  // Ｆrida, fullwidth
    const json reply = b.request({{"type", "hello"}, {"name", taken}});
    EXPECT_EQ(reply["code"], "name_taken") << taken;
  }
  const auto refused = [&](const std::string& name) {
    const json reply = b.request({{"type", "hello"}, {"name", name}});
    EXPECT_EQ(reply["code"], "bad_field") << name;
    EXPECT_EQ(reply["field"], "name") << name;
    return reply["message"].get<std::string>();
  };
  EXPECT_NE(refused("evil\xE2\x80\xAEgpj.exe").find("invisible"), std::string::npos);
  EXPECT_NE(refused("ad\xE2\x80\x8Bmin").find("invisible"), std::string::npos);
  EXPECT_NE(refused("B4D.W0RD").find("not allowed"), std::string::npos);
  EXPECT_NE(refused(std::string(21, 'x')).find("1 to 20"), std::string::npos);
  EXPECT_NE(refused("-_-").find("letter or a digit"), std::string::npos);
  EXPECT_NE(refused("!?!?").find("letters and digits"), std::string::npos);
  // No name at all: one is made up.
  const json made_up = b.request({{"type", "hello"}});
  ASSERT_EQ(made_up["type"], "welcome");
  EXPECT_NE(made_up["player"]["name"].get<std::string>().find('-'), std::string::npos);
}

// Look-alikes, reserved names and blocked words spelt in another script, on either store.
void names_by_look(const std::vector<std::string>& store_args) {
  TempDir dir;
  const auto blocklist = dir.path() / "blocked.txt";
  std::ofstream(blocklist) << "badword\ncape\n";
  const auto reserved = dir.path() / "reserved.txt";
  std::ofstream(reserved) << "# ours\nstaff\n";
  std::vector<std::string> args{"--name-blocklist", blocklist.string(), "--reserved-names",
                                reserved.string()};
  args.insert(args.end(), store_args.begin(), store_args.end());
  ServerProcess server(args);
  WsClient a(server.port());
  ASSERT_EQ(a.hello("alice")["type"], "welcome");
  WsClient c(server.port());
  ASSERT_EQ(c.hello("ace")["type"], "welcome");
  WsClient b(server.port());
  const auto reply_to = [&](const std::string& name) {
    return b.request({{"type", "hello"}, {"name", name}});
  };
  // An all-Cyrillic асе, a capital I for an l, a dotted İ, fullwidth: the same names.
  for (const char* taken : {"\u0430\u0441\u0435", "aIice", "AL\u0130CE", "\uFF41lice"}) {
    EXPECT_EQ(reply_to(taken)["code"], "name_taken") << taken;
  }
  const auto refused = [&](const std::string& name) {
    const json reply = reply_to(name);
    EXPECT_EQ(reply["code"], "bad_field") << name;
    EXPECT_EQ(reply["field"], "name") << name;
    return reply.value("reason", "");
  };
  EXPECT_EQ(refused("\u0430lice"), "script_mix");  // a Cyrillic а among Latin letters
  EXPECT_EQ(refused("b\u0430dword"), "script_mix");
  EXPECT_EQ(refused("\u0431\u0430\u0434badword"), "script_mix");
  EXPECT_EQ(refused("xbadwordx"), "blocked");
  EXPECT_EQ(refused("Adm1n"), "reserved");
  EXPECT_EQ(refused("STAFF"), "reserved");
  EXPECT_EQ(refused("alice\u3000"), "character");
  EXPECT_EQ(refused("\u2800alice"), "character");
  EXPECT_EQ(refused(std::string(21, 'x')), "length");
  // A blocked word in Cyrillic letters that look Latin, all one script: blocked all the same.
  EXPECT_EQ(refused("\u0441\u0430\u0440\u0435"), "blocked");  // саре
  EXPECT_EQ(refused("my\u0441\u0430\u0440\u0435"), "script_mix");
}

TEST(Accounts, LookAlikeReservedAndBlockedNamesAreRefusedWithAReason) { names_by_look({}); }

TEST(Accounts, LookAlikeReservedAndBlockedNamesAreRefusedWithAReasonOnPostgresql) {
  names_by_look({"--database", tilerace::testing::PgCluster::shared().create_database()});
}

// Nobody can jam an owner's sign-in (docs/protocol.md, "Sign-in limits"): ten wrong passwords
// from another address lock out the account's unknown devices, but the owner's device, which
// signed in before and keeps its mark, signs in at once; a wrong mark is no mark.
void known_device_signs_in(std::vector<std::string> store_args) {
  store_args.insert(store_args.end(), {"--trusted-proxy", "127.0.0.1"});
  ServerProcess server(store_args);
  const auto from = [](const char* client) {
    return std::vector<std::pair<std::string, std::string>>{{"X-Forwarded-For", client}};
  };
  WsClient phone(server.port(), std::nullopt, "/ws", from("198.51.100.7"));
  registered(phone, "fiona");
  WsClient laptop(server.port(), std::nullopt, "/ws", from("198.51.100.7"));
  const json first = login(laptop, "fiona", kPassword);
  ASSERT_EQ(first["type"], "welcome") << first.dump();
  const std::string mark = first.value("device_mark", "");
  ASSERT_FALSE(mark.empty());
  EXPECT_EQ(phone.wait_closed(), 4000);
  // Someone elsewhere tries ten passwords; then even the right one waits, from there.
  WsClient attacker(server.port(), std::nullopt, "/ws", from("203.0.113.66"));
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(login(attacker, "fiona", "guess number " + std::to_string(i))["code"],
              "bad_credentials");
  }
  EXPECT_EQ(login(attacker, "fiona", kPassword)["code"], "rate_limited");
  EXPECT_TRUE(
      server.wait_for_log("sign-in lockout: the unknown devices of 'fiona' for 60 s, "
                          "after a failure from 203.0.113.66"));
  EXPECT_EQ(server.log().find(kPassword), std::string::npos);
  // A new device of the owner's waits too; a forged mark, or a mark of another player's, is
  // no mark.
  WsClient other(server.port(), std::nullopt, "/ws", from("198.51.100.7"));
  EXPECT_EQ(login(other, "fiona", kPassword)["code"], "rate_limited");
  WsClient gina(server.port());
  registered(gina, "gina");
  WsClient gina2(server.port());
  const std::string ginas_mark = login(gina2, "gina", kPassword).value("device_mark", "");
  ASSERT_FALSE(ginas_mark.empty());
  for (const std::string& wrong : {ginas_mark, mark.substr(0, mark.size() - 1) + "x"}) {
    json m{{"type", "login"}, {"name", "fiona"}, {"password", kPassword}, {"device_mark", wrong}};
    EXPECT_EQ(other.request(m)["code"], "rate_limited") << wrong;
  }
  // The laptop signs in at once with its mark, and keeps its device.
  laptop.request({{"type", "logout"}});
  WsClient laptop_again(server.port(), std::nullopt, "/ws", from("198.51.100.7"));
  const json again = laptop_again.request(
      {{"type", "login"}, {"name", "fiona"}, {"password", kPassword}, {"device_mark", mark}});
  ASSERT_EQ(again["type"], "welcome") << again.dump();
  EXPECT_EQ(again["player"], first["player"]);
  const std::string renewed = again.value("device_mark", "");
  EXPECT_EQ(renewed.substr(0, renewed.find('.')), mark.substr(0, mark.find('.')));
  // A hello with the token gives a mark too.
  WsClient resumed(server.port());
  EXPECT_FALSE(resumed.request({{"type", "hello"}, {"token", again["token"]}})
                   .value("device_mark", "")
                   .empty());
  EXPECT_EQ(server.metric("tilerace_login_lockouts_total"), 1);
}

TEST(Accounts, AnOwnersKnownDeviceSignsInWhileUnknownDevicesAreLockedOut) {
  known_device_signs_in({});
}

TEST(Accounts, AnOwnersKnownDeviceSignsInWhileUnknownDevicesAreLockedOutOnPostgresql) {
  known_device_signs_in({"--database", tilerace::testing::PgCluster::shared().create_database()});
}

// Guest names come free (docs/operations.md, "Accounts and names"): name_taken says who may
// hold a name; with --guest-name-days 0 a guest's name goes to the next player who asks once
// it is unused, and the guest comes back under a generated name, told once.
TEST(Accounts, NameTakenSaysWhoMayHoldIt) {
  ServerProcess server;
  WsClient amy(server.port()), bea(server.port());
  registered(amy, "amy-g");
  bea.hello("bea-g");
  for (const char* name : {"amy-g", "bea-g"}) {
    WsClient other(server.port());
    const json refused = other.request({{"type", "hello"}, {"name", name}});
    EXPECT_EQ(refused["code"], "name_taken") << name;
    EXPECT_EQ(refused["message"],
              "this name is taken by an account, or by a guest who played in the last 30 days: "
              "pick another");
  }
}

TEST(Accounts, AnUnusedGuestNameGoesToWhoeverAsksAndTheGuestIsToldOnce) {
  ServerProcess server({"--guest-name-days", "0"});
  std::string token, id;
  {
    WsClient zoe(server.port());
    const json welcome = zoe.hello("zoe-g");
    token = welcome["token"];
    id = welcome["player"]["id"];
  }
  // Unused from the next millisecond on: the name comes free for the next who asks.
  json taken;
  EXPECT_TRUE(tilerace::testing::eventually(
      [&] {
        WsClient other(server.port());
        taken = other.request({{"type", "hello"}, {"name", "ZOE-G"}});
        return taken["type"] == "welcome";
      },
      5s))
      << taken.dump();
  WsClient back(server.port());
  const json welcome = back.request({{"type", "hello"}, {"token", token}});
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(welcome["player"]["id"], id) << "the same player, history and all";
  EXPECT_EQ(welcome["player"]["name"], std::string("guest-").append(id, 0, 8));
  EXPECT_EQ(welcome["name_released"], "zoe-g");
  WsClient again(server.port());
  EXPECT_FALSE(again.request({{"type", "hello"}, {"token", token}}).contains("name_released"))
      << "told once";
}

TEST(Accounts, ARegisteredPlayerMayRenameOnceAMonth) {
  ServerProcess server;
  WsClient guest(server.port());
  guest.hello("ivy-guest");
  EXPECT_EQ(guest.request({{"type", "rename"}, {"name", "ivy-new"}})["code"], "not_allowed");
  WsClient a(server.port());
  const json welcome = registered(a, "ivy");
  EXPECT_EQ(a.request({{"type", "rename"}, {"name", "IVY-GUEST"}})["code"], "name_taken");
  const json renamed = a.request({{"type", "rename"}, {"name", "Ivy Rose"}});
  ASSERT_EQ(renamed["type"], "renamed") << renamed.dump();
  EXPECT_EQ(renamed["player"]["name"], "Ivy Rose");
  const json again = a.request({{"type", "rename"}, {"name", "Ivy Again"}});
  EXPECT_EQ(again["code"], "not_allowed");
  EXPECT_NE(again["message"].get<std::string>().find("30 days"), std::string::npos);
  // The new name signs in; the old one is free for others.
  WsClient b(server.port());
  EXPECT_EQ(login(b, "ivy rose", kPassword)["player"]["name"], "Ivy Rose");
  WsClient c(server.port());
  EXPECT_EQ(c.hello("ivy")["type"], "welcome");
}

TEST(Accounts, WeakAndOversizedPasswordsAreRefused) {
  ServerProcess server;
  WsClient a(server.port());
  a.hello("greta");
  for (const std::string& password :
       {std::string("seven77"), std::string(129, 'p'), std::string("Password123")}) {
    const json reply = a.request({{"type", "register"}, {"password", password}});
    EXPECT_EQ(reply["code"], "bad_field") << password;
    EXPECT_EQ(reply["field"], "password");
  }
  // A megabyte is cut off at the message limit: the server closes the connection (1009) as
  // soon as the frame's header announces it. The client may not even see the close frame (the
  // reset that follows can drop it, or fail its write), so the server's word is the check.
  try {
    a.send({{"type", "register"}, {"password", std::string(1 << 20, 'p')}});
  } catch (const boost::system::system_error&) {
  }
  EXPECT_TRUE(server.wait_for_log("sent a message over the limit: closing (1009)"));
  a.wait_closed();
  EXPECT_TRUE(a.closed());
  WsClient b(server.port());
  EXPECT_EQ(b.hello("greta-2")["type"], "welcome");
}

TEST(Accounts, ASessionMadeOnOneNodeWorksOnAnother) {
  const std::string url = tilerace::testing::PgCluster::shared().create_database();
  tilerace::testing::RedisProcess redis;
  auto node = [&](const std::string& name) {
    return std::make_unique<ServerProcess>(
        std::vector<std::string>{"--database", url, "--node-name", name, "--redis",
                                 "redis://127.0.0.1:" + std::to_string(redis.port())});
  };
  const auto a = node("a");
  const auto b = node("b");
  WsClient on_a(a->port());
  const json welcome = registered(on_a, "hugo");
  WsClient on_b(b->port());
  const json resumed = on_b.request({{"type", "hello"}, {"token", welcome["token"]}});
  EXPECT_EQ(resumed["type"], "welcome") << resumed.dump();
  EXPECT_EQ(resumed["player"], welcome["player"]);
  EXPECT_EQ(resumed["registered"], true);
  WsClient again_on_b(b->port());
  const json signed_in = login(again_on_b, "hugo", kPassword);
  EXPECT_EQ(signed_in["player"], welcome["player"]);
  WsClient other(b->port());
  EXPECT_EQ(other.request({{"type", "hello"}, {"name", "HUGO"}})["code"], "name_taken");
}

}  // namespace
}  // namespace tilerace::e2e
