#include "server/game/store_journal.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/game/bot_racer.hpp"
#include "server/rules/daily.hpp"
#include "server/store/daily_store.hpp"

namespace tilerace::server {

boost::asio::awaitable<void> flush_journal(SoloGames& solo, const RoomRegistry& rooms,
                                           StoreWorker& store, Metrics& metrics) {
  std::vector<ActiveGameRecord> games;
  solo.for_each([&games](SoloSlot& slot) {
    std::lock_guard lock(slot.mutex);
    if (!slot.dirty) return;
    slot.dirty = false;
    if (!slot.game || slot.game->game.state() != engine::GameState::playing) return;
    SoloGame& s = *slot.game;
    const std::string& history = s.game.history();
    games.push_back({slot.player_id, s.id, s.game.config(), s.explicit_seed,
                     history.substr(s.journaled), s.started_at, s.journaled});
    ActiveGameRecord& a = games.back();
    if (s.times && s.times->size() == history.size()) {
      a.times.assign(s.times->begin() + static_cast<std::ptrdiff_t>(s.journaled), s.times->end());
    }
    a.epoch = s.epoch;
    a.daily = s.daily;     // kept for practice too: its replay stays unseen while its day runs
    if (s.daily_ranked) {  // where the attempt stands, for its board (abandoned: it counts so)
      a.daily_ranked = true;
      a.score = s.game.score();
      a.max_tile = s.game.max_tile();
      a.move_count = s.game.moves();
    }
    s.journaled = history.size();
  });
  const std::vector<ActiveRaceRecord> races = rooms.active_races();
  if (!games.empty() || !races.empty()) {
    try {
      std::vector<std::string> resumed_elsewhere;
      std::vector<LostRace> lost;
      const StoreWorker::JobOn<GameStore> save = [&](GameStore& s) {
        resumed_elsewhere = s.journal(games);
        lost = s.journal_races(races);
      };
      co_await store.run(save);
      // A shared store: games another node resumed are that node's; the copies here go.
      for (const std::string& id : resumed_elsewhere) {
        const auto g = std::find_if(games.begin(), games.end(),
                                    [&id](const ActiveGameRecord& a) { return a.game_id == id; });
        const auto slot = solo.find(g->player_id);
        if (!slot) continue;
        std::lock_guard lock(slot->mutex);
        if (!slot->game || slot->game->id != id) continue;
        spdlog::info("solo game {} of {} goes on on another node: dropped here", id, g->player_id);
        if (slot->game->game.state() == engine::GameState::playing) {
          metrics.games_active.fetch_sub(1, std::memory_order_relaxed);
        }
        slot->game.reset();
      }
      // Cluster mode: races another node owns now are handed over; the others are in the
      // store's journal.
      for (const ActiveRaceRecord& race : races) {
        const auto room = rooms.find(race.room);
        if (!room) continue;
        const auto l = std::find_if(lost.begin(), lost.end(),
                                    [&race](const LostRace& l) { return l.race_id == race.id; });
        if (l != lost.end()) {
          room->lose(l->race_id, l->owner);
        } else {
          room->stored(race.id);
        }
      }
    } catch (const std::exception& e) {
      spdlog::error("journaling {} games and {} races failed: {}", games.size(), races.size(),
                    e.what());
      // Solo games are written again, whole, on the next pass.
      for (const auto& g : games) {
        if (const auto slot = solo.find(g.player_id)) {
          std::lock_guard lock(slot->mutex);
          slot->dirty = true;
          if (slot->game && slot->game->id == g.game_id) slot->game->journaled = 0;
        }
      }
    }
  }
  metrics.journal_flushes_total.fetch_add(1, std::memory_order_relaxed);
}

boost::asio::awaitable<bool> close_dailies(StoreWorker& store, std::string today) {
  std::size_t closed = 0;
  const StoreWorker::JobOn<GameStore, DailyStore> close = [&](GameStore& games, DailyStore& daily) {
    Abandoned abandoned = abandoned_dailies(daily.open_dailies(today));
    for (const GameRecord& g : abandoned.games) games.record_game(g);
    for (const std::string& id : abandoned.empty) daily.finish_daily(id);
    closed = abandoned.games.size() + abandoned.empty.size();
  };
  try {
    co_await store.run(close);
  } catch (const std::exception& e) {
    spdlog::warn("closing the abandoned daily attempts before {} failed: {}", today, e.what());
    co_return false;
  }
  if (closed > 0) spdlog::info("{} abandoned daily attempts closed", closed);
  co_return true;
}

void restore_solo(SoloGames& solo, const ActiveGameRecord& active, Metrics& metrics, bool replace) {
  std::optional<engine::Game> game = engine::replay(active.config, active.moves);
  if (!game) return;
  const std::shared_ptr<SoloSlot> slot = solo.slot(active.player_id);
  std::lock_guard lock(slot->mutex);
  std::optional<SoloGame>& current = slot->game;
  if (current) {
    if (!replace) return;
    if (current->game.state() == engine::GameState::playing) {
      metrics.games_active.fetch_sub(1, std::memory_order_relaxed);
    }
    current.reset();
  }
  current.emplace(
      SoloGame{active.game_id, std::move(*game), active.explicit_seed, active.started_at});
  if (active.times.size() == active.moves.size()) {
    current->times = active.times;
  } else {
    current->times.reset();  // not known: the record will have none
  }
  current->daily = active.daily;
  current->daily_ranked = active.daily_ranked;
  current->epoch = active.epoch;
  if (current->game.state() == engine::GameState::playing) {
    metrics.games_active.fetch_add(1, std::memory_order_relaxed);
  }
}

std::vector<LoadedRace> load_races(const std::vector<ActiveRaceRecord>& races,
                                   AccountStore& accounts, GameStore& games,
                                   PlayerRegistry& players, SoloGames& solo, Metrics& metrics) {
  std::vector<LoadedRace> loaded;
  for (const ActiveRaceRecord& race : races) {
    LoadedRace entry{race, {}, nullptr};
    for (const ActiveRacerRecord& r : race.racers) {
      if (bot_of_player_id(r.player_id)) {
        entry.racers.push_back(nullptr);  // the computer: RoomRegistry::restore seats a new one
        continue;
      }
      if (const auto run = ghost_of_player_id(r.player_id)) {
        const std::optional<GameRecord> game = games.find_game(*run);
        const std::optional<PlayerRecord> owner =
            game ? accounts.find_player(game->player_id) : std::nullopt;
        if (!owner) break;
        entry.ghost =
            std::make_shared<const GhostRun>(ghost_run_of(*game, owner->name, owner->ratings));
        entry.racers.push_back(nullptr);  // the ghost: the restored room seats its own
        continue;
      }
      std::shared_ptr<Player> player = players.find(r.player_id);
      if (!player) {
        const std::optional<PlayerRecord> record = accounts.find_player(r.player_id);
        if (!record) break;
        player = players.adopt(*record);
        if (const auto active = games.find_active(r.player_id)) {
          restore_solo(solo, *active, metrics);
        }
      }
      entry.racers.push_back(std::move(player));
    }
    if (entry.racers.size() == race.racers.size()) {
      loaded.push_back(std::move(entry));
    } else {
      spdlog::error("race {} in room {}: a racer is unknown to the store", race.id, race.room);
    }
  }
  return loaded;
}

std::vector<std::string> restore_races(const std::vector<LoadedRace>& races, RoomRegistry& rooms) {
  std::vector<std::string> restored;
  for (const auto& [race, racers, ghost] : races) {
    if (rooms.find(race.room)) continue;  // running here already
    if (!rooms.restore(race, racers, ghost)) {
      spdlog::error("race {} in room {} could not be restored", race.id, race.room);
      continue;
    }
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
  }
  return restored;
}

}  // namespace tilerace::server
