#include "server/store/recorder.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <string>
#include <variant>

#include "protocol/daily.hpp"
#include "protocol/names.hpp"
#include "server/base/secrets.hpp"
#include "server/base/unix_time.hpp"
#include "server/store/achievements.hpp"
#include "server/store/record_rows.hpp"

namespace tilerace::server {

namespace {

// name with "-n" after it, shortened first so that the whole stays a name's length.
std::string with_suffix(const std::string& name, int n) {
  const std::string suffix = std::string("-").append(std::to_string(n));
  const auto room = static_cast<int>(protocol::kMaxNameChars - suffix.size());
  std::size_t end = 0;
  for (int chars = 0; end < name.size(); ++end) {
    const bool starts = (static_cast<unsigned char>(name[end]) & 0xC0) != 0x80;
    if (starts && ++chars > room) break;
  }
  return name.substr(0, end).append(suffix);
}

// A game's move times as stored: comma-separated, '' for none.
std::string times_text(const std::vector<std::int32_t>& times) {
  std::string out;
  for (const std::int32_t t : times)
    (out.empty() ? out : out.append(",")).append(std::to_string(t));
  return out;
}

// Whether game is recorded now (false: it was already).
bool insert_game(SqlSession& sql, const GameRecord& g) {
  const engine::GameConfig& c = g.config;
  return sql(Sql::insert_game, g.id, g.player_id, engine::to_string(c.mode), c.size, c.target,
             std::to_string(c.seed), g.moves, g.score, g.max_tile, g.move_count,
             engine::to_string(g.state), g.ranked, g.started_at, g.ended_at, g.room, g.daily,
             times_text(g.times))
             .changed() == 1;
}

// Grants achievement for game unless its player holds it; adds it to granted if so.
void grant(SqlSession& sql, const GameRecord& g, std::string_view achievement,
           std::vector<Grant>& granted) {
  if (sql(Sql::insert_achievement, g.player_id, achievement, g.id, g.ended_at).changed() == 1) {
    granted.push_back({g.player_id, std::string(achievement), g.id, g.ended_at});
  }
}

// The races in r (rows of select_races' columns) with their racers, oldest first.
std::vector<ActiveRaceRecord> races_of(SqlSession& sql, const SqlResult& r) {
  std::vector<ActiveRaceRecord> races = rows_of(r, [](const SqlResult& r, std::size_t i) {
    const engine::GameConfig config = config_from(r, i, 2);
    return ActiveRaceRecord{.id = r.string(i, 0),
                            .room = r.string(i, 1),
                            .options = {.mode = config.mode,
                                        .size = config.size,
                                        .target = config.target,
                                        .time_limit = r.integer(i, 6),
                                        .max_players = r.integer(i, 7),
                                        .is_public = r.boolean(i, 8),
                                        .max_moves_per_second = r.integer(i, 9),
                                        .tournament = r.string(i, 15)},
                            .seed = config.seed,
                            .host = r.string(i, 10),
                            .started_at = r.int64(i, 11),
                            .remaining_ms = r.int64(i, 12),
                            .epoch = r.int64(i, 13),
                            .url = r.string(i, 14)};
  });
  for (ActiveRaceRecord& race : races) {
    race.racers = rows_of(sql(Sql::select_racers, race.id), [](const SqlResult& r, std::size_t i) {
      return ActiveRacerRecord{.player_id = r.string(i, 0),
                               .game_id = r.string(i, 1),
                               .moves = r.string(i, 2),
                               .state = state_from_column(r.string(i, 3)),
                               .left = r.boolean(i, 4)};
    });
  }
  std::sort(races.begin(), races.end(), [](const ActiveRaceRecord& a, const ActiveRaceRecord& b) {
    return std::pair(a.started_at, a.id) < std::pair(b.started_at, b.id);
  });
  return races;
}

}  // namespace

Recorder::Recorder(std::unique_ptr<SqlDialect> dialect) : dialect_(std::move(dialect)) {
  unit(SqlTx::write, [this](SqlSession& sql) {
    // Keys made under other rules (another ICU, or none yet) are made again.
    sql(Sql::lock_name_keys);
    const std::string version = protocol::name_keys_version();
    const SqlResult stored = sql(Sql::name_keys_version);
    if (stored.rows() == 0 || stored.string(0, 0) != version) {
      sql(Sql::clear_name_keys);
      sql(Sql::set_name_keys_version, version);
    }
    key_names(sql);
  });
  dialect_->keep_ranks(ranks_,
                       [this](SqlSession& sql, RankCache& ranks) { fill_ranks(sql, ranks); });
}

void Recorder::key_names(SqlSession& sql) {
  const SqlResult unkeyed = sql(Sql::unkeyed_players);
  for (std::size_t i = 0; i < unkeyed.rows(); ++i) {
    const std::string id = unkeyed.string(i, 0);
    const std::string old = unkeyed.string(i, 1);
    // A name from before the rules of protocol/names.hpp that breaks them is replaced; the
    // computer's seats (ids bot-<strength>, which no person's id can be) keep theirs.
    const bool computer = id.starts_with("bot-");
    const std::string base = !computer && protocol::name_problem(old)
                                 ? std::string("player-").append(id.substr(0, 6))
                                 : old;
    for (int n = 1;; ++n) {
      const std::string name = n == 1 ? base : with_suffix(base, n);
      const protocol::NameKeys keys = protocol::name_keys(name);
      if (sql(Sql::player_by_keys, keys.key, keys.look).rows() > 0) continue;
      sql(Sql::set_name, id, name, keys.key, 0, keys.look);
      if (name != old) sql(Sql::insert_old_name, id, old, unix_ms());
      break;
    }
  }
}

Recorder::~Recorder() = default;

int Recorder::concurrency() const { return dialect_->concurrency(); }

void Recorder::ping() { dialect_->ping(); }

void Recorder::fill_ranks(SqlSession& sql, RankCache& ranks) {
  const SqlResult best = sql(Sql::all_bests);
  for (std::size_t i = 0; i < best.rows(); ++i) {
    const auto period = protocol::period_from_string(best.string(i, 6));
    if (!period) continue;
    const engine::Mode mode = mode_of(best.string(i, 0));
    ranks.put_best({mode, best.integer(i, 1), false, *period}, best.string(i, 2),
                   best_key(mode, best.int64(i, 3), best.int64(i, 4), best.int64(i, 5)));
  }
}

bool Recorder::add_player(const PlayerRecord& p, const std::optional<SessionRecord>& session) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    const std::string look = protocol::name_keys(p.name).look;
    if (sql(Sql::insert_player, p.id, p.name, p.name_key, p.wins, p.losses, p.created_at, look,
            p.bot ? 1 : 0)
            .changed() == 0) {
      // Either this very call again (done already, session and all) or the name is taken.
      const SqlResult holder = sql(Sql::player_by_keys, p.name_key, look);
      return holder.rows() == 1 && holder.string(0, 0) == p.id;
    }
    if (session) {
      sql(Sql::insert_session, session->token_hash, p.id, session->created_at, session->label,
          session->address);
    }
    return true;
  });
}

