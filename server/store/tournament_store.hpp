#pragma once
// The store's tournaments, journaled while open (server/rules/tournament_record.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/rules/tournament_record.hpp"

namespace tilerace::server {

class TournamentStore {
 public:
  // Tournaments (server/rules/tournament_record.hpp). Saves each, replacing its older entry.
  // A shared store writes one only while this node holds it under its epoch (as a race): the
  // codes of the others (another node adopted them) are returned, unwritten.
  virtual std::vector<std::string> journal_tournaments(
      const std::vector<TournamentRecord>& tournaments) = 0;
  // This node's journaled tournaments that are still open (waiting or running), oldest first.
  virtual std::vector<TournamentRecord> open_tournaments() = 0;
  // Cluster mode: node's open tournaments become this node's (reached at url), each under its
  // next epoch (its own keep theirs), in one statement, as adopt_races does for races.
  virtual std::vector<TournamentRecord> adopt_tournaments([[maybe_unused]] std::string_view node,
                                                          [[maybe_unused]] std::string_view url) {
    return {};
  }
  // Cluster mode: the code of the open tournament player_id is in (not left), on whichever
  // node; nullopt if none.
  virtual std::optional<std::string> tournament_of([[maybe_unused]] std::string_view player_id) {
    return std::nullopt;
  }

  // The per-player creation limit (docs/protocol.md, "Tournaments"): true, and the creation
  // noted at now (Unix ms), when player_id created fewer than `most` in the window before now;
  // false otherwise. One at a time per player, across every node sharing the store.
  virtual bool note_tournament_creation(std::string_view player_id, std::int64_t now, int most,
                                        std::int64_t window_ms) = 0;

 protected:
  ~TournamentStore() = default;
};

}  // namespace tilerace::server
