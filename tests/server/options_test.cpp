#include "server/options.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

namespace tilerace::server {
namespace {

// parse_options on `tilerace args...`: the options, or nullopt with the exit code.
struct Parsed {
  std::optional<Options> options;
  int exit_code = -1;
};
Parsed parse(const std::vector<const char*>& args) {
  std::vector<std::string> words{"tilerace"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  Parsed p;
  p.options = parse_options(static_cast<int>(argv.size()), argv.data(), p.exit_code);
  return p;
}

TEST(Options, DefaultsFlagsAndListsAreRead) {
  const Parsed p = parse({"--port", "0", "--trusted-proxy", "10.0.0.0/8,127.0.0.1",
                          "--allowed-origin", "https://play.example.com", "--threads", "3"});
  ASSERT_TRUE(p.options);
  EXPECT_EQ(p.options->port, 0);
  EXPECT_EQ(p.options->threads, 3);
  EXPECT_EQ(p.options->host, "0.0.0.0");
  EXPECT_EQ(p.options->trusted_proxies, (std::vector<std::string>{"10.0.0.0/8", "127.0.0.1"}));
  EXPECT_EQ(p.options->allowed_origins, std::vector<std::string>{"https://play.example.com"});
  EXPECT_FALSE(p.options->node_name.empty()) << "hostname:port when not given";
}

TEST(Options, AnEnvironmentVariableSetsAnOptionAndTheCommandLineWins) {
  ::setenv("TILERACE_GRACE", "7", 1);
  ::setenv("TILERACE_COUNTDOWN", "2", 1);
  const Parsed p = parse({"--countdown", "5"});
  ::unsetenv("TILERACE_GRACE");
  ::unsetenv("TILERACE_COUNTDOWN");
  ASSERT_TRUE(p.options);
  EXPECT_EQ(p.options->grace, 7);
  EXPECT_EQ(p.options->countdown, 5);
}

TEST(Options, RedisNamesItsHostAndPortAndNeedsADatabase) {
  const Parsed p = parse({"--redis", "redis://cache:6380/", "--database", "postgresql://db/x"});
  ASSERT_TRUE(p.options);
  EXPECT_EQ(p.options->redis_host, "cache");
  EXPECT_EQ(p.options->redis_port, 6380);
  EXPECT_EQ(parse({"--redis", "redis://cache:6380"}).exit_code, 2) << "no --database";
  EXPECT_EQ(parse({"--redis", "redis://cache:99999", "--database", "postgresql://db/x"}).exit_code,
            2);
}

TEST(Options, HelpExitsCleanlyAndEveryBadValueExitsWithTwo) {
  const Parsed help = parse({"--help"});
  EXPECT_FALSE(help.options);
  EXPECT_EQ(help.exit_code, 0);
  for (const std::vector<const char*>& args :
       std::vector<std::vector<const char*>>{{"--rate", "0"},
                                             {"--max-message", "10"},
                                             {"--guest-name-days", "40000"},
                                             {"--bot-moves-per-second", "0"},
                                             {"--database", "mysql://db"},
                                             {"--allowed-origin", "not an origin"},
                                             {"--trusted-proxy", "10.0.0.0/99"},
                                             {"--redirect-http-port", "8081"},
                                             {"--tls-cert", "cert.pem"},
                                             {"--no-such-option"},
                                             {"--port", "many"}}) {
    const Parsed p = parse(args);
    EXPECT_FALSE(p.options) << args.front();
    EXPECT_EQ(p.exit_code, 2) << args.front();
  }
}

}  // namespace
}  // namespace tilerace::server