SqlResult Recorder::ratings_in(SqlSession& sql, PlayerRecord& player) {
  SqlResult r = sql(Sql::ratings_of, player.id);
  for (std::size_t i = 0; i < r.rows(); ++i) {
    player.ratings[protocol::index_of(variant_from_column(r.string(i, 0)))] = {
        {r.real(i, 1), r.real(i, 2), r.real(i, 3)}, r.int64(i, 4)};
  }
  return r;
}

std::optional<PlayerRecord> Recorder::find_player(std::string_view id) {
  return unit(SqlTx::none, [&](SqlSession& sql) -> std::optional<PlayerRecord> {
    const SqlResult r = sql(Sql::select_player, id);
    if (r.rows() == 0) return std::nullopt;
    PlayerRecord player = player_of(r);
    ratings_in(sql, player);
    return player;
  });
}

bool Recorder::release_guest_name(std::string_view name, std::int64_t unused_since,
                                  std::int64_t now) {
  const protocol::NameKeys keys = protocol::name_keys(name);
  return unit(SqlTx::write, [&](SqlSession& sql) {
    const SqlResult holders = sql(Sql::guest_name_holders, keys.key, keys.look);
    if (holders.rows() == 0) return false;
    for (std::size_t i = 0; i < holders.rows(); ++i) {
      if (holders.int64(i, 2) > 0 || holders.int64(i, 3) >= unused_since) return false;
    }
    for (std::size_t i = 0; i < holders.rows(); ++i) {
      const std::string id = holders.string(i, 0), old = holders.string(i, 1);
      // "guest-" and the start of their id, longer until no other player has it (the whole id
      // is longer than any name a player may pick: only this player can hold that one).
      std::string given;
      protocol::NameKeys given_keys;
      for (std::size_t digits = std::min<std::size_t>(8, id.size());;
           digits = std::min(digits + 4, id.size())) {
        given.assign("guest-").append(id, 0, digits);
        given_keys = protocol::name_keys(given);
        if (digits == id.size() ||
            sql(Sql::player_by_keys, given_keys.key, given_keys.look).rows() == 0) {
          break;
        }
      }
      sql(Sql::insert_old_name, id, old, now);
      sql(Sql::release_name, id, given, given_keys.key, given_keys.look, old);
    }
    return true;
  });
}

std::optional<SessionOwner> Recorder::session_player(std::string_view token_hash, std::int64_t now,
                                                     std::string_view address) {
  return unit(SqlTx::write, [&](SqlSession& sql) -> std::optional<SessionOwner> {
    const SqlResult r = sql(Sql::session_player, token_hash);
    if (r.rows() == 0) return std::nullopt;
    sql(Sql::touch_session, token_hash, now, address);
    SessionOwner owner{r.string(0, 0), r.string(0, 1), r.string(0, 2)};
    if (!owner.released_name.empty()) sql(Sql::clear_released_name, owner.player_id);
    return owner;
  });
}

void Recorder::add_session(const SessionRecord& s) {
  unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::insert_session, s.token_hash, s.player_id, s.created_at, s.label, s.address);
  });
}

std::vector<SessionRecord> Recorder::sessions(std::string_view player_id) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::sessions_of, player_id), [&](const SqlResult& r, std::size_t i) {
      return SessionRecord{.token_hash = r.string(i, 0),
                           .player_id = std::string(player_id),
                           .created_at = r.int64(i, 1),
                           .last_seen = r.int64(i, 2),
                           .label = r.string(i, 3),
                           .address = r.string(i, 4)};
    });
  });
}

void Recorder::end_session(std::string_view token_hash) {
  unit(SqlTx::write, [&](SqlSession& sql) { sql(Sql::delete_session, token_hash); });
}

std::vector<std::string> Recorder::end_other_sessions(std::string_view player_id,
                                                      std::string_view keep) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return rows_of(sql(Sql::delete_other_sessions, player_id, keep),
                   [](const SqlResult& r, std::size_t i) { return r.string(i, 0); });
  });
}

std::int64_t Recorder::take_connection(std::string_view player_id) {
  return unit(SqlTx::write, [&](SqlSession& sql) -> std::int64_t {
    const SqlResult r = sql(Sql::take_connection, player_id);
    return r.rows() == 0 ? 0 : r.int64(0, 0);
  });
}

