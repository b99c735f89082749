#pragma once
// The rules of one tournament (docs/protocol.md, "Tournaments"): who joined and who hosts, the
// start (by the host, or by the clock at `starts`), the format's pairing (EliminationBracket,
// SwissPairing or ArenaPairing), its matches and how each ended, the standings and the podium.
// A core: every call takes the time it needs and returns the matches to open and whether the
// snapshot changed, and performs nothing. The shell (Tournament) opens each match's room,
// reports the room's code (opened) and how the match ended (match_ended), keeps a timer at
// next_deadline() and calls tick(). The store keeps it as its record(); restore() rebuilds it
// from that, and the shell settles each match the record saw racing (racing(): resumed in
// its restored room, ended as its recorded race did, or reopened).
//
// Not thread-safe: the shell's mutex guards every call.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/messages.hpp"
#include "protocol/tournament.hpp"
#include "server/rules/arena_pairing.hpp"
#include "server/rules/elimination_bracket.hpp"
#include "server/rules/match_end.hpp"
#include "server/rules/swiss_pairing.hpp"
#include "server/rules/tournament_record.hpp"

namespace tilerace::server {

class TournamentState {
 public:
  using Clock = std::chrono::steady_clock;
  using Time = Clock::time_point;
  // Whether a player can be paired now (connected, and in no room). Only the arena asks: an
  // elimination or Swiss match is opened for whoever it pairs, and its room decides a match
  // with an absent racer (the grace).
  using Available = std::function<bool(const std::string& player_id)>;

  struct Member {
    std::string id;
    std::string name;
    int rating = 0;
    bool left = false;  // left after the start: their matches from then on are walkovers
    bool bot = false;   // a bot account: joins only a tournament whose options allow bots
  };
  // A match for the shell to open: match's room for players (ids; the match's players who
  // have not left, two at least).
  struct Opening {
    std::size_t match = 0;
    std::vector<std::string> players;
  };
  struct Effects {
    std::vector<Opening> open;
    bool changed = false;                          // the snapshot changed: everyone gets it
    bool finished = false;                         // it just finished (or was called off)
    std::optional<protocol::ProtocolError> error;  // for the asker; nothing else happened

    // Adds what more does (openings, changes, the finish) to these.
    void merge(Effects more) {
      for (auto& o : more.open) open.push_back(std::move(o));
      changed = changed || more.changed;
      finished = finished || more.finished;
    }
  };

  // host joins as its first player. starts_at: when the clock starts it (options.starts, on
  // the steady clock); wall_clock: Unix ms, for ends_at.
  TournamentState(std::string code, protocol::TournamentOptions options, Member host,
                  std::optional<Time> starts_at, std::int64_t (*wall_clock)());

  const protocol::TournamentOptions& options() const noexcept { return options_; }
  const std::vector<Member>& members() const noexcept { return members_; }

  Effects join(Member member);
  // Before the start the player goes; after it they stay in the standings, and their
  // matches from then on are lost unplayed (arena: they are not paired again).
  Effects leave(const std::string& player_id, Time now, const Available& available);
  // The host starts it (the clock does through tick): two players at least.
  Effects start(const std::string& by, Time now, const Available& available);
  // The shell opened match's room.
  Effects opened(std::size_t match, std::string room);
  // How match ended (its players' places: see MatchEnd). In a room of more than two, first
  // alone is a win, last a loss and any place between a draw (results_of); a player missing
  // from it lost.
  Effects match_ended(std::size_t match, const MatchEnd& end, Time now, const Available& available);
  // The clock's work: the scheduled start, the arena's pairing of players who came back and
  // its end (after which only its last races' ends remain to wait for).
  Effects tick(Time now, const Available& available);
  std::optional<Time> next_deadline(Time now) const;

  // The snapshot; each player's `connected` is the shell's to fill.
  protocol::TournamentView view() const;

  // The tournament as the store keeps it.
  TournamentRecord record() const;
  // The tournament record held, as it goes on at now: every match it paired, done ones with
  // their results, racing ones racing still (the shell settles those: racing()). Throws
  // std::exception for a record that does not fit together.
  static TournamentState restore(const TournamentRecord& record, Time now,
                                 std::int64_t (*wall_clock)());
  // After restore, once the shell has settled every racing match (their effects in fx): adds
  // to fx what is left to open, pairs what can be paired, and finishes it if it is over.
  void resume(Time now, const Available& available, Effects& fx);
  // A match in a room, as restore found it.
  struct Racing {
    std::size_t match = 0;
    std::string room;
    std::int64_t opened_at = 0;  // Unix ms
  };
  std::vector<Racing> racing() const;
  // The rooms of the racing matches a spectator follows (docs/protocol.md, "Tournament TV"):
  // all of them up to `most`; beyond that, those of `followed` (the rooms followed so far)
  // still racing stay, and each free place goes to the racing match with the highest-rated
  // racer (then the highest sum of ratings, then the earlier match).
  std::vector<std::string> featured(std::size_t most,
                                    const std::vector<std::string>& followed) const;
  // A racing match whose room came to nothing (its race was never journaled): to open again.
  Effects reopen(std::size_t match);

 private:
  enum class State { waiting, running, finished, cancelled };
  enum class MatchState { pending, racing, done };
  struct Match {
    int round = 0;  // 0-based
    int index = 0;
    Group players;  // members
    std::string room;
    MatchState state = MatchState::pending;
    // elimination: who went on (the better seed on a tie); else who alone came first
    std::optional<std::size_t> winner;
    std::optional<EliminationBracket::Ref> ref;
    std::int64_t opened_at = 0;   // Unix ms its room opened
    std::vector<Result> results;  // once done: per player

    // Done, and everyone drew.
    bool drawn() const {
      return !results.empty() && std::all_of(results.begin(), results.end(),
                                             [](Result r) { return r == Result::draw; });
    }
  };

  std::optional<std::size_t> member_of(const std::string& id) const;
  // Opens what the format can pair now; a match with fewer than two players who have not left
  // is decided at once (the one left wins it).
  void pair_more(Time now, const Available& available, Effects& fx);
  // Opens match for those of its players who have not left, or decides it when fewer than two
  // have not.
  bool open_or_decide(std::size_t match, Effects& fx);
  // The match ended as end says: its results (results_of), reported to the format.
  void decide(std::size_t match, const MatchEnd& end);
  void check_finished(Time now, Effects& fx);
  void begin(Time now, const Available& available, Effects& fx);
  std::vector<std::size_t> podium() const;
  void player_views(protocol::TournamentView& view) const;
  void match_views(protocol::TournamentView& view) const;

  std::string code_;
  protocol::TournamentOptions options_;
  std::string host_;
  std::optional<Time> starts_at_;
  std::int64_t (*wall_clock_)();
  State state_ = State::waiting;
  std::vector<Member> members_;  // joining order
  std::variant<std::monostate, EliminationBracket, SwissPairing, ArenaPairing> format_;
  std::vector<std::size_t> seed_member_;  // elimination: each seed's member
  std::vector<Match> matches_;
  std::vector<std::pair<int, std::size_t>> byes_;  // Swiss: (round, member)
  std::int64_t started_at_ms_ = 0;                 // Unix ms
  std::optional<std::int64_t> ends_at_ms_;         // arena
};

}  // namespace tilerace::server
