#include "server/play/solo_play.hpp"

#include <spdlog/spdlog.h>

#include "protocol/encode.hpp"
#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/game/daily_seed.hpp"
#include "server/game/record_views.hpp"
#include "server/rules/daily.hpp"
#include "server/store/daily_store.hpp"

namespace tilerace::server {

namespace asio = boost::asio;
using protocol::ErrorCode;

std::string SoloPlay::snapshot(std::string_view player_id) const {
  const std::shared_ptr<SoloSlot> slot = games_.find(player_id);
  if (!slot) return {};
  std::lock_guard lock(slot->mutex);
  return slot->game ? solo_snapshot(*slot->game, {}) : std::string();
}

asio::awaitable<void> SoloPlay::end_past_daily(std::string player_id) {
  const std::shared_ptr<SoloSlot> slot = games_.find(player_id);
  if (!slot) co_return;
  std::optional<GameRecord> ended;
  std::size_t before = 0;
  {
    std::lock_guard lock(slot->mutex);
    if (!slot->game) co_return;
    before = slot->game->game.history().size();
    ended = solo_day_over(*slot->game, player_id, unix_ms());
  }
  if (!ended) co_return;
  metrics_.games_active.fetch_sub(1, std::memory_order_relaxed);
  if (!co_await commit(*ended)) take_back_unrecorded(*slot, ended->id, before);
}

asio::awaitable<std::optional<std::vector<Grant>>> SoloPlay::commit(const GameRecord& game) {
  try {
    std::vector<Grant> granted = co_await store_.record_game(game);
    metrics_.games_finished_total.fetch_add(1, std::memory_order_relaxed);
    co_return granted;
  } catch (const std::exception& e) {
    spdlog::error("recording game {} failed: {}", game.id, e.what());
  }
  co_return std::nullopt;
}

void SoloPlay::take_back_unrecorded(SoloSlot& slot, const std::string& id, std::size_t before) {
  std::lock_guard lock(slot.mutex);
  if (slot.game && slot.game->id == id && take_back(*slot.game, before)) {
    slot.dirty = true;
    metrics_.games_active.fetch_add(1, std::memory_order_relaxed);
  }
}

SoloSlot& SoloPlay::slot_of(Connection& c) {
  if (!c.solo || c.solo->player_id != c.player->id) c.solo = games_.slot(c.player->id);
  return *c.solo;
}

void SoloPlay::send_error(Connection& c, ErrorCode code, std::string_view text,
                          const protocol::Rid& rid) {
  metrics_.count_error(code);
  c.send(protocol::encode_error(code, text, rid));
}

asio::awaitable<bool> SoloPlay::record(Connection& c, const GameRecord& game,
                                       const protocol::Rid& rid, std::vector<std::string>& earned) {
  const std::optional<std::vector<Grant>> granted = co_await commit(game);
  if (!granted) {
    send_error(c, ErrorCode::internal, "the game could not be recorded: try again", rid);
    co_return false;
  }
  for (auto& message : announcements_of(*granted)) earned.push_back(std::move(message));
  co_return true;
}

asio::awaitable<void> SoloPlay::new_game(Connection& c, const protocol::NewGame& m,
                                         protocol::Rid rid) {
  SoloSlot& slot = slot_of(c);
  // The game being replaced ends as resigned: recorded first, or it stays as it is.
  std::optional<GameRecord> ended;
  {
    std::lock_guard lock(slot.mutex);
    if (slot.game) ended = solo_replaced(*slot.game, slot.player_id, unix_ms());
  }
  std::vector<std::string> earned;
  if (ended && !co_await record(c, *ended, rid, earned)) co_return;
  const std::int64_t now = unix_ms();
  std::string id = random_hex(8);
  std::uint64_t seed = random_u64();
  std::string day;  // a daily game's
  bool ranked_daily = false;
  if (m.daily) {
    day = day_of(now);
    const protocol::DailyMode& mode = *protocol::daily_mode(m.config.mode, m.config.size);
    seed = daily_seed(daily_secret_, day, mode);
    const DailyAttempt attempt{.day = day,
                               .mode = std::string(mode.key),
                               .player_id = slot.player_id,
                               .game_id = id,
                               .at = now};
    const StoreWorker::JobOn<DailyStore> claim = [&](DailyStore& s) {
      ranked_daily = s.claim_daily(attempt);
    };
    co_await store_.run(claim);
  }
  std::string reply;
  {
    std::lock_guard lock(slot.mutex);
    std::optional<SoloGame>& game = slot.game;
    if (ended && game && game->id == ended->id &&
        game->game.state() == engine::GameState::playing) {
      metrics_.games_active.fetch_sub(1, std::memory_order_relaxed);
    }
    game = solo_start(m, std::move(id), seed, now);
    if (m.daily) {
      game->daily = day;
      game->daily_ranked = ranked_daily;
      game->explicit_seed = !ranked_daily;  // practice: restored from the journal unranked
    }
    slot.dirty = true;
    metrics_.games_active.fetch_add(1, std::memory_order_relaxed);
    reply = solo_snapshot(*game, rid);
  }
  c.send(std::move(reply));
  for (auto& message : earned) c.send(std::move(message));
}

std::optional<asio::awaitable<void>> SoloPlay::play(Connection& c,
                                                    const protocol::ClientMessage& message,
                                                    const protocol::Rid& rid) {
  SoloSlot& slot = slot_of(c);
  SoloEffects fx;
  {
    std::lock_guard lock(slot.mutex);
    fx = solo_turn(slot.game ? &*slot.game : nullptr, slot.player_id, message, rid, unix_ms());
    if (fx.changed) slot.dirty = true;
  }
  if (fx.error) metrics_.count_error(*fx.error);
  if (fx.moved) metrics_.moves_total.fetch_add(1, std::memory_order_relaxed);
  if (fx.finished) {
    metrics_.games_active.fetch_sub(1, std::memory_order_relaxed);
    // Durability: a finished game is committed before the message announcing it is sent.
    return finish(c, std::move(fx), rid);
  }
  for (auto& reply : fx.replies) c.send(std::move(reply));
  return std::nullopt;
}

asio::awaitable<void> SoloPlay::finish(Connection& c, SoloEffects fx, protocol::Rid rid) {
  // If the store fails, the message that ended the game is taken back: the game is as last
  // recorded.
  std::vector<std::string> earned;
  if (!co_await record(c, *fx.finished, rid, earned)) {
    take_back_unrecorded(slot_of(c), fx.finished->id, fx.before);
    co_return;
  }
  for (auto& reply : fx.replies) c.send(std::move(reply));
  for (auto& message : earned) c.send(std::move(message));
}

}  // namespace tilerace::server