ConnectionStates Recorder::check_connections(const std::vector<std::string>& players,
                                             const std::vector<std::string>& sessions) {
  const std::string player_list = nlohmann::json(players).dump();
  const std::string session_list = nlohmann::json(sessions).dump();
  return unit(SqlTx::snapshot, [&](SqlSession& sql) {
    ConnectionStates out;
    const SqlResult p = sql(Sql::connection_states, player_list);
    for (std::size_t i = 0; i < p.rows(); ++i) {
      out.players.emplace(p.string(i, 0), ConnectionStates::Player{p.int64(i, 1), p.string(i, 2)});
    }
    const SqlResult s = sql(Sql::live_sessions, session_list);
    for (std::size_t i = 0; i < s.rows(); ++i) out.sessions.insert(s.string(i, 0));
    return out;
  });
}

std::optional<Credentials> Recorder::credentials(std::string_view name_key) {
  return unit(SqlTx::none, [&](SqlSession& sql) -> std::optional<Credentials> {
    const SqlResult r = sql(Sql::player_by_key, name_key);
    if (r.rows() == 0) return std::nullopt;
    return Credentials{r.string(0, 0), r.string(0, 1), r.boolean(0, 2)};
  });
}

void Recorder::set_password(std::string_view player_id, std::string_view password_hash,
                            std::int64_t at) {
  unit(SqlTx::write,
       [&](SqlSession& sql) { sql(Sql::set_password, player_id, password_hash, at); });
}

bool Recorder::rename(std::string_view player_id, std::string_view name, std::string_view key,
                      std::int64_t at) {
  const std::string look = protocol::name_keys(name).look;
  return unit(SqlTx::write, [&](SqlSession& sql) {
    const SqlResult holders = sql(Sql::player_by_keys, key, look);
    for (std::size_t i = 0; i < holders.rows(); ++i) {
      if (holders.string(i, 0) != player_id) return false;
    }
    const SqlResult player = sql(Sql::select_player, player_id);
    if (player.rows() == 0) return false;
    sql(Sql::insert_old_name, player_id, player.string(0, 1), at);
    sql(Sql::set_name, player_id, name, key, at, look);
    return true;
  });
}

FriendChangeRecord Recorder::change_friendship(std::string_view player, std::string_view other,
                                               FriendAction action, std::int64_t at) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    FriendChangeRecord change;
    const SqlResult links = sql(Sql::friend_links, player, other);
    for (std::size_t r = 0; r < links.rows(); ++r) {
      const Link link = link_from_string(links.string(r, 1));
      (links.string(r, 0) == player ? change.before.mine : change.before.theirs) = link;
    }
    const SqlResult mine = sql(Sql::friend_counts, player);
    const SqlResult theirs = sql(Sql::friend_counts, other);
    const FriendCounts counts{mine.integer(0, 0), mine.integer(0, 1), theirs.integer(0, 0)};
    change.step = friend_step(change.before, action, counts);
    if (change.step.outcome != FriendOutcome::changed) return change;
    sql(Sql::delete_friend_links, player, other);
    const FriendPair& after = change.step.after;
    if (after.mine != Link::none)
      sql(Sql::insert_friend_link, player, other, to_string(after.mine), at);
    if (after.theirs != Link::none) {
      sql(Sql::insert_friend_link, other, player, to_string(after.theirs), at);
    }
    return change;
  });
}

std::vector<FriendRecord> Recorder::friends_of(std::string_view player) {
  return unit(SqlTx::snapshot, [&](SqlSession& sql) {
    const SqlResult r = sql(Sql::friend_list, player);
    std::vector<FriendRecord> out;
    out.reserve(r.rows());
    for (std::size_t i = 0; i < r.rows(); ++i) {
      out.push_back({r.string(i, 0), r.string(i, 1), r.integer(i, 2),
                     link_from_string(r.string(i, 3)), r.boolean(i, 4)});
    }
    return out;
  });
}

void Recorder::add_link_code(std::string_view code, std::string_view player_id,
                             std::int64_t expires_at) {
  unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::insert_link_code, code_hash(code), player_id, expires_at);
  });
}

std::optional<std::string> Recorder::take_link_code(std::string_view code, std::int64_t now) {
  return unit(SqlTx::write, [&](SqlSession& sql) -> std::optional<std::string> {
    const SqlResult r = sql(Sql::take_link_code, code_hash(code));
    if (r.rows() == 0 || r.int64(0, 1) <= now) return std::nullopt;
    return r.string(0, 0);
  });
}

BotUpgrade Recorder::upgrade_to_bot(std::string_view player_id) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    const SqlResult player = sql(Sql::select_player, player_id);
    if (player.rows() == 0) return BotUpgrade::no_such_player;
    if (player.boolean(0, 7)) return BotUpgrade::upgraded;
    if (sql(Sql::count_games, player_id).integer(0, 0) > 0) return BotUpgrade::played;
    sql(Sql::set_bot, player_id);
    return BotUpgrade::upgraded;
  });
}

void Recorder::add_bot_token(std::string_view player_id, std::string_view id,
                             std::string_view token, std::int64_t at) {
  unit(SqlTx::write,
       [&](SqlSession& sql) { sql(Sql::insert_bot_token, id, player_id, code_hash(token), at); });
}

std::vector<BotTokenRecord> Recorder::bot_tokens(std::string_view player_id) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return rows_of(sql(Sql::bot_tokens_of, player_id), [](const SqlResult& r, std::size_t i) {
      return BotTokenRecord{r.string(i, 0), r.int64(i, 1), r.int64(i, 2)};
    });
  });
}

bool Recorder::revoke_bot_token(std::string_view player_id, std::string_view id) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return sql(Sql::delete_bot_token, player_id, id).rows() > 0;
  });
}

std::optional<SessionOwner> Recorder::bot_token_player(std::string_view token, std::int64_t now) {
  const std::string hash = code_hash(token);
  return unit(SqlTx::write, [&](SqlSession& sql) -> std::optional<SessionOwner> {
    const SqlResult r = sql(Sql::bot_token_player, hash);
    if (r.rows() == 0) return std::nullopt;
    sql(Sql::touch_bot_token, hash, now);
    return SessionOwner{r.string(0, 0), r.string(0, 1), ""};
  });
}

