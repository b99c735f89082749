#!/usr/bin/env bash
# The load scenarios of `make bench`, each against a fresh server on 127.0.0.1:
#   (a) PLAYERS players in two-player races with one spectator each, as fast as replies come,
#       then again at half of the move rate reached;
#   (b) IDLE idle connected players: server RSS per connection;
#   (c) the echo floor: the same connections against a bare Beast echo server;
#   (d) memory held per move: ten long 8×8 solo games, server RSS growth per move played
#       after a minute's warm-up.
# Prints each report and a summary against the targets; JSON reports land in $OUT.
# With --profile, records the server under (a) with perf instead, and prints the top entries.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PLAYERS=${PLAYERS:-1000}
IDLE=${IDLE:-10000}
DURATION=${DURATION:-30}
OUT=${OUT:-$BUILD/bench-results}
PROFILE=0
[ "${1:-}" = "--profile" ] && PROFILE=1
mkdir -p "$OUT"

# Both processes hold one descriptor per connection.
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" -lt $((IDLE + 1000)) ]; then
  IDLE=$(( $(ulimit -n) - 1000 ))
  echo "note: the descriptor limit allows $IDLE idle players" >&2
fi

source bench/server-lib.sh
bench_workdir bench
# Benchmarks lift the per-connection message rate and the per-address limits: every
# simulated player comes from 127.0.0.1 and moves as fast as it can.
bench_flags=(--countdown 0 --rate 1000000 --max-connections-per-ip 0 --rooms-per-ip 0)

loadgen() {
  "$BUILD/tilerace-loadgen" --port "$port" --server-pid "$server_pid" "$@"
  echo
}

if [ "$PROFILE" = 1 ]; then
  start_tilerace "${bench_flags[@]}"
  perf record -F 499 --call-graph dwarf,16384 -o "$OUT/perf.data" -p "$server_pid" -- sleep $((DURATION + 15)) 2>/dev/null &
  perf_pid=$!
  loadgen --scenario race --players "$PLAYERS" --duration "$DURATION"
  wait "$perf_pid"
  stop_server
  perf report -i "$OUT/perf.data" --no-children --stdio --percent-limit 1.5 2>/dev/null \
    | grep -E '^ +[0-9.]+%' | head -30
  exit 0
fi

echo "== (a) $PLAYERS players in two-player races, one spectator each, ${DURATION} s =="
start_tilerace "${bench_flags[@]}"
loadgen --scenario race --players "$PLAYERS" --duration "$DURATION" --json "$OUT/race-peak.json"
peak=$(jq '.replies_per_s' "$OUT/race-peak.json")
half=$(jq -n "$peak / 2 / $PLAYERS")
echo "== (a) again at half that rate: $half moves/s per player =="
loadgen --scenario race --players "$PLAYERS" --duration "$DURATION" --rate "$half" \
  --json "$OUT/race-half.json"
stop_server

echo "== (b) $IDLE idle connected players =="
start_tilerace "${bench_flags[@]}"
loadgen --scenario idle --players "$IDLE" --duration 5 --json "$OUT/idle.json"
stop_server

echo "== (c) echo floor: the same connections as (a) against a bare Beast echo server =="
start_echo
loadgen --scenario echo --players "$PLAYERS" --duration "$DURATION" --json "$OUT/echo.json"
stop_server

# The warm-up plays past the one-time costs (SQLite's page cache filling up to its 2 MiB cap
# with the journal, the allocator's arenas): what is left is what each move adds.
echo "== (d) memory held per move: 10 players in long 8x8 solo games, 2,000 moves/s each =="
start_tilerace "${bench_flags[@]}"
loadgen --scenario solo --players 10 --size 8 --strategy random --rate 2000 --warmup 60 \
  --duration 30 --json "$OUT/memory.json"
stop_server

echo_rt=$(jq '.replies_per_s' "$OUT/echo.json")
race_msgs=$(jq '.messages_in_per_s' "$OUT/race-peak.json")
p99=$(jq '.reply_latency.p99_ms' "$OUT/race-half.json")
per_conn=$(jq '.server.rss_kib_per_connection' "$OUT/idle.json")
per_move=$(jq '.server.rss_bytes_per_move' "$OUT/memory.json")
verdict() { if [ "$(jq -n "$1")" = true ]; then echo "meets"; else echo "MISSES"; fi; }
echo "== summary =="
printf '  moves/s (a)             %8.0f   echo round-trips/s %8.0f   ratio %.2f  (target >= 0.5: %s)\n' \
  "$peak" "$echo_rt" "$(jq -n "$peak / $echo_rt")" "$(verdict "$peak / $echo_rt >= 0.5")"
# A move answers with three messages (moved, and race_update to the rival and the spectator),
# an echo with one: messages delivered per second compares the two stacks' send paths.
printf '  messages delivered/s (a) %8.0f   echo                %8.0f   ratio %.2f\n' \
  "$race_msgs" "$echo_rt" "$(jq -n "$race_msgs / $echo_rt")"
printf '  p99 move latency at half rate  %.2f ms  (target < 5 ms: %s)\n' "$p99" "$(verdict "$p99 < 5")"
printf '  server RSS per idle player     %.1f KiB (target <= 64 KiB: %s)\n' "$per_conn" \
  "$(verdict "$per_conn <= 64")"
printf '  server RSS held per move (d)   %.2f bytes (target <= 2: %s; the engine alone: BM_HeldPerMove)\n' \
  "$per_move" "$(verdict "$per_move <= 2")"
