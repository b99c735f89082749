#include "server/game/journal.hpp"

#include <spdlog/spdlog.h>

#include "server/game/bot_racer.hpp"
#include "server/game/game_check.hpp"

namespace tilerace::server {

boost::asio::awaitable<void> flush_journal(PlayerRegistry& players, const RoomRegistry& rooms,
                                           StoreWorker& store, Metrics& metrics) {
  std::vector<ActiveGameRecord> games;
  players.for_each([&games](Player& p) {
    std::lock_guard lock(p.mutex);
    if (!p.journal_dirty) return;
    p.journal_dirty = false;
    if (!p.solo || p.solo->game.state() != engine::GameState::playing) return;
    SoloGame& s = *p.solo;
    const std::string& history = s.game.history();
    games.push_back({p.id, s.id, s.game.config(), s.explicit_seed, history.substr(s.journaled),
                     s.started_at, s.journaled});
    s.journaled = history.size();
  });
  const std::vector<ActiveRaceRecord> races = rooms.journal();
  if (!games.empty() || !races.empty()) {
    try {
      const StoreWorker::Job save = [&games, &races](Store& s) {
        s.journal(games);
        s.journal_races(races);
      };
      co_await store.run(save);
    } catch (const std::exception& e) {
      spdlog::error("journaling {} games and {} races failed: {}", games.size(), races.size(),
                    e.what());
      // Solo games are written again, whole, on the next pass.
      for (const auto& g : games) {
        if (const auto p = players.find(g.player_id)) {
          std::lock_guard lock(p->mutex);
          p->journal_dirty = true;
          if (p->solo && p->solo->id == g.game_id) p->solo->journaled = 0;
        }
      }
    }
  }
  metrics.journal_flushes_total.fetch_add(1, std::memory_order_relaxed);
}

void restore_solo(Player& player, const ActiveGameRecord& active, Metrics& metrics) {
  std::optional<engine::Game> game = engine::replay(active.config, active.moves);
  if (!game) return;
  std::lock_guard lock(player.mutex);
  if (player.solo) return;
  player.solo.emplace(
      SoloGame{active.game_id, std::move(*game), active.explicit_seed, active.started_at});
  if (player.solo->game.state() == engine::GameState::playing) {
    metrics.games_active.fetch_add(1, std::memory_order_relaxed);
  }
}

void merge_moves(ActiveRaceRecord& race, const std::vector<std::optional<std::string>>& journaled) {
  for (std::size_t i = 0; i < race.racers.size() && i < journaled.size(); ++i) {
    if (!journaled[i]) continue;
    std::string_view moves = *journaled[i];
    const bool resigned = moves.ends_with('!');
    if (resigned) moves.remove_suffix(1);
    ActiveRacerRecord& racer = race.racers[i];
    if (moves.size() < racer.moves.size() || !moves.starts_with(racer.moves)) continue;
    racer.moves = std::string(moves);
    if (resigned) racer.state = engine::GameState::resigned;
  }
}

std::size_t contradicted(const ActiveRaceRecord& race,
                         const std::vector<std::optional<std::string>>& checks) {
  std::size_t wrong = 0;
  const engine::GameConfig config{race.options.mode, race.options.size, race.options.target,
                                  race.seed};
  for (std::size_t i = 0; i < race.racers.size() && i < checks.size(); ++i) {
    if (!checks[i]) continue;
    const std::string& moves = race.racers[i].moves;
    if (!checks[i]->starts_with(std::to_string(moves.size()) + ":")) continue;
    const std::optional<engine::Game> game = engine::replay(config, moves, nullptr, false);
    if (!game || game_check(*game) != *checks[i]) ++wrong;
  }
  return wrong;
}

std::vector<std::string> restore_races(const std::vector<ActiveRaceRecord>& races, Store& store,
                                       PlayerRegistry& players, RoomRegistry& rooms,
                                       Metrics& metrics) {
  std::vector<std::string> restored;
  for (const ActiveRaceRecord& race : races) {
    if (rooms.find(race.room)) continue;  // running here already
    std::vector<std::shared_ptr<Player>> racers;
    for (const ActiveRacerRecord& r : race.racers) {
      if (bot_of_player_id(r.player_id)) {
        racers.push_back(nullptr);  // the computer: Room::restore seats a new one
        continue;
      }
      std::shared_ptr<Player> player = players.find(r.player_id);
      if (!player) {
        const std::optional<PlayerRecord> record = store.find_player(r.player_id);
        if (!record) break;
        player = players.adopt(*record);
        if (const auto active = store.find_active(r.player_id)) {
          restore_solo(*player, *active, metrics);
        }
      }
      racers.push_back(std::move(player));
    }
    if (racers.size() == race.racers.size() && rooms.restore(race, racers)) {
      restored.push_back(race.room);
      // A racer already connected here (back before the race was): told now.
      const auto room = rooms.find(race.room);
      for (const auto& player : racers) {
        if (!player || !room) continue;
        std::shared_ptr<Participant> connection;
        {
          std::lock_guard lock(player->mutex);
          connection = player->connection.lock();
        }
        if (connection) room->reconnected(*player, connection);
      }
    } else {
      spdlog::error("race {} in room {} could not be restored", race.id, race.room);
    }
  }
  return restored;
}

}  // namespace tilerace::server