int Recorder::rated_races_since(std::string_view player_id, std::int64_t since) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return sql(Sql::rated_races_since, player_id, since).integer(0, 0);
  });
}

std::vector<protocol::Period> Recorder::put_on_boards(SqlSession& sql, const GameRecord& g) {
  // The score boards are people's: a bot's solo results stay off them.
  const SqlResult player = sql(Sql::select_player, g.player_id);
  if (player.rows() > 0 && player.boolean(0, 7)) return {};
  const auto [day, week] = periods_of(g.ended_at);
  const SqlResult up =
      sql(g.config.mode == engine::Mode::fifteen ? Sql::upsert_best_fifteen : Sql::upsert_best_2048,
          protocol::to_string(protocol::Period{}), protocol::to_string(day),
          protocol::to_string(week), g.player_id, engine::to_string(g.config.mode), g.config.size,
          g.score, g.max_tile, g.move_count, g.id, g.ended_at);
  std::vector<protocol::Period> periods;
  for (std::size_t i = 0; i < up.rows(); ++i) {
    if (auto period = protocol::period_from_string(up.string(i, 0))) periods.push_back(*period);
  }
  return periods;
}

std::vector<std::vector<Grant>> Recorder::record_finished(std::span<const Finished> items) {
  std::vector<std::vector<Grant>> granted(items.size());
  std::vector<RankChange> ranks;
  std::vector<std::string_view> races;
  for (const Finished& item : items) {
    if (const auto* race = std::get_if<const RaceRecord*>(&item)) races.push_back((*race)->id);
  }
  std::sort(races.begin(), races.end());
  unit(SqlTx::write, [&](SqlSession& sql) {
    for (std::string_view id : races) sql(Sql::lock_race, id);  // the lock order, first
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::visit([&](const auto* item) { record_in(sql, *item, granted[i], ranks); }, items[i]);
    }
  });
  for (const RankChange& c : ranks) ranks_.put_best(c.board, c.player, c.key);
  return granted;
}

void Recorder::record_in(SqlSession& sql, const GameRecord& g, std::vector<Grant>& granted,
                         std::vector<RankChange>& ranks) {
  const bool inserted = insert_game(sql, g);
  if (inserted) {
    for (const std::string_view id : earned_by(Feat{g})) grant(sql, g, id, granted);
  }
  if (inserted && eligible_for_board(g)) {
    for (const protocol::Period& period : put_on_boards(sql, g)) {
      ranks.push_back({{g.config.mode, g.config.size, false, period},
                       g.player_id,
                       best_key(g.config.mode, g.score, g.max_tile, g.move_count)});
    }
  }
  if (inserted && g.ranked && !g.daily.empty()) {
    sql(Sql::daily_progress, g.id, g.score, g.max_tile, g.move_count, g.ended_at, 1);
  }
  sql(Sql::delete_active, g.player_id, g.id);
}

std::string Recorder::server_secret(std::string_view name, std::string_view candidate) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::insert_secret, name, candidate);
    return sql(Sql::select_secret, name).string(0, 0);
  });
}

bool Recorder::claim_daily(const DailyAttempt& a) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return sql(Sql::insert_daily, a.day, a.mode, a.player_id, a.game_id, a.at).changed() == 1;
  });
}

void Recorder::finish_daily(std::string_view game_id) {
  unit(SqlTx::write, [&](SqlSession& sql) { sql(Sql::finish_daily, game_id); });
}

namespace {

// A row of a score board (top_2048, best_of, daily_top, daily_entry): player_id, name, score,
// max_tile, moves, game_id, at.
BoardEntry score_entry(const SqlResult& r, std::size_t i) {
  return BoardEntry{.player_id = r.string(i, 0),
                    .name = r.string(i, 1),
                    .score = r.int64(i, 2),
                    .max_tile = r.int64(i, 3),
                    .moves = r.integer(i, 4),
                    .game_id = r.string(i, 5),
                    .at = r.int64(i, 6)};
}

// A row of daily_of_day or open_dailies.
DailyAttempt attempt_of(const SqlResult& r, std::size_t i) {
  return {.day = r.string(i, 0),
          .mode = r.string(i, 1),
          .player_id = r.string(i, 2),
          .name = r.string(i, 3),
          .game_id = r.string(i, 4),
          .score = r.int64(i, 5),
          .max_tile = r.int64(i, 6),
          .moves = r.integer(i, 7),
          .at = r.int64(i, 8),
          .finished = r.boolean(i, 9)};
}

}  // namespace

std::vector<DailyAttempt> Recorder::daily_attempts(std::string_view day) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    const SqlResult r = sql(Sql::daily_of_day, day);
    std::vector<DailyAttempt> out;
    for (std::size_t i = 0; i < r.rows(); ++i) out.push_back(attempt_of(r, i));
    return out;
  });
}

std::vector<std::pair<DailyAttempt, std::optional<ActiveGameRecord>>> Recorder::open_dailies(
    std::string_view day) {
  std::vector<DailyAttempt> open = unit(SqlTx::none, [&](SqlSession& sql) {
    const SqlResult r = sql(Sql::open_dailies, day);
    std::vector<DailyAttempt> out;
    for (std::size_t i = 0; i < r.rows(); ++i) out.push_back(attempt_of(r, i));
    return out;
  });
  std::vector<std::pair<DailyAttempt, std::optional<ActiveGameRecord>>> out;
  for (DailyAttempt& a : open) {
    std::optional<ActiveGameRecord> game = find_active(a.player_id);
    if (game && game->game_id != a.game_id) game.reset();  // a later game replaced it
    out.emplace_back(std::move(a), std::move(game));
  }
  return out;
}

