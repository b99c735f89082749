#pragma once
// The seam under the Recorder (server/store/recorder.hpp): what a SQL database must offer for
// tilerace to keep its records in it. The Recorder holds every algorithm (what is written,
// in which order, in one transaction); a dialect supplies only the database's side: the text
// of each statement, running it, transactions, migrations, and where the leaderboards' ranks
// come from. Two dialects exist: SQLite (sqlite_dialect.hpp; ":memory:" serves fast tests)
// and PostgreSQL (pg_dialect.hpp).
//
// Statements are named by Sql; their texts are written once, in statement_text.cpp (a switch
// without default: a statement without a text fails to compile), with a dialect's own text only
// where the two truly differ. Parameters are positional and the same for every dialect; a
// dialect's text may leave one unused. Results come back as rows of cells, each an integer, a
// real or a text.
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace tilerace::server {

class RankCache;

// Every statement the Recorder runs; its comment says the parameters and the columns
// returned, in order. A game's config is four columns: mode, size, target, seed (decimal text).

enum class Sql : std::uint8_t {
  // players
  // (id, name, name_key, wins, losses, created_at, look_key, bot 0|1); ignores a known id,
  // name_key or look_key (protocol/names.hpp: a name is taken when either key is)
  insert_player,
  // (id) → id, name, created_at, wins, losses, registered_at (0: a guest), renamed_at, bot 0|1
  select_player,
  player_by_key,    // (name_key) → id, password_hash ('' for a guest), bot 0|1
  player_by_keys,   // (name_key, look_key) → id of each player holding either
  unkeyed_players,  // () → id, name of players without a name_key, oldest first
  // (id, name, name_key, renamed_at, look_key); fails on another player's name_key or look_key
  set_name,
  // the keys' rules (protocol::name_keys_version): names are keyed again when they change
  lock_name_keys,         // (): one server at a time keys names (a dialect of one writer: nothing)
  name_keys_version,      // () → version the stored keys were made under (no row: none yet)
  set_name_keys_version,  // (version)
  clear_name_keys,        // (): every player unkeyed
  set_password,           // (id, password_hash, registered_at)
  insert_old_name,        // (player_id, name, until)
  // sessions (one per signed-in device) and link codes
  insert_session,  // (token_hash, player_id, created_at, label, address)
  session_player,  // (token_hash) → player_id, the player's name, their released_name
  touch_session,   // (token_hash, last_seen, address)
  // (player_id) → token_hash, created_at, last_seen, label, address, oldest first
  sessions_of,
  delete_session,  // (token_hash)
  // (player_id, token_hash) → token_hash of each session of player_id but the one given,
  // deleted
  delete_other_sessions,
  insert_link_code,  // (code_hash, player_id, expires_at)
  // connections (cluster mode: one live connection per player, cluster-wide)
  take_connection,  // (player_id) → the player's connection epoch, one above the last
  // (player ids, a JSON array) → id, connection epoch (0: none yet), name of each of them
  connection_states,
  // (token hashes, a JSON array) → token_hash of each session or bot token that still exists
  live_sessions,
  take_link_code,  // (code_hash) → player_id, expires_at of the code, deleted
  // bot accounts (docs/bots.md): a bot for good, and its API tokens (kept as code_hash)
  set_bot,           // (player_id): the account is a bot
  insert_bot_token,  // (id, player_id, token_hash, created_at)
  bot_tokens_of,     // (player_id) → id, created_at, last_used, oldest first
  delete_bot_token,  // (player_id, id) → id, if the player had that token
  bot_token_player,  // (token_hash) → player_id, the player's name
  touch_bot_token,   // (token_hash, last_used)
  // (player_id, since) → how many rated races they have had since then (a bot's are with bots)
  rated_races_since,
  // friends (server/store/friendship.hpp): one row per link that is not none
  friend_links,         // (a, b) → player, link of the links between a and b, either way
  delete_friend_links,  // (a, b): the links between a and b, either way
  insert_friend_link,   // (player, other, link, at)
  friend_counts,        // (player) → friends of player, requests by player
  // (player) → id, name, rating, link, incoming 0|1: player's links, and requests to them
  friend_list,
  // the daily challenge
  insert_secret,  // (name, value); ignores a known name
  select_secret,  // (name) → value
  insert_daily,   // (day, mode, player_id, game_id, at); ignores a known (day, mode, player_id)
  // (game_id, score, max_tile, moves, at, finished 0|1): unless that attempt has finished
  daily_progress,
  daily_of_game,  // (game_id) → day, mode
  finish_daily,   // (game_id): that attempt is over as it stands
  daily_days,     // (player_id) → each day with an attempt of theirs, in order
  // (day, mode, limit) → player_id, name, score, max_tile, moves, game_id, at: best first
  daily_top,
  daily_entry,   // (day, mode, player_id) → the columns of daily_top
  daily_better,  // (day, mode, score, moves, at) → how many attempts rank strictly better
  // (day) → day, mode, player_id, name, game_id, score, max_tile, moves, at, finished, best
  // first in each mode
  daily_of_day,
  // (day) → the columns of daily_of_day, of the unfinished attempts of earlier days
  open_dailies,
  // (won 0|1, lost 0|1, id): after a rated race (any variant) → races, streak (none: no such
  // player)
  count_rated_race,
  // (player_id, variant, rating, rd, volatility, at, listed_until, won 0|1, lost 0|1): their
  // rating in the variant after a race, counted in its races, wins and losses
  upsert_rating,
  // (player_id) → variant, rating, rd, volatility, at, races, wins, losses: every variant
  // they have raced in
  ratings_of,
  // (variant, limit, all 0|1, now) → id, name, rating, rd, volatility, at, wins, losses: the
  // variant's rating board's top; all 0: only those listed at now (listed_until ≥ now)
  top_rating,
  // (variant, id) → the columns of top_rating for that player, if rated in the variant
  rating_of,
  // (variant, all 0|1, now, threshold) → how many on the board (as top_rating) are rated at or
  // above threshold
  rating_rank,
  // finished games and races
  // (id, player_id, config…4, moves, score, max_tile, move_count, state, ranked 0|1,
  // started_at, ended_at, room, daily, times); ignores a known id. times: comma-separated ms
  insert_game,
  // (id) → id, player_id, config…4, moves, score, max_tile, move_count, state, ranked,
  // started_at, ended_at, room, daily, times
  select_game,
  count_games,  // (player_id) → the number of their recorded games
  // (player_id) → id, config…4, score, max_tile, move_count, state, ended_at, room, outcome
  // (won, lost, draw; '' when its race is not recorded)
  recent_races,
  // (id, room, reason, winner, result, ended_at); ignores a known id
  insert_race,
  // (id, node, epoch, url): who recorded the race (a dialect without nodes keeps nothing)
  set_race_recorder,
  race_recorder,        // (id) → node, epoch, url of who recorded it (none without nodes)
  insert_rating_point,  // (player_id, race_id, at, rating, variant, rd)
  rating_history,       // (player_id) → variant, at, rating, rd, oldest first
  upsert_bot_record,    // (player_id, strength, won, lost, drawn): adds to their record
  select_bot_records,   // (player_id) → strength, wins, losses, draws
  insert_achievement,   // (player_id, achievement, game_id, at); ignores one already held
  achievements_of,      // (player_id) → achievement, game_id, at
  // best results (score boards)
  // (all-time, day, week, player_id, mode, size, score, max_tile, move_count, game_id,
  // ended_at): the result on its three boards where it beats the player's best → period
  upsert_best_2048,
  upsert_best_fifteen,  // the same for Fifteen (fewer moves is better)
  all_bests,            // () → mode, size, player_id, score, max_tile, move_count, period
  bests_of,  // (player_id) → mode, size, score, max_tile, move_count, game_id, ended_at (all time)
  // (period, mode, size, limit) → player_id, name, score, max_tile, move_count, game_id,
  // ended_at: the board's top
  top_2048,
  top_fifteen,
  best_of,  // (period, mode, size, player_id) → the columns of top_2048, for that player
  // the solo journal
  // (player_id, game_id, config…4, explicit_seed 0|1, moves, started_at, daily, node, epoch):
  // the player's entry, unless that game is recorded or is the entry's game under another
  // node or epoch (a dialect without nodes ignores those)
  upsert_active,
  delete_active,  // (player_id, game_id): by the key, not a scan of every game in play
  // (player_id, game_id, node, epoch): unless that game is recorded, or is the entry's game
  // under another node or epoch
  delete_pieces,
  // (player_id, first, moves, game_id, node, epoch): if that game is the player's entry, under
  // that node and epoch
  insert_piece,
  // (player_id, node) → epoch: the player's entry is node's now, under its next epoch (the same
  // when it was node's already); none without nodes
  claim_active,
  // (player_id, game_id) → node, epoch of the player's entry if it is that game (none without
  // nodes)
  active_owner,
  // (player_id) → player_id, game_id, config…4, explicit_seed, moves, started_at, daily, epoch
  select_active,
  select_pieces,  // (player_id) → first, moves, in order
  // the race journal; node names this server (a dialect of its own may ignore it)
  // (id, node, room, config…4, time_limit, max_players, public 0|1, max_moves_per_second,
  // host, started_at, remaining_ms, epoch, url, progress, tournament) → one row when written:
  // unless the race is recorded, or (a dialect with nodes) its row has a greater progress
  upsert_race,
  // (id): journaling and recording a race take turns until the transaction ends (a dialect of
  // one writer needs no lock)
  lock_race,
  // (id) → node, epoch, url of the race's entry, locked until the transaction ends (none
  // without nodes)
  race_owner,
  delete_race,         // (id): with its racers
  drop_recorded_race,  // (id): the journal's row of a race the races table has
  delete_racers,       // (race_id)
  // (race_id, position, player_id, game_id, moves, state, left 0|1): if the race is journaled
  insert_racer,
  // (node) → id, room, config…4, time_limit, max_players, public, max_moves_per_second, host,
  // started_at, remaining_ms, epoch, url, tournament: the node's journaled races
  select_races,
  // (dead node) → id of each of its journaled races, in id order (an adoption locks them in
  // that order before it takes them: docs/operations.md, "Lock order")
  adoptable_races,
  // (node, room) → id of node's journaled race in room (a race it released: none or one)
  released_race,
  // (dead node, node, url, ids as a JSON array): those of the dead node's races become node's,
  // each under its next epoch (the same one when node takes back its own) → as select_races
  adopt_races,
  select_racers,  // (race_id) → player_id, game_id, moves, state, left, in position order
  race_room_of,   // (player_id) → room of the newest journaled race they race in (not left)
  // tournaments (server/rules/tournament_record.hpp); a dialect without nodes keeps no node,
  // epoch or url
  // (code, node, state, document, updated_at, epoch, url) → one row when written: unless
  // (a dialect with nodes) another node or a later epoch holds it
  upsert_tournament,
  // (node) → code, state, document, updated_at, epoch, url of the node's open tournaments,
  // oldest first
  open_tournaments,
  // (dead node, node, url): the dead node's open tournaments become node's, each under its
  // next epoch (the same one when node takes back its own) → as open_tournaments
  adopt_tournaments,
  race_in_room,  // (room, since) → winner, reason, result of its first race recorded since
  // (player_id) → code of the newest open tournament they are a member of (not left); none
  // without nodes
  tournament_of,
  // (player_id): serialises a player's tournament creations (PostgreSQL: two nodes at once)
  lock_creations,
  // (player_id, since) → how many tournaments the player created since then
  count_creations,
  note_creation,    // (player_id, at)
  prune_creations,  // (before): creations older than that are forgotten
  // moderation (docs/operations.md, "Moderation"); the boards leave out banned players
  // (players.banned) and hidden games
  upsert_ban,    // (player_id, reason, until, at): the ban in force (until 0: until lifted)
  delete_ban,    // (player_id) → player_id, if there was a ban
  set_banned,    // (player_id, banned 0|1)
  select_ban,    // (player_id) → reason, until, at
  expired_bans,  // (now) → player_id of each ban whose end has come
  hide_game,     // (game_id, reason, at); ignores a hidden one
  unhide_game,   // (game_id)
  // (player_id) → the columns of select_game of their ranked solo games that are not hidden,
  // oldest first
  board_games,
  delete_bests,  // (player_id): their rows on every score board
  // (reporter, player_id, reason, note, at, day); ignores a second report of that player by
  // that reporter on that day
  insert_report,
  // (open_only 0|1, limit) → id, reporter, reporter's name, player_id, player's name, reason,
  // note, at, resolved_at, resolution: newest first
  select_reports,
  resolve_report,  // (id, resolved_at, resolution): unless resolved
  // (at, actor, action, target, reason, detail, actor_role, target_name, address)
  insert_audit,
  // (before_id, limit) → id, at, actor, action, target, reason, detail, actor_role,
  // target_name, address: newest first, ids below before_id
  select_audit,
  // (id, key, limit) → the columns of select_player: the player with that id, those whose
  // name key holds key, and those who had a name holding it (raw, as stored), by name
  search_players,
  old_names_of,    // (player_id) → name, until, oldest first
  ranks_changed,   // (): tells every node sharing the database to reload its ranks
  banned_players,  // () → player_id of every ban (in force or about to be lifted)
  // (player_id, limit) → the columns of select_game, then hidden 0|1: their newest games
  recent_games,
  // (limit) → the columns of select_game of ranked games (not the computer's) without
  // signals, newest first: from an index of those alone, not a scan of every game
  unanalysed_games,
  // (game_id, player_id, moves_per_second, spread, match, sampled, suspicion, at), each a
  // thousandth (match -1: none); ignores a game that has them
  upsert_signals,
  analysed,  // (game_id): the game has its signals (it leaves unanalysed_games' index)
  // (limit) → game_id, player_id, name, mode, size, score, moves_per_second, spread, match,
  // sampled, suspicion: the most suspicious first
  top_signals,
  // Operators (server/play/operator_desk.hpp). (id, name, name_key, role, password_hash,
  // created_at); ignores a taken name key
  insert_operator,
  // (name_key) → id, name, role, password_hash, totp_secret, totp_pending, totp_step,
  // created_at
  operator_by_key,
  // (now) → id, name, role, totp enrolled 0|1, created_at, live sessions, newest session's
  // created_at (0: none): by name
  select_operators,
  set_totp_pending,         // (id, secret)
  confirm_totp,             // (id, step): the pending secret in use, step used; unless none pending
  use_totp_step,            // (id, step): unless a step as late was used already
  insert_operator_session,  // (token_hash, operator_id, created_at, expires_at, address)
  // (token_hash, now) → the columns of operator_by_key: the session's operator, unless expired
  operator_of_session,
  delete_operator_session,   // (token_hash)
  delete_operator_sessions,  // (operator_id)
  delete_operator,           // (id)
  // guest names released (Store::release_guest_name): (name_key, look_key) → id, name,
  // registered_at, and the last use (created_at, a session's last_seen, a game's ended_at)
  guest_name_holders,
  release_name,         // (id, name, name_key, look_key, released_name)
  clear_released_name,  // (id)
};
inline constexpr std::size_t kSqlCount = static_cast<std::size_t>(Sql::clear_released_name) + 1;

// A parameter: an integer, a real or a text (viewed, not copied: valid for the call).
using SqlValue = std::variant<std::int64_t, double, std::string_view>;

// What a statement returned: its rows, and how many rows it changed (writes).
class SqlResult {
 public:
  using Cell = std::variant<std::int64_t, double, std::string>;

  SqlResult() = default;
  SqlResult(std::size_t columns, std::vector<Cell> cells, std::int64_t changed)
      : columns_(columns), cells_(std::move(cells)), changed_(changed) {}

  std::size_t rows() const { return columns_ == 0 ? 0 : cells_.size() / columns_; }
  std::int64_t changed() const { return changed_; }

  std::int64_t int64(std::size_t row, std::size_t col) const {
    const Cell& c = cell(row, col);
    if (const auto* n = std::get_if<std::int64_t>(&c)) return *n;
    if (const auto* x = std::get_if<double>(&c)) return static_cast<std::int64_t>(*x);
    const std::string& t = std::get<std::string>(c);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (ec != std::errc() || end != t.data() + t.size()) {
      throw std::runtime_error("database: not an integer: " + t);
    }
    return value;
  }
  int integer(std::size_t row, std::size_t col) const { return static_cast<int>(int64(row, col)); }
  double real(std::size_t row, std::size_t col) const {
    const Cell& c = cell(row, col);
    if (const auto* x = std::get_if<double>(&c)) return *x;
    if (const auto* n = std::get_if<std::int64_t>(&c)) return static_cast<double>(*n);
    const std::string& t = std::get<std::string>(c);
    double value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (ec != std::errc() || end != t.data() + t.size()) {
      throw std::runtime_error("database: not a number: " + t);
    }
    return value;
  }
  // A text cell; an integer cell in decimal.
  std::string string(std::size_t row, std::size_t col) const {
    const Cell& c = cell(row, col);
    if (const auto* n = std::get_if<std::int64_t>(&c)) return std::to_string(*n);
    if (const auto* x = std::get_if<double>(&c)) return std::to_string(*x);
    return std::get<std::string>(c);
  }
  // 0/1 (SQLite) or f/t (PostgreSQL).
  bool boolean(std::size_t row, std::size_t col) const {
    const Cell& c = cell(row, col);
    if (const auto* n = std::get_if<std::int64_t>(&c)) return *n != 0;
    if (const auto* x = std::get_if<double>(&c)) return *x != 0;
    const std::string& t = std::get<std::string>(c);
    return t == "t" || t == "1" || t == "true";
  }

 private:
  const Cell& cell(std::size_t row, std::size_t col) const {
    return cells_.at(row * columns_ + col);
  }

  std::size_t columns_ = 0;
  std::vector<Cell> cells_;
  std::int64_t changed_ = 0;
};

// One connection for the length of one unit of work. Throws as Store's calls do.
class SqlSession {
 public:
  virtual SqlResult run(Sql statement, std::span<const SqlValue> params) = 0;

  // run with the arguments as parameters: integers (and bools, as 0/1), reals or texts.
  template <class... Args>
  SqlResult operator()(Sql statement, const Args&... args) {
    const std::array<SqlValue, sizeof...(Args)> params{value(args)...};
    return run(statement, params);
  }

 protected:
  ~SqlSession() = default;

 private:
  template <class T>
  static SqlValue value(const T& v) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<std::int64_t>(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<double>(v);
    } else {
      return std::string_view(v);
    }
  }
};

