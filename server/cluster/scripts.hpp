#pragma once
// The Redis side of cluster mode: the key layout and the Lua scripts, each with its ARGV and
// what it returns (every script is run with no KEYS: EVAL script 0 ARGV…), and eval to run
// one. docs/operations.md ("Cluster mode") has the same layout for operators.
#include <boost/asio/awaitable.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "server/cluster/redis_types.hpp"

namespace tilerace::server {

class RedisConnection;

namespace redis_scripts {

// Keys (all under tilerace:): node:<n> its URL, leased; nodes the set of known nodes;
// rooms:<n> its public rooms (an encoded list), leased; code:<c> → node; codes:<n> the
// codes it claimed; leaving:<n> it left on SIGTERM and may come back; orphans the nodes whose
// journaled races wait to be adopted; adopting:<n> → the node adopting them, leased;
// pool:<key> the quick-match pool (a sorted set of node|player by rating) and pooled:<key>
// (each one's "rd since"); match:<player> "code url" of its
// paired room; channel control:<n>. Friends (server/play/cluster_reach.hpp): presence:<player>
// "node\n<presence message>" as its node last published it (a day's expiry; only a live
// node's counts); challenge:<id> → the node holding it, until it expires. Connections
// (server/play/session_guard.hpp): connection:<player> "<epoch> <node>" of the player's one
// live connection (a day's expiry; only a live node's counts); players:<n> the players whose
// record names node n (emptied on its first beat).

// ARGV: node, url, lease ms, rooms, 1 on this process's first beat. Refreshes this node;
// returns {lists of the other live nodes, names of nodes whose lease is gone, the other live
// nodes' URLs, the other live nodes' names}. A first beat
// makes this node's earlier races (if any) orphans, to be adopted like a dead node's, and
// forgets the connections it had (none survived the restart).
inline constexpr std::string_view kBeat = R"lua(
redis.call('SET', 'tilerace:node:' .. ARGV[1], ARGV[2], 'PX', ARGV[3])
redis.call('SET', 'tilerace:rooms:' .. ARGV[1], ARGV[4], 'PX', ARGV[3])
redis.call('SADD', 'tilerace:nodes', ARGV[1])
if ARGV[5] == '1' then
  redis.call('SADD', 'tilerace:orphans', ARGV[1])
  redis.call('DEL', 'tilerace:players:' .. ARGV[1])
end
local live, dead, urls, names = {}, {}, {}, {}
for _, n in ipairs(redis.call('SMEMBERS', 'tilerace:nodes')) do
  if n ~= ARGV[1] then
    local url = redis.call('GET', 'tilerace:node:' .. n)
    if url then
      table.insert(live, redis.call('GET', 'tilerace:rooms:' .. n) or '[]')
      table.insert(urls, url)
      table.insert(names, n)
    elseif redis.call('EXISTS', 'tilerace:leaving:' .. n) == 0 then
      table.insert(dead, n)
    end
  end
end
return {live, dead, urls, names}
)lua";

// ARGV: node. Takes a dead node out of the directory (its listing; its codes stay until its
// races are adopted) and makes it an orphan; 1 for the one caller that did it.
inline constexpr std::string_view kReap = R"lua(
local n = ARGV[1]
if redis.call('EXISTS', 'tilerace:node:' .. n) == 1 then return 0 end
if redis.call('EXISTS', 'tilerace:leaving:' .. n) == 1 then return 0 end
if redis.call('SREM', 'tilerace:nodes', n) == 0 then return 0 end
redis.call('DEL', 'tilerace:rooms:' .. n)
redis.call('SADD', 'tilerace:orphans', n)
return 1
)lua";

// ARGV: node, lease ms. The orphans this node may adopt now: itself (after a restart), or a
// node still dead, that nobody else is adopting (adopting:<o> is leased: an adopter that dies
// lets go). Returns their names, each now leased to this node.
inline constexpr std::string_view kOrphans = R"lua(
local out = {}
for _, o in ipairs(redis.call('SMEMBERS', 'tilerace:orphans')) do
  if o == ARGV[1] or redis.call('EXISTS', 'tilerace:node:' .. o) == 0 then
    local holder = redis.call('GET', 'tilerace:adopting:' .. o)
    if not holder or holder == ARGV[1] then
      redis.call('SET', 'tilerace:adopting:' .. o, ARGV[1], 'PX', ARGV[2])
      table.insert(out, o)
    end
  end