Leaderboard Recorder::daily_board(SqlSession& sql, const LeaderboardQuery& q) {
  const protocol::DailyMode* mode = protocol::daily_mode(q.mode, q.size);
  if (mode == nullptr) return {};
  const std::string day = protocol::to_string(q.period);
  Leaderboard board;
  const SqlResult top = sql(Sql::daily_top, day, mode->key, q.limit);
  for (std::size_t i = 0; i < top.rows(); ++i) {
    board.entries.push_back(score_entry(top, i));
    BoardEntry& e = board.entries.back();
    // Best first, so every better entry is above: a tie shares the rank of the row before.
    const BoardEntry* prev = i > 0 ? &board.entries[i - 1] : nullptr;
    e.rank = prev && prev->score == e.score && prev->moves == e.moves && prev->at == e.at
                 ? prev->rank
                 : static_cast<int>(i) + 1;
  }
  if (!q.player_id.empty()) {
    const SqlResult mine = sql(Sql::daily_entry, day, mode->key, q.player_id);
    if (mine.rows() > 0) {
      board.me = score_entry(mine, 0);
      const BoardEntry& m = *board.me;
      board.me->rank =
          1 + sql(Sql::daily_better, day, mode->key, m.score, m.moves, m.at).integer(0, 0);
    }
  }
  return board;
}

std::optional<GameRecord> Recorder::find_game(std::string_view id) {
  return unit(SqlTx::none, [&](SqlSession& sql) -> std::optional<GameRecord> {
    const SqlResult r = sql(Sql::select_game, id);
    if (r.rows() == 0) return std::nullopt;
    return game_of(r, 0);
  });
}

void Recorder::record_in(SqlSession& sql, const RaceRecord& race, std::vector<Grant>& granted,
                         std::vector<RankChange>& /*ranks*/) {
  // Players' rows are updated in id order, so two races finishing at once cannot deadlock.
  std::vector<const RatingUpdate*> ratings;
  for (const RatingUpdate& u : race.ratings) ratings.push_back(&u);
  std::sort(ratings.begin(), ratings.end(), [](const RatingUpdate* a, const RatingUpdate* b) {
    return a->player_id < b->player_id;
  });
  sql(Sql::lock_race, race.id);
  if (race.epoch > 0) {
    if (std::optional<RaceOwner> other = other_owner(sql, race.id, race.epoch)) {
      throw RaceLost(std::move(*other));
    }
  }
  if (sql(Sql::insert_race, race.id, race.room, race.reason, race.winner, race.result,
          race.ended_at)
          .changed() == 0) {
    return;  // already recorded (by this owner, when fenced): nothing changes
  }
  if (race.epoch > 0) sql(Sql::set_race_recorder, race.id, dialect_->node(), race.epoch, race.url);
  sql(Sql::delete_race, race.id);
  for (const GameRecord& g : race.games) insert_game(sql, g);
  std::vector<int> streaks(race.ratings.size());  // in race.ratings' order
  for (const RatingUpdate* u : ratings) {
    const SqlResult r = sql(Sql::count_rated_race, u->won, u->lost, u->player_id);
    if (r.rows() != 1) continue;
    streaks[u - race.ratings.data()] = r.integer(0, 1);
    const std::string_view variant = protocol::to_string(u->variant);
    const glicko2::Rating& a = u->after;
    sql(Sql::upsert_rating, u->player_id, variant, a.rating, a.rd, a.volatility, race.ended_at,
        listed_until({a, race.ended_at}), u->won, u->lost);
    sql(Sql::insert_rating_point, u->player_id, race.id, race.ended_at, shown(a.rating), variant,
        shown(a.rd));
  }
  for (const Earned& e : earned_in(race, streaks)) grant(sql, *e.game, e.achievement, granted);
  for (const BotOutcome& o : race.against_bots) {
    sql(Sql::upsert_bot_record, o.player_id, engine::to_string(o.strength), o.won, o.lost, o.drawn);
  }
}

std::vector<std::string> Recorder::journal(const std::vector<ActiveGameRecord>& games) {
  if (games.empty()) return {};
  const std::string& node = dialect_->node();
  return unit(SqlTx::write, [&](SqlSession& sql) {
    std::vector<std::string> refused;
    // Written, or skipped because its game is recorded: only another owner's entry refuses it.
    const auto refused_by_owner = [&](const ActiveGameRecord& a) {
      const SqlResult owner = sql(Sql::active_owner, a.player_id, a.game_id);
      return owner.rows() > 0 && (owner.string(0, 0) != node || owner.int64(0, 1) != a.epoch);
    };
    for (const ActiveGameRecord& a : games) {
      if (a.daily_ranked) {
        sql(Sql::daily_progress, a.game_id, a.score, a.max_tile, a.move_count, unix_ms(), 0);
      }
      if (a.from > 0) {
        if (sql(Sql::insert_piece, a.player_id, a.from, a.moves, a.game_id, node, a.epoch,
                times_text(a.times))
                    .changed() == 0 &&
            refused_by_owner(a)) {
          refused.push_back(a.game_id);
        }
        continue;
      }
      sql(Sql::delete_pieces, a.player_id, a.game_id, node, a.epoch);
      const engine::GameConfig& c = a.config;
      if (sql(Sql::upsert_active, a.player_id, a.game_id, engine::to_string(c.mode), c.size,
              c.target, std::to_string(c.seed), a.explicit_seed, a.moves, a.started_at, a.daily,
              node, a.epoch, times_text(a.times))
                  .changed() == 0 &&
          refused_by_owner(a)) {
        refused.push_back(a.game_id);
      }
    }
    return refused;
  });
}

