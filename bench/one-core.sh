#!/usr/bin/env bash
# `make bench` scenario "one core": what a move costs per core. The server runs on CPU 0 with
# one network thread, the load generator on CPU 1; 1,000 players as fast as replies come,
#   rounds  solo, then race (two racers and one spectator per room): ROUNDS rounds of three
#           windows next to each other, each on a fresh server — the Bun peer, tilerace, and
#           tilerace over wss:// (an ECDSA P-256 certificate, as Let's Encrypt and Caddy issue)
#           — in that order in odd rounds and the reverse in even ones, tilerace in the middle,
#           so that the machine's drift (±20 % over minutes on this VM) falls on the windows
#           compared alike; the ratios reported are the medians of the rounds';
#   half    solo and race again at half of each server's own peak (p99 when not saturated);
#   solo    tilerace with 10,000 players (what a move costs as players grow);
#   TLS     full TLS handshakes, each on a new connection closed at once;
#   floor   the Beast echo floor (tilerace-echo) and the Node.js peer, solo and race.
# The peers are yardsticks only, run from where they are: ../shared/peers/node-ws (Node.js + ws)
# and ../shared/peers/bun-ws (the same game logic on Bun's server, uWebSockets inside). Each is
# measured when it is present. Prints moves/s, server CPU µs per move (from /proc, user and
# kernel), p50/p99 and ratios; JSON reports land in $OUT/one-core-*.json.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PLAYERS=${PLAYERS:-1000}
MANY=${MANY:-10000}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-3}
OUT=${OUT:-$BUILD/bench-results}
PEER=${PEER:-../shared/peers/node-ws}
BUN_PEER=${BUN_PEER:-../shared/peers/bun-ws}
mkdir -p "$OUT"
rm -f "$OUT"/one-core-*.json
ulimit -n "$(ulimit -Hn)"

source bench/server-lib.sh
bench_workdir one-core

if ! command -v taskset > /dev/null || [ "$(nproc)" -lt 2 ]; then
  echo "one core: needs taskset and two CPUs; skipped" >&2
  exit 0
fi
have_peer=0
if [ -f "$PEER/server.js" ] && command -v node > /dev/null; then
  [ -d "$PEER/node_modules/ws" ] || (cd "$PEER" && npm ci --no-audit --no-fund > /dev/null)
  have_peer=1
else
  echo "note: no Node.js peer at $PEER: its column stays empty" >&2
fi
have_bun=0
if [ -x "$BUN_PEER/tilerace-peer" ]; then
  [ -x "$BUN_PEER/node_modules/.bin/bun" ] ||
    (cd "$BUN_PEER" && npm ci --no-audit --no-fund > /dev/null 2>&1) || true
  if [ -x "$BUN_PEER/node_modules/.bin/bun" ]; then have_bun=1; fi
fi
[ "$have_bun" = 1 ] ||
  echo "note: no Bun peer at $BUN_PEER (or its npm ci failed): its rows stay empty" >&2

bench_flags=(--threads 1 --countdown 0 --rate 1000000 --max-connections-per-ip 0 --rooms-per-ip 0)

start_peer() {
  taskset -c 0 node "$PEER/server.js" --host 127.0.0.1 --port 0 --countdown 0 --rate 1000000 \
    > "$workdir/peer.log" 2>&1 &
  server_pid=$!
  port=$(wait_for_port "$workdir/peer.log" 'listening on [^:]+:\K[0-9]+')
}
start_bun() {
  taskset -c 0 "$BUN_PEER/tilerace-peer" --host 127.0.0.1 --port 0 --countdown 0 --rate 1000000 \
    > "$workdir/bun.log" 2>&1 &
  server_pid=$!
  port=$(wait_for_port "$workdir/bun.log" 'listening on [^:]+:\K[0-9]+')
}

# measure NAME SCENARIO PLAYERS [loadgen flags…]: one loadgen run on CPU 1 against the
# running server.
measure() {
  taskset -c 1 "$BUILD/tilerace-loadgen" --port "$port" --server-pid "$server_pid" \
    --scenario "$2" --players "$3" --duration "$DURATION" --json "$OUT/one-core-$1.json" \
    "${@:4}" | sed 's/^/    /'
}
# measure_half NAME SCENARIO: measure NAME-half against the running server at half of the move
# rate NAME reached (its peak), each player paced.
measure_half() {
  measure "$1-half" "$2" "$PLAYERS" \
    --rate "$(jq ".replies_per_s / 2 / $PLAYERS" "$OUT/one-core-$1.json")"
}

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$workdir/tls.key" -out "$workdir/tls.pem" 2> /dev/null
tls_flags=(--tls-cert "$workdir/tls.pem" --tls-key "$workdir/tls.key")