end
return out
)lua";

// ARGV: node, orphan. The orphan's races are adopted: the codes of its rooms that did not come
// back are freed and it is an orphan no more. 0 if the lease on it was lost meanwhile.
inline constexpr std::string_view kAdopted = R"lua(
local o = ARGV[2]
if redis.call('GET', 'tilerace:adopting:' .. o) ~= ARGV[1] then return 0 end
if o ~= ARGV[1] then
  for _, c in ipairs(redis.call('SMEMBERS', 'tilerace:codes:' .. o)) do
    if redis.call('GET', 'tilerace:code:' .. c) == o then redis.call('DEL', 'tilerace:code:' .. c) end
  end
  redis.call('DEL', 'tilerace:codes:' .. o)
end
redis.call('SREM', 'tilerace:orphans', o)
redis.call('DEL', 'tilerace:adopting:' .. o)
return 1
)lua";

// ARGV: moves key, moves, check key, check, owner key, epoch, node, url. Appends a racer's moves
// to their journal and keeps the check of where they led (both kept a day at most) — unless
// the race's owner (`<epoch> <node> <url>`, set by its first append and by each adoption) holds
// a later epoch: then nothing is written and the owner is returned (the caller's copy is
// stale). 1 when written.
inline constexpr std::string_view kJournal = R"lua(
local owner = redis.call('GET', ARGV[5])
if owner and tonumber(string.match(owner, '^%d+')) > tonumber(ARGV[6]) then return owner end
local mine = ARGV[6] .. ' ' .. ARGV[7] .. ' ' .. ARGV[8]
if owner ~= mine then redis.call('SET', ARGV[5], mine, 'PX', 86400000) end
redis.call('APPEND', ARGV[1], ARGV[2])
redis.call('PEXPIRE', ARGV[1], 86400000)
redis.call('SET', ARGV[3], ARGV[4], 'PX', 86400000)
return 1
)lua";

inline std::string moves_key(const std::string& race_id, std::size_t position) {
  return "tilerace:moves:" + race_id + ":" + std::to_string(position);
}
inline std::string check_key(const std::string& race_id, std::size_t position) {
  return "tilerace:check:" + race_id + ":" + std::to_string(position);
}
// The race's owner as the move journal knows it: `<epoch> <node> <url>`, a day at most (it
// outlives the race's moves, so that no stale copy appends to a recorded race).
inline std::string owner_key(const std::string& race_id) { return "tilerace:owner:" + race_id; }

// ARGV: code, node[, from]. 1 if the code is now this node's (it was free, ours already, held
// by an orphan this node is adopting, or held by `from`, which released its race here).
inline constexpr std::string_view kClaim = R"lua(
local owner = redis.call('GET', 'tilerace:code:' .. ARGV[1])
if owner and owner ~= ARGV[2] and owner ~= ARGV[3] and
   redis.call('GET', 'tilerace:adopting:' .. owner) ~= ARGV[2] then return 0 end
redis.call('SET', 'tilerace:code:' .. ARGV[1], ARGV[2])
redis.call('SADD', 'tilerace:codes:' .. ARGV[2], ARGV[1])
if owner and owner ~= ARGV[2] then redis.call('SREM', 'tilerace:codes:' .. owner, ARGV[1]) end
return 1
)lua";

// ARGV: node, codes… Frees codes of this node.
inline constexpr std::string_view kRelease = R"lua(
for i = 2, #ARGV do
  if redis.call('GET', 'tilerace:code:' .. ARGV[i]) == ARGV[1] then
    redis.call('DEL', 'tilerace:code:' .. ARGV[i])
  end
  redis.call('SREM', 'tilerace:codes:' .. ARGV[1], ARGV[i])
end
return 1
)lua";

// ARGV: code, least lease left (ms). {node, url} of the live node that has it — one whose
// lease has at least that much left, so a node that missed its heartbeats is not named —, or
// nil.
inline constexpr std::string_view kLocate = R"lua(
local owner = redis.call('GET', 'tilerace:code:' .. ARGV[1])
if not owner then return nil end
local url = redis.call('GET', 'tilerace:node:' .. owner)
if not url then return nil end
if redis.call('PTTL', 'tilerace:node:' .. owner) < tonumber(ARGV[2]) then return nil end
return {owner, url}
)lua";