std::optional<ActiveGameRecord> Recorder::take_active(SqlSession& sql, std::string_view player_id) {
  const SqlResult claimed = sql(Sql::claim_active, player_id, dialect_->node());
  const SqlResult r = sql(Sql::select_active, player_id);
  if (r.rows() == 0) return std::nullopt;
  ActiveGameRecord a{.player_id = r.string(0, 0),
                     .game_id = r.string(0, 1),
                     .config = config_from(r, 0, 2),
                     .explicit_seed = r.boolean(0, 6),
                     .moves = r.string(0, 7),
                     .started_at = r.int64(0, 8),
                     .times = times_from(r.string(0, 11)),
                     .daily = r.string(0, 9),
                     .epoch = claimed.rows() > 0 ? claimed.int64(0, 0) : r.int64(0, 10)};
  a.daily_ranked = !a.daily.empty() && sql(Sql::daily_of_game, a.game_id).rows() > 0;
  bool timed = a.times.size() == a.moves.size();
  const SqlResult pieces = sql(Sql::select_pieces, player_id);
  for (std::size_t i = 0; i < pieces.rows(); ++i) {
    // Pieces are written in order; one that does not continue the moves ends them.
    if (pieces.int64(i, 0) != static_cast<std::int64_t>(a.moves.size())) break;
    const std::string piece = pieces.string(i, 1);
    const std::vector<std::int32_t> times = times_from(pieces.string(i, 2));
    a.moves += piece;
    timed = timed && times.size() == piece.size();
    if (timed) a.times.insert(a.times.end(), times.begin(), times.end());
  }
  if (!timed) a.times.clear();  // a piece without its times: they are not known
  return a;
}

std::optional<ActiveGameRecord> Recorder::find_active(std::string_view player_id) {
  // The entry and its pieces as of one moment, taken by this node.
  return unit(SqlTx::write, [&](SqlSession& sql) -> std::optional<ActiveGameRecord> {
    return take_active(sql, player_id);
  });
}

std::optional<ActiveGameRecord> Recorder::reclaim_active(std::string_view player_id,
                                                         std::string_view game_id,
                                                         std::int64_t epoch) {
  if (dialect_->node().empty()) return std::nullopt;  // a database of our own: ours
  return unit(SqlTx::write, [&](SqlSession& sql) -> std::optional<ActiveGameRecord> {
    const SqlResult owner = sql(Sql::active_owner, player_id, game_id);
    if (owner.rows() > 0 && owner.string(0, 0) == dialect_->node() && owner.int64(0, 1) == epoch) {
      return std::nullopt;
    }
    if (owner.rows() == 0 && sql(Sql::select_active, player_id).rows() == 0) return std::nullopt;
    return take_active(sql, player_id);
  });
}

std::optional<RaceOwner> Recorder::other_owner(SqlSession& sql, std::string_view id,
                                               std::int64_t epoch) {
  SqlResult r = sql(Sql::race_owner, id);
  if (r.rows() == 0) r = sql(Sql::race_recorder, id);
  if (r.rows() == 0) return std::nullopt;
  RaceOwner owner{r.string(0, 0), r.int64(0, 1), r.string(0, 2)};
  if (owner.node == dialect_->node() && owner.epoch == epoch) return std::nullopt;
  return owner;
}

// How far a race has got: every move and every racer's end or leaving adds one, and nothing
// takes one back (a race has no undo; a racer who ended or left stays so). Two snapshots of a
// race with equal progress hold the same moves and outcomes.
namespace {
std::int64_t progress_of(const ActiveRaceRecord& race) {
  std::int64_t progress = 0;
  for (const ActiveRacerRecord& a : race.racers) {
    progress += static_cast<std::int64_t>(a.moves.size()) +
                (a.state != engine::GameState::playing ? 1 : 0) + (a.left ? 1 : 0);
  }
  return progress;
}
}  // namespace

std::vector<LostRace> Recorder::journal_races(const std::vector<ActiveRaceRecord>& races) {
  if (races.empty()) return {};
  // In id order: the lock order (docs/operations.md, "Lock order").
  std::vector<const ActiveRaceRecord*> in_order;
  for (const ActiveRaceRecord& r : races) in_order.push_back(&r);
  std::sort(in_order.begin(), in_order.end(),
            [](const ActiveRaceRecord* a, const ActiveRaceRecord* b) { return a->id < b->id; });
  return unit(SqlTx::write, [&](SqlSession& sql) {
    std::vector<LostRace> lost;
    for (const ActiveRaceRecord* race : in_order) {
      const ActiveRaceRecord& r = *race;
      sql(Sql::lock_race, r.id);
      if (r.epoch > 0) {
        if (std::optional<RaceOwner> other = other_owner(sql, r.id, r.epoch)) {
          lost.push_back({r.id, std::move(*other)});
          continue;
        }
      }
      const RaceOptionsRecord& o = r.options;
      const bool written =
          sql(Sql::upsert_race, r.id, dialect_->node(), r.room, engine::to_string(o.mode), o.size,
              o.target, std::to_string(r.seed), o.time_limit, o.max_players, o.is_public,
              o.max_moves_per_second, r.host, r.started_at, r.remaining_ms,
              std::max<std::int64_t>(r.epoch, 1), r.url, progress_of(r), o.tournament)
              .rows() > 0;
      if (written) {
        sql(Sql::delete_racers, r.id);
        for (std::size_t i = 0; i < r.racers.size(); ++i) {
          const ActiveRacerRecord& a = r.racers[i];
          sql(Sql::insert_racer, r.id, i, a.player_id, a.game_id, a.moves,
              engine::to_string(a.state), a.left);
        }
      }
      // The race may have been recorded while the upsert waited on its row (PostgreSQL: the
      // upsert's NOT EXISTS saw the races table before that commit, and inserted the row anew
      // once the recording had deleted it). This statement sees the commit: the row goes again.
      sql(Sql::drop_recorded_race, r.id);
    }
    return lost;
  });
}