# window WHO SCENARIO ROUND: one full-load window on a fresh server (WHO: bun, tilerace or
# tilerace-tls), reported as WHO-SCENARIO-rROUND.
window() {
  [ "$1" = bun ] && [ "$have_bun" != 1 ] && return 0
  echo "== one core: $1, $2, $PLAYERS players, round $3 of $ROUNDS =="
  local flags=()
  case $1 in
    bun) start_bun ;;
    tilerace) SERVER_WRAP="taskset -c 0" start_tilerace "${bench_flags[@]}" ;;
    tilerace-tls)
      SERVER_WRAP="taskset -c 0" start_tilerace "${bench_flags[@]}" "${tls_flags[@]}"
      flags=(--tls)
      ;;
  esac
  measure "$1-$2-r$3" "$2" "$PLAYERS" "${flags[@]}"
  stop_server
}

for scenario in solo race; do
  for round in $(seq "$ROUNDS"); do
    order="bun tilerace tilerace-tls"
    [ $((round % 2)) = 0 ] && order="tilerace-tls tilerace bun"
    for who in $order; do window "$who" "$scenario" "$round"; done
  done
  # The first round's windows stand for each in the table below, and set the half-peak rates.
  for who in tilerace tilerace-tls bun; do
    [ -f "$OUT/one-core-$who-$scenario-r1.json" ] &&
      cp "$OUT/one-core-$who-$scenario-r1.json" "$OUT/one-core-$who-$scenario.json"
  done
  echo "== one core: tilerace, $scenario, at half of its peak =="
  SERVER_WRAP="taskset -c 0" start_tilerace "${bench_flags[@]}"
  measure_half "tilerace-$scenario" "$scenario"
  stop_server
  if [ "$have_bun" = 1 ]; then
    echo "== one core: the Bun peer, $scenario, at half of its peak =="
    start_bun
    measure_half "bun-$scenario" "$scenario"
    stop_server
  fi
done
echo "== one core: tilerace, solo, $MANY players =="
SERVER_WRAP="taskset -c 0" start_tilerace "${bench_flags[@]}"
measure tilerace-solo-many solo "$MANY"
stop_server
echo "== one core: tilerace over TLS, full handshakes =="
SERVER_WRAP="taskset -c 0" start_tilerace "${bench_flags[@]}" "${tls_flags[@]}"
measure tilerace-tls-handshake handshake 64
stop_server
echo "== one core: the echo floor (tilerace-echo), $PLAYERS connections =="
SERVER_WRAP="taskset -c 0" start_echo 1
measure echo echo "$PLAYERS"
stop_server
if [ "$have_peer" = 1 ]; then
  echo "== one core: the Node.js peer, solo and race, $PLAYERS players =="
  start_peer
  measure peer-solo solo "$PLAYERS"
  stop_server
  start_peer
  measure peer-race race "$PLAYERS"
  stop_server
fi

# row LABEL FILE: moves/s, CPU µs per move (all, user, kernel), p50, p99 of one report.
field() { [ -f "$OUT/one-core-$1.json" ] && jq -r "$2" "$OUT/one-core-$1.json" || echo null; }
row() {
  [ -f "$OUT/one-core-$2.json" ] || return 0
  printf '  %-28s %9.0f %9.2f %6.2f %6.2f %8.3f %8.3f\n' "$1" "$(field "$2" .replies_per_s)" \
    "$(field "$2" .server.cpu_us_per_reply)" \
    "$(field "$2" '.server.cpu_us_per_reply * (1 - .server.system_share)')" \
    "$(field "$2" '.server.cpu_us_per_reply * .server.system_share')" \
    "$(field "$2" .reply_latency.p50_ms)" "$(field "$2" .reply_latency.p99_ms)"
}
# ratio A B [FIELD]: A's FIELD over B's (default moves/s), or – when either is missing.
ratio() {
  jq -rn --argjson a "$(field "$1" "${3:-.replies_per_s}")" \
    --argjson b "$(field "$2" "${3:-.replies_per_s}")" \
    'if $a == null or $b == null or $b == 0 then "–" else ($a / $b * 100 | round / 100 | tostring) end'
}

