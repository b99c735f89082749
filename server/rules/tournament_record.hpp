#pragma once
// A tournament as journaled (TournamentState::record): enough to rebuild it after a restart or
// on the node that adopts it — its options, members and every match paired so far with how it
// stands. The store keeps it as one document (encode_tournament / decode_tournament); the
// matches' races are journaled and recorded as every race is, and a rebuilt tournament reads
// a match it saw racing from them.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/messages.hpp"

namespace tilerace::server {

struct TournamentMemberRecord {
  std::string id;
  std::string name;
  int rating = 0;
  bool left = false;
  bool bot = false;  // a bot account
};

// One match, its players by their place in members (two, or up to four all against all);
// state: pending (to open), racing (in room since opened_at, Unix ms) or done: winner (a
// member: who went on in an elimination, else who alone came first; -1 for nobody), draw
// (1-on-1: neither won) and results (how each of players came out of it: win, draw or loss).
struct TournamentMatchRecord {
  int round = 0;  // 0-based
  int index = 0;
  std::vector<int> players;
  std::string state = "pending";
  std::string room;
  std::int64_t opened_at = 0;
  int winner = -1;
  bool draw = false;
  std::vector<std::string> results;
};

struct TournamentRecord {
  std::string code;
  protocol::TournamentOptions options;
  std::string host;
  std::string state = "waiting";                // waiting, running, finished, cancelled
  std::int64_t started_at = 0;                  // Unix ms; 0 before the start
  std::vector<TournamentMemberRecord> members;  // joining order
  std::vector<TournamentMatchRecord> matches;   // in the order they were paired
  std::vector<std::pair<int, int>> byes;        // Swiss: (round, member)
  std::int64_t updated_at = 0;                  // Unix ms it was journaled
  // Cluster mode: the owner's fencing token (as a race's: one more at each adoption) and
  // where it is reached; 0 on a single node.
  std::int64_t epoch = 0;
  std::string url;
};

// Whether a tournament in this state may still change (journaled ones are rebuilt at start).
inline bool tournament_open(std::string_view state) {
  return state == "waiting" || state == "running";
}

// The document the store keeps (everything but code, state, updated_at, epoch and url, which
// have columns of their own).
std::string encode_tournament(const TournamentRecord& record);
// Fills record (its code and state already set) from a document encode_tournament wrote;
// throws std::exception on anything else.
void decode_tournament(std::string_view document, TournamentRecord& record);

}  // namespace tilerace::server