// How a unit of work runs: outside a transaction (reads of one statement each), in a write
// transaction, or in a read transaction that sees one moment throughout.
enum class SqlTx : std::uint8_t { none, write, snapshot };

class SqlDialect {
 public:
  virtual ~SqlDialect() = default;
  // How many units of work may run at once (from different threads).
  virtual int concurrency() const { return 1; }
  // The node this server is among the servers sharing the database; empty when the database
  // is this server's own.
  virtual const std::string& node() const = 0;
  // Throws StoreUnavailable when the database cannot be reached right now.
  virtual void ping() {}
  // Runs work on a session, inside a transaction unless tx is none: committed when work
  // returns, rolled back when it throws (the exception goes on).
  virtual void session(SqlTx tx, const std::function<void(SqlSession&)>& work) = 0;
  // Fills ranks by running fill on a session; a database shared by several servers also keeps
  // ranks current with the others' writes from then on (filling a fresh cache and swapping it
  // in after losing track, and on Sql::ranks_changed), until the dialect is destroyed. Called
  // once, before any unit of work.
  using FillRanks = std::function<void(SqlSession&, RankCache&)>;
  virtual void keep_ranks(RankCache& ranks, FillRanks fill) = 0;
  // Whether keep_ranks hears Sql::ranks_changed (a shared database); else the writer reloads.
  virtual bool hears_ranks_changed() const { return false; }
};

}  // namespace tilerace::server
