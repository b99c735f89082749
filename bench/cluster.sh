#!/usr/bin/env bash
# make bench-cluster: the same race load against one node and against two nodes of a cluster
# (one PostgreSQL, one Redis, all on 127.0.0.1, started here and stopped at the end), side by
# side in one run. Two nodes: rooms are created round robin on the two nodes and every other
# member (the second racer, the spectator) connects to the other node first and follows its
# redirect, so each room costs two redirects. Both setups use the same PostgreSQL store.
# Each setup runs twice: as fast as replies come (throughput), then paced at RATE moves/s a
# player (latency at a load both sustain). Last, a quiet cluster: the redirect's own cost.
# Then failover (bench/failover.mjs): races on one of three nodes, that node killed, the time
# until each race is playable again. Race moves in cluster mode are answered only once Redis
# journaled them, so the two-node rows include that cost per move.
# Caveat: both nodes, Redis, PostgreSQL and the load generator share this machine's cores, so
# this measures the cluster's overhead, not its scaling.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PLAYERS=${PLAYERS:-1000}
DURATION=${DURATION:-20}
RATE=${RATE:-10}
OUT=${OUT:-$BUILD/bench-results}
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"

work=$(mktemp -d "${TMPDIR:-/tmp}/tilerace-cluster-XXXXXX")
chmod 777 "$work"
pids=()
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pg_port=$(free_port)
as_pg "$pg_bin/initdb" -D "$work/pg" -A trust -U postgres --no-sync >/dev/null
as_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $pg_port -c unix_socket_directories=$work -c fsync=on" start >/dev/null
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no >"$work/redis.log" 2>&1 &
pids+=($!)
until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do sleep 0.1; done

database() {
  as_pg "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE $1" >/dev/null
  echo "postgresql://postgres@127.0.0.1:$pg_port/$1"
}
# node NAME DATABASE [flags…]: starts a node on a free port; sets $node_port and $node_pid.
node() {
  local name=$1 db=$2; shift 2
  node_port=$(free_port)
  "$BUILD/tilerace" --host 127.0.0.1 --port "$node_port" --web-root web-client --database "$db" \
    --node-name "$name" --countdown 0 --rate 1000000 --max-connections-per-ip 0 --rooms-per-ip 0 \
    "$@" >"$work/$name.log" 2>&1 &
  node_pid=$!
  pids+=("$node_pid")
  until grep -q 'listening on' "$work/$name.log"; do sleep 0.1; done
}
loadgen() { "$BUILD/tilerace-loadgen" --scenario race --players "$PLAYERS" --duration "$DURATION" "$@"; echo; }

echo "== one node (PostgreSQL store, no Redis), $PLAYERS players, one spectator per race =="
node single "$(database single)"
loadgen --port "$node_port" --server-pid "$node_pid" --json "$OUT/cluster-one.json"
loadgen --port "$node_port" --server-pid "$node_pid" --rate "$RATE" --json "$OUT/cluster-one-paced.json"
echo "== a quiet node: 20 players =="
"$BUILD/tilerace-loadgen" --scenario race --players 20 --duration 5 --rate "$RATE" \
  --port "$node_port" --json "$OUT/cluster-one-quiet.json"
echo
kill "$node_pid"; wait "$node_pid" || true

echo "== two nodes (PostgreSQL + Redis), the same load, rooms spread across them =="
db=$(database pair)
node a "$db" --redis "redis://127.0.0.1:$redis_port"
a_port=$node_port
node b "$db" --redis "redis://127.0.0.1:$redis_port"
loadgen --port "$a_port,$node_port" --json "$OUT/cluster-two.json"
loadgen --port "$a_port,$node_port" --rate "$RATE" --json "$OUT/cluster-two-paced.json"
echo "== a quiet cluster: 20 players, 10 redirects =="
"$BUILD/tilerace-loadgen" --scenario race --players 20 --duration 5 --rate "$RATE" \
  --port "$a_port,$node_port" --json "$OUT/cluster-quiet.json"
echo

echo "== failover: 20 races on one of three nodes, kill -9 at a random moment (default lease) =="
db=$(database failover)
node f1 "$db" --redis "redis://127.0.0.1:$redis_port"
f1_port=$node_port f1_pid=$node_pid
node f2 "$db" --redis "redis://127.0.0.1:$redis_port"
f2_port=$node_port
node f3 "$db" --redis "redis://127.0.0.1:$redis_port"
until curl -sf "http://127.0.0.1:$f1_port/healthz" | grep -q '"ok"'; do sleep 0.1; done
command node --experimental-websocket --no-warnings bench/failover.mjs "$f1_port" "$f2_port" "$f1_pid" 20 5 \
  > "$OUT/cluster-failover.json"
cat "$OUT/cluster-failover.json"
echo

one=$OUT/cluster-one.json two=$OUT/cluster-two.json
one_paced=$OUT/cluster-one-paced.json two_paced=$OUT/cluster-two-paced.json
echo "== summary (two nodes / one node) =="
printf '  moves/s            %8.0f  %8.0f   ratio %.2f\n' "$(jq .replies_per_s "$one")" \
  "$(jq .replies_per_s "$two")" "$(jq -n "$(jq .replies_per_s "$two") / $(jq .replies_per_s "$one")")"
printf '  p99 move latency at %s moves/s a player   %6.2f  %6.2f ms ratio %.2f\n' "$RATE" \
  "$(jq .reply_latency.p99_ms "$one_paced")" "$(jq .reply_latency.p99_ms "$two_paced")" \
  "$(jq -n "$(jq .reply_latency.p99_ms "$two_paced") / $(jq .reply_latency.p99_ms "$one_paced")")"
printf '  p99 fan-out at %s moves/s a player        %6.2f  %6.2f ms (on two nodes, every spectator came by redirect)\n' \
  "$RATE" "$(jq .fanout_latency.p99_ms "$one_paced")" "$(jq .fanout_latency.p99_ms "$two_paced")"
printf '  redirect -> room, all connecting at once  p50 %.2f  p99 %.2f ms (%d)\n' \
  "$(jq .redirect_latency.p50_ms "$two")" "$(jq .redirect_latency.p99_ms "$two")" \
  "$(jq .redirect_latency.count "$two")"
printf '  move -> moved, quiet (20 players)         p50 %.3f  %.3f ms  p99 %.3f  %.3f ms (two nodes: journaled in Redis first)\n' \
  "$(jq .reply_latency.p50_ms "$OUT/cluster-one-quiet.json")" "$(jq .reply_latency.p50_ms "$OUT/cluster-quiet.json")" \
  "$(jq .reply_latency.p99_ms "$OUT/cluster-one-quiet.json")" "$(jq .reply_latency.p99_ms "$OUT/cluster-quiet.json")"
printf '  kill -9 -> race playable again (20 races)  p50 %.0f  p99 %.0f ms (%d of %d back)\n' \
  "$(jq .p50_ms "$OUT/cluster-failover.json")" "$(jq .p99_ms "$OUT/cluster-failover.json")" \
  "$(jq .recovered "$OUT/cluster-failover.json")" "$(jq .races "$OUT/cluster-failover.json")"
printf '  redirect -> room, quiet cluster           p50 %.2f  p99 %.2f ms (%d)\n' \
  "$(jq .redirect_latency.p50_ms "$OUT/cluster-quiet.json")" \
  "$(jq .redirect_latency.p99_ms "$OUT/cluster-quiet.json")" \
  "$(jq .redirect_latency.count "$OUT/cluster-quiet.json")"
