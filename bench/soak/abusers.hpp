#pragma once
// The abusive clients of the soak (make soak), each as a coroutine on the soak's single
// io_context thread, and what became of them.
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tilerace::soak {

using Clock = std::chrono::steady_clock;

struct Target {
  std::string host = "127.0.0.1";
  std::string port;
};

struct AbuseReport {
  std::size_t slowloris = 0, slowloris_cut = 0;  // cut: the server closed it
  double slowloris_longest_s = 0;                // the longest one survived
  std::size_t garbage_tcp = 0, garbage_tcp_cut = 0;
  std::size_t garbage_ws = 0, garbage_ws_open = 0;  // open: still connected at the wave's end
  std::uint64_t garbage_ws_errors = 0;              // error replies they received
  std::optional<int> spectator_close, flood_close, binary_close, utf8_close;
  std::uint64_t flood_rate_limited = 0;
};

// Opens an HTTP request and trickles one header byte a second until `until` or the server
// closes the socket.
boost::asio::awaitable<void> slowloris(Target target, Clock::time_point until, AbuseReport& r);
// Writes random bytes (not HTTP) until the server closes the socket or `until`.
boost::asio::awaitable<void> garbage_tcp(Target target, unsigned seed, Clock::time_point until,
                                         AbuseReport& r);
// A player sending random not-quite-JSON text within the rate limit: each gets an error
// reply, and the connection must stay open.
boost::asio::awaitable<void> garbage_ws(Target target, unsigned seed, Clock::time_point until,
                                        AbuseReport& r);
// Spectates the busy race (the public 5×5 room) and then never reads; at `until` reads
// again to learn how the server closed it.
boost::asio::awaitable<void> silent_spectator(Target target, Clock::time_point until,
                                              AbuseReport& r);
// Sends pings as fast as the socket takes them (reading the replies) until closed.
boost::asio::awaitable<void> flood(Target target, Clock::time_point until, AbuseReport& r);
// One binary frame (expects 1003), or one text frame of invalid UTF-8 (expects 1007).
boost::asio::awaitable<void> bad_frame(Target target, bool binary, AbuseReport& r);

}  // namespace tilerace::soak
