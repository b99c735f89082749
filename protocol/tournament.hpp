#pragma once
// The tournament snapshot (our addition; docs/protocol.md, "Tournaments"), pushed to every
// player and spectator of a tournament on each change.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"

namespace tilerace::protocol {

struct TournamentPlayerView {
  std::string id;
  std::string name;
  int rating = 0;
  int points = 0;    // Swiss and arena: a win 2, a draw 1 (arena: doubled on a streak)
  int buchholz = 0;  // Swiss
  int wins = 0;
  int played = 0;
  bool streak = false;  // arena: the next result counts double
  bool bot = false;     // a bot account
  bool out = false;     // single elimination: knocked out
  bool left = false;
  bool connected = false;
};

struct TournamentMatchView {
  int round = 0;  // 1-based
  int index = 0;  // from the top of the bracket (elimination), or in pairing order
  std::string a;  // player ids; empty while not known (elimination) or for a bye's other side
  std::string b;
  std::vector<std::string> players;  // everyone in it (a and b are the first two)
  std::vector<std::string> results;  // once done: win, draw or loss, per player
  std::string room;                  // the match's room while it is played
  std::string state;                 // pending, racing, done, bye
  std::string winner;
  bool draw = false;
  bool third_place = false;
};

struct TournamentView {
  std::string code;
  TournamentOptions options;
  std::string host;
  std::string state;  // waiting, running, finished
  int round = 0;      // the current round, 1-based (0 before the start; arena: none)
  int rounds = 0;     // elimination: the bracket's; Swiss: the options'; arena: 0
  std::optional<std::int64_t> ends_at;        // arena: Unix ms its time is up, once started
  std::vector<TournamentPlayerView> players;  // standings order (joining order before the start)
  std::vector<TournamentMatchView> matches;
  std::vector<std::string> podium;  // once finished: first, second, third (elimination: maybe two)
  int spectators = 0;
};

// {"type":"tournament","tournament":{…}} with rid when it answers a request.
std::string encode_tournament(const TournamentView& tournament, const Rid& rid);

}  // namespace tilerace::protocol