echo "== one core: summary (server on CPU 0, one network thread; load generator on CPU 1) =="
printf '  %-28s %9s %9s %6s %6s %8s %8s\n' "" "moves/s" "µs/move" "user" "kernel" "p50 ms" \
  "p99 ms"
row "tilerace solo" tilerace-solo
row "Bun peer solo" bun-solo
row "Node.js peer solo" peer-solo
row "echo floor (round trips)" echo
row "tilerace race" tilerace-race
row "Bun peer race" bun-race
row "Node.js peer race" peer-race
row "tilerace solo, half of peak" tilerace-solo-half
row "Bun peer solo, half of peak" bun-solo-half
row "tilerace race, half of peak" tilerace-race-half
row "Bun peer race, half of peak" bun-race-half
row "tilerace solo, $MANY players" tilerace-solo-many
row "tilerace solo over TLS" tilerace-tls-solo
row "tilerace race over TLS" tilerace-tls-race
cpu=.server.cpu_us_per_reply
# cpu NAME: CPU µs per move of one report, or – when it is missing.
cpu_of() { [ -f "$OUT/one-core-$1.json" ] && jq -r "$cpu * 100 | round / 100" "$OUT/one-core-$1.json" || echo –; }
# median A B SCENARIO: the median over the rounds of A's CPU per move over B's (– if none).
median() {
  for round in $(seq "$ROUNDS"); do ratio "$1-$3-r$round" "$2-$3-r$round" $cpu; done |
    grep -v – | sort -g | awk '{v[NR] = $1} END {
      if (NR == 0) print "–"; else if (NR % 2) print v[(NR + 1) / 2];
      else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "  CPU µs per move by round (adjacent windows, fresh servers), and the ratios:"
printf '    %-14s %8s %8s %8s %10s %10s\n' "" "Bun" "tilerace" "over TLS" "ours/Bun" "TLS/plain"
for scenario in solo race; do
  for round in $(seq "$ROUNDS"); do
    printf '    %-14s %8s %8s %8s %10s %10s\n' "$scenario, round $round" \
      "$(cpu_of "bun-$scenario-r$round")" "$(cpu_of "tilerace-$scenario-r$round")" \
      "$(cpu_of "tilerace-tls-$scenario-r$round")" \
      "$(ratio "tilerace-$scenario-r$round" "bun-$scenario-r$round" $cpu)" \
      "$(ratio "tilerace-tls-$scenario-r$round" "tilerace-$scenario-r$round" $cpu)"
  done
done
echo "  CPU µs per move, ours over the Bun peer's, median of $ROUNDS rounds (target <= 1):" \
  "solo $(median tilerace bun solo), race $(median tilerace bun race)"
echo "  p99 at half of each one's peak, ours over the Bun peer's: solo" \
  "$(ratio tilerace-solo-half bun-solo-half .reply_latency.p99_ms)," \
  "race $(ratio tilerace-race-half bun-race-half .reply_latency.p99_ms)"
echo "  moves/s against the Node.js peer (target >= 2): solo $(ratio tilerace-solo peer-solo)," \
  "race $(ratio tilerace-race peer-race); its CPU µs per move over ours:" \
  "solo $(ratio peer-solo tilerace-solo $cpu), race $(ratio peer-race tilerace-race $cpu)"
echo "  solo moves/s against the echo floor's round trips (target >= 0.9):" \
  "$(ratio tilerace-solo echo); echo µs over ours: $(ratio echo tilerace-solo $cpu)"
echo "  CPU µs per move over TLS against without, median of $ROUNDS rounds (target <= 1.15 on" \
  "the race path): solo $(median tilerace-tls tilerace solo), race $(median tilerace-tls tilerace race)"
echo "  full TLS handshakes: $(field tilerace-tls-handshake "$cpu | round") µs of server CPU each," \
  "$(field tilerace-tls-handshake "1e6 / $cpu | round") per second per core" \
  "($(field tilerace-tls-handshake '.replies_per_s | round')/s measured, the client's core the limit)"
echo "  solo moves/s, $MANY players against $PLAYERS (target >= 0.85):" \
  "$(ratio tilerace-solo-many tilerace-solo)"
echo "  server RSS per active player at $MANY players (target <= 14 KiB):" \
  "$(jq -r '((.server.rss_kib_window_end - .server.rss_kib_before_launch) / .settled * 10 | round / 10 | tostring) + " KiB"' \
    "$OUT/one-core-tilerace-solo-many.json")"