// The quick-match pool of a key (mode:size): a sorted set of `node|player` by rating, and a
// hash of each one's `rd since` (Redis's clock, ms).
//
// ARGV: key, node, player, rating, rd, window base, step, every (ms), max, again (0|1).
// Pairs the player with the entry of another player on a live node closest to their rating
// within both windows (server/rules/match_window.hpp; then the longest waiting), taking both
// out of the pool: returns {node, player}. Otherwise queues the asker (keeping the wait of
// one already queued) and returns nil — or, with again = 1, returns 0 when the asker is not
// in the pool any more. One already queued keeps the rating it was queued with. Entries of a
// node whose lease lapsed but which is not reaped yet (or is restarting) keep their places but
// pair nobody; those of a reaped node are dropped.
inline constexpr std::string_view kPair = R"lua(
local pool = 'tilerace:pool:' .. ARGV[1]
local info = 'tilerace:pooled:' .. ARGV[1]
local mine = ARGV[2] .. '|' .. ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local base, step, every, max = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]),
  tonumber(ARGV[9])
local function parse(held)
  local space = string.find(held, ' ', 1, true)
  return tonumber(string.sub(held, 1, space - 1)), tonumber(string.sub(held, space + 1))
end
local function window(rd, since)
  return math.min(max, base + rd + step * math.floor((now - since) / every))
end
local rating, rd, since = tonumber(ARGV[4]), tonumber(ARGV[5]), now
local held = redis.call('HGET', info, mine)
if held then
  rd, since = parse(held)
  rating = tonumber(redis.call('ZSCORE', pool, mine))
elseif ARGV[10] == '1' then
  return 0
end
local reach = window(rd, since)
local best, best_gap, best_since = nil, nil, nil
local near = redis.call('ZRANGEBYSCORE', pool, rating - max, rating + max, 'WITHSCORES')
for i = 1, #near, 2 do
  local entry, score = near[i], tonumber(near[i + 1])
  local bar = string.find(entry, '|', 1, true)
  local node, player = string.sub(entry, 1, bar - 1), string.sub(entry, bar + 1)
  if player ~= ARGV[3] then
    if redis.call('EXISTS', 'tilerace:node:' .. node) == 1 then
      local theirs = redis.call('HGET', info, entry)
      if theirs then
        local their_rd, their_since = parse(theirs)
        local gap = math.abs(score - rating)
        if gap <= math.min(reach, window(their_rd, their_since)) and
           (not best or gap < best_gap or (gap == best_gap and their_since < best_since)) then
          best, best_gap, best_since = {node, player}, gap, their_since
        end
      end
    elseif redis.call('SISMEMBER', 'tilerace:nodes', node) == 0 and
           redis.call('EXISTS', 'tilerace:leaving:' .. node) == 0 then
      redis.call('ZREM', pool, entry)
      redis.call('HDEL', info, entry)
    end
  end
end
if best then
  local theirs = best[1] .. '|' .. best[2]
  redis.call('ZREM', pool, theirs, mine)
  redis.call('HDEL', info, theirs, mine)
  return best
end
if not held then
  redis.call('ZADD', pool, rating, mine)
  redis.call('HSET', info, mine, rd .. ' ' .. now)
end
return nil
)lua";

// ARGV: key, node, player [, rating, rd: to queue it again, its wait starting now]. The
// number removed.
inline constexpr std::string_view kUnqueue = R"lua(
local pool = 'tilerace:pool:' .. ARGV[1]
local info = 'tilerace:pooled:' .. ARGV[1]
local entry = ARGV[2] .. '|' .. ARGV[3]
local removed = redis.call('ZREM', pool, entry)
redis.call('HDEL', info, entry)
if ARGV[4] then
  local t = redis.call('TIME')
  redis.call('ZADD', pool, ARGV[4], entry)
  redis.call('HSET', info, entry, ARGV[5] .. ' ' .. (tonumber(t[1]) * 1000 +
    math.floor(tonumber(t[2]) / 1000)))
end
return removed
)lua";

// ARGV: players… Takes the pairings left for them: {player, "code url", …}.
inline constexpr std::string_view kTakeMatches = R"lua(
local out = {}
for _, p in ipairs(ARGV) do
  local v = redis.call('GETDEL', 'tilerace:match:' .. p)
  if v then table.insert(out, p); table.insert(out, v) end