std::vector<ActiveRaceRecord> Recorder::active_races() {
  // The races and their racers as of one moment.
  return unit(SqlTx::snapshot, [&](SqlSession& sql) {
    return races_of(sql, sql(Sql::select_races, dialect_->node()));
  });
}

std::vector<ActiveRaceRecord> Recorder::adopt_races(std::string_view node, std::string_view url) {
  return adopt(node, {}, url);
}

std::vector<ActiveRaceRecord> Recorder::adopt_race(std::string_view node, std::string_view room,
                                                   std::string_view url) {
  return adopt(node, room, url);
}

std::vector<ActiveRaceRecord> Recorder::adopt(std::string_view node, std::string_view room,
                                              std::string_view url) {
  if (dialect_->node().empty()) return {};  // a database of our own holds no other node's
  return unit(SqlTx::write, [&](SqlSession& sql) {
    // Each race's lock in id order before its row, as every writer of a race takes them.
    const SqlResult adoptable =
        room.empty() ? sql(Sql::adoptable_races, node) : sql(Sql::released_race, node, room);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < adoptable.rows(); ++i) {
      ids.push_back(adoptable.string(i, 0));
      sql(Sql::lock_race, ids.back());
    }
    if (ids.empty()) return std::vector<ActiveRaceRecord>{};
    return races_of(sql,
                    sql(Sql::adopt_races, node, dialect_->node(), url, nlohmann::json(ids).dump()));
  });
}

std::optional<std::string> Recorder::race_room_of(std::string_view player_id) {
  return unit(SqlTx::none, [&](SqlSession& sql) -> std::optional<std::string> {
    const SqlResult r = sql(Sql::race_room_of, player_id);
    if (r.rows() == 0) return std::nullopt;
    return r.string(0, 0);
  });
}

namespace {
// Tournaments in r (rows of open_tournaments' columns).
std::vector<TournamentRecord> tournaments_of(const SqlResult& r) {
  return rows_of(r, [](const SqlResult& r, std::size_t i) {
    TournamentRecord t{.code = r.string(i, 0), .state = r.string(i, 1)};
    decode_tournament(r.string(i, 2), t);
    t.updated_at = r.int64(i, 3);
    t.epoch = r.int64(i, 4);
    t.url = r.string(i, 5);
    return t;
  });
}
}  // namespace

std::vector<std::string> Recorder::journal_tournaments(
    const std::vector<TournamentRecord>& tournaments) {
  if (tournaments.empty()) return {};
  return unit(SqlTx::write, [&](SqlSession& sql) {
    std::vector<std::string> lost;
    for (const TournamentRecord& t : tournaments) {
      const bool written =
          sql(Sql::upsert_tournament, t.code, dialect_->node(), t.state, encode_tournament(t),
              t.updated_at, std::max<std::int64_t>(t.epoch, 1), t.url)
              .rows() > 0;
      if (!written) lost.push_back(t.code);
    }
    return lost;
  });
}

std::vector<TournamentRecord> Recorder::open_tournaments() {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    return tournaments_of(sql(Sql::open_tournaments, dialect_->node()));
  });
}

std::vector<TournamentRecord> Recorder::adopt_tournaments(std::string_view node,
                                                          std::string_view url) {
  if (dialect_->node().empty()) return {};  // a database of our own holds no other node's
  return unit(SqlTx::write, [&](SqlSession& sql) {
    return tournaments_of(sql(Sql::adopt_tournaments, node, dialect_->node(), url));
  });
}

std::optional<std::string> Recorder::tournament_of(std::string_view player_id) {
  if (dialect_->node().empty()) return std::nullopt;  // one server: its members are linked
  return unit(SqlTx::none, [&](SqlSession& sql) -> std::optional<std::string> {
    const SqlResult r = sql(Sql::tournament_of, player_id);
    if (r.rows() == 0) return std::nullopt;
    return r.string(0, 0);
  });
}

bool Recorder::note_tournament_creation(std::string_view player_id, std::int64_t now, int most,
                                        std::int64_t window_ms) {
  return unit(SqlTx::write, [&](SqlSession& sql) {
    sql(Sql::lock_creations, player_id);
    sql(Sql::prune_creations, now - window_ms);
    if (sql(Sql::count_creations, player_id, now - window_ms).int64(0, 0) >= most) return false;
    sql(Sql::note_creation, player_id, now);
    return true;
  });
}

std::optional<RaceOutcome> Recorder::race_in_room(std::string_view room, std::int64_t since) {
  return unit(SqlTx::none, [&](SqlSession& sql) -> std::optional<RaceOutcome> {
    const SqlResult r = sql(Sql::race_in_room, room, since);
    if (r.rows() == 0) return std::nullopt;
    RaceOutcome outcome;
    outcome.closed = r.string(0, 1) == "closed";
    if (outcome.closed) return outcome;
    // The places race_over gave (its standings, best first); a race recorded before they
    // were given: the winner first, everyone else second (a draw: everyone first).
    const std::string winner = r.string(0, 0);
    const nlohmann::json over = nlohmann::json::parse(r.string(0, 2));
    for (const auto& s : over.value("standings", nlohmann::json::array())) {
      const auto player = s.at("player").get<std::string>();
      const int place = s.contains("place")                  ? s.at("place").get<int>() - 1
                        : winner.empty() || player == winner ? 0
                                                             : 1;
      outcome.places.emplace_back(player, place);
    }
    return outcome;
  });
}

Leaderboard Recorder::leaderboard(const LeaderboardQuery& query) {
  return unit(SqlTx::none, [&](SqlSession& sql) {
    switch (query.kind) {
      case BoardKind::rating: return rating_board(sql, query);
      case BoardKind::daily: return daily_board(sql, query);
      case BoardKind::score: break;
    }
    return score_board(sql, query);
  });
}

Leaderboard Recorder::score_board(SqlSession& sql, const LeaderboardQuery& q) {
  const BoardId id = board_of(q);
  const std::string_view mode = engine::to_string(q.mode);
  const std::string period = protocol::to_string(q.period);
  Leaderboard board;
  board.entries = rows_of(sql(q.mode == engine::Mode::fifteen ? Sql::top_fifteen : Sql::top_2048,
                              period, mode, q.size, q.limit),
                          score_entry);
  rank_in_order(id, board.entries);
  if (q.player_id.empty()) return board;
  const SqlResult mine = sql(Sql::best_of, period, mode, q.size, q.player_id);
  if (mine.rows() == 0) return board;
  BoardEntry me = score_entry(mine, 0);
  me.rank = ranks_.rank(id, me.player_id, entry_key(id, me));
  board.me = std::move(me);
  return board;
}

Leaderboard Recorder::rating_board(SqlSession& sql, const LeaderboardQuery& q) {
  auto read = [&q](const SqlResult& r, std::size_t i) {
    const VariantRating kept{{r.real(i, 2), r.real(i, 3), r.real(i, 4)}, r.int64(i, 5)};
    const glicko2::Rating now = kept.at_time(q.now);
    return BoardEntry{.player_id = r.string(i, 0),
                      .name = r.string(i, 1),
                      .rating = shown(now.rating),
                      .rd = shown(now.rd),
                      .provisional = provisional(now),
                      .listed = q.provisional || listed_until(kept) >= q.now,
                      .wins = r.integer(i, 6),
                      .losses = r.integer(i, 7),
                      .bot = r.boolean(i, 8)};
  };
  const std::string_view variant = protocol::to_string(q.variant);
  Leaderboard board;
  const int bots = q.bots ? 1 : 0;
  board.entries = rows_of(sql(Sql::top_rating, variant, q.limit, q.provisional, q.now, bots), read);
  rank_in_order(kRatingBoard, board.entries);
  if (q.player_id.empty()) return board;
  const SqlResult mine = sql(Sql::rating_of, variant, q.player_id);
  if (mine.rows() == 0) return board;
  BoardEntry me = read(mine, 0);
  // 1 + those listed whose rating shows higher: rated at or above the next whole point's half
  const double above = me.rating + 0.5;
  if (me.bot != q.bots) return board;  // not on this board
  me.rank = 1 + sql(Sql::rating_rank, variant, q.provisional, q.now, above, bots).integer(0, 0);
  board.me = std::move(me);
  return board;
}

std::vector<BotRecord> Recorder::bot_records(std::string_view player_id) {
  std::vector<BotRecord> records = unit(SqlTx::none, [&](SqlSession& sql) {
    std::vector<BotRecord> found;
    const SqlResult r = sql(Sql::select_bot_records, player_id);
    for (std::size_t i = 0; i < r.rows(); ++i) {
      const auto strength = engine::bot_strength_from_string(r.string(i, 0));
      if (!strength) continue;  // only the three names are ever written
      found.push_back({*strength, r.integer(i, 1), r.integer(i, 2), r.integer(i, 3)});
    }
    return found;
  });
  std::sort(records.begin(), records.end(),
            [](const BotRecord& a, const BotRecord& b) { return a.strength < b.strength; });
  return records;
}

std::optional<Profile> Recorder::profile(std::string_view player_id) {
  return unit(SqlTx::snapshot, [&](SqlSession& sql) -> std::optional<Profile> {
    const SqlResult player = sql(Sql::select_player, player_id);
    if (player.rows() == 0) return std::nullopt;
    const std::string id(player_id);
    Profile p{.player = player_of(player)};
    p.games = sql(Sql::count_games, id).integer(0, 0);
    p.bests = rows_of(sql(Sql::bests_of, id), [&](const SqlResult& r, std::size_t i) {
      return GameRecord{.id = r.string(i, 5),
                        .player_id = id,
                        .config = {.mode = mode_of(r.string(i, 0)), .size = r.integer(i, 1)},
                        .score = r.int64(i, 2),
                        .max_tile = r.int64(i, 3),
                        .move_count = r.integer(i, 4),
                        .ended_at = r.int64(i, 6)};
    });
    p.standings = rows_of(ratings_in(sql, p.player), [](const SqlResult& r, std::size_t i) {
      return VariantStanding{.variant = variant_from_column(r.string(i, 0)),
                             .races = r.integer(i, 5),
                             .wins = r.integer(i, 6),
                             .losses = r.integer(i, 7)};
    });
    p.history = rows_of(sql(Sql::rating_history, id), [](const SqlResult& r, std::size_t i) {
      return RatingPoint{.variant = variant_from_column(r.string(i, 0)),
                         .at = r.int64(i, 1),
                         .rating = r.integer(i, 2),
                         .rd = r.integer(i, 3)};
    });
    p.races = rows_of(sql(Sql::recent_races, id), [&](const SqlResult& r, std::size_t i) {
      return RaceGameRecord{GameRecord{.id = r.string(i, 0),
                                       .player_id = id,
                                       .config = config_from(r, i, 1),
                                       .score = r.int64(i, 5),
                                       .max_tile = r.int64(i, 6),
                                       .move_count = r.integer(i, 7),
                                       .state = state_from_column(r.string(i, 8)),
                                       .ended_at = r.int64(i, 9),
                                       .room = r.string(i, 10)},
                            r.string(i, 11)};
    });
    p.daily_days = rows_of(sql(Sql::daily_days, id),
                           [](const SqlResult& r, std::size_t i) { return r.string(i, 0); });
    p.achievements = rows_of(sql(Sql::achievements_of, id), [&](const SqlResult& r, std::size_t i) {
      return Grant{id, r.string(i, 0), r.string(i, 1), r.int64(i, 2)};
    });
    order_grants(p.achievements);
    return p;
  });
}

}  // namespace tilerace::server