end
return out
)lua";

// ARGV: node, restart grace ms, codes to free… Takes the node out of the directory.
inline constexpr std::string_view kLeave = R"lua(
local n = ARGV[1]
redis.call('DEL', 'tilerace:node:' .. n, 'tilerace:rooms:' .. n)
redis.call('SET', 'tilerace:leaving:' .. n, '1', 'PX', ARGV[2])
for i = 3, #ARGV do
  if redis.call('GET', 'tilerace:code:' .. ARGV[i]) == n then
    redis.call('DEL', 'tilerace:code:' .. ARGV[i])
  end
  redis.call('SREM', 'tilerace:codes:' .. n, ARGV[i])
end
return 1
)lua";

// ARGV: node, players…. Each player's presence as another live node published it
// ("node\n<message>"): the node their connection record names (the truth at once after a
// move, before that node's presence is written: then "node\n", online) or, without a record,
// the node that published; '' for none, this node, or a node whose lease is gone.
inline constexpr std::string_view kPresences = R"lua(
local out = {}
for i = 2, #ARGV do
  local v = redis.call('GET', 'tilerace:presence:' .. ARGV[i])
  local n = v and string.match(v, '^([^\n]*)\n')
  local c = redis.call('GET', 'tilerace:connection:' .. ARGV[i])
  local at = c and string.match(c, '^%d+ (.*)$') or n
  if at and at ~= ARGV[1] and redis.call('EXISTS', 'tilerace:node:' .. at) == 1 then
    table.insert(out, at == n and v or at .. '\n')
  else
    table.insert(out, '')
  end
end
return out
)lua";

// ARGV: player, node. Drops the player's presence if this node published it last (a player
// who moved to another node keeps that node's).
inline constexpr std::string_view kDropPresence = R"lua(
local key = 'tilerace:presence:' .. ARGV[1]
local v = redis.call('GET', key)
if v and string.sub(v, 1, #ARGV[2] + 1) == ARGV[2] .. '\n' then redis.call('DEL', key) end
return 0
)lua";

// ARGV: player, epoch, node. The player's connection record names this node under epoch
// (unless it holds a later epoch: then nothing changes); returns the node it named before
// when that was another one, else ''.
inline constexpr std::string_view kTakeConnection = R"lua(
local key = 'tilerace:connection:' .. ARGV[1]
local v = redis.call('GET', key)
local before = ''
if v then
  local e, n = string.match(v, '^(%d+) (.*)$')
  if tonumber(e) > tonumber(ARGV[2]) then return '' end
  if n ~= ARGV[3] then
    redis.call('SREM', 'tilerace:players:' .. n, ARGV[1])
    before = n
  end
end
redis.call('SET', key, ARGV[2] .. ' ' .. ARGV[3], 'PX', 86400000)
redis.call('SADD', 'tilerace:players:' .. ARGV[3], ARGV[1])
return before
)lua";

// ARGV: player, epoch, node. The connection closed: its record goes if it is still this one's;
// 1 then.
inline constexpr std::string_view kReleaseConnection = R"lua(
local key = 'tilerace:connection:' .. ARGV[1]
if redis.call('GET', key) ~= ARGV[2] .. ' ' .. ARGV[3] then return 0 end
redis.call('DEL', key)
redis.call('SREM', 'tilerace:players:' .. ARGV[3], ARGV[1])
return 1
)lua";

// ARGV: node (one found gone). The players whose connection record still names it.
inline constexpr std::string_view kStranded = R"lua(
local out = {}
for _, p in ipairs(redis.call('SMEMBERS', 'tilerace:players:' .. ARGV[1])) do
  local v = redis.call('GET', 'tilerace:connection:' .. p)
  if v and string.match(v, '^%d+ (.*)$') == ARGV[1] then table.insert(out, p) end
end
return out
)lua";

}  // namespace redis_scripts

// Runs script with args as its ARGV on connection; throws on a Redis error reply or when
// Redis cannot be reached (RedisUnavailable).
boost::asio::awaitable<RedisReply> eval(RedisConnection& connection, std::string_view script,
                                        const std::vector<std::string>& args);

}  // namespace tilerace::server
