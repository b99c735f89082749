#!/usr/bin/env bash
# make soak: a fresh tilerace on 127.0.0.1 under abuse while honest racers play
# (bench/soak/main.cpp says what and how), then a SIGTERM that must exit 0: no crash.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
ulimit -n "$(ulimit -Hn)"
server_pid=""
workdir=$(mktemp -d "${TMPDIR:-/tmp}/tilerace-soak-XXXXXX")
trap '[ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null; rm -rf "$workdir"' EXIT
source bench/server-lib.sh

# The server's defaults, except the per-address caps: every client here shares 127.0.0.1,
# and the soak shows the defences that hold without them (a botnet has many addresses).
start_tilerace --max-connections-per-ip 0 --rooms-per-ip 0
status=0
"$BUILD/tilerace-soak" --port "$port" --server-pid "$server_pid" "$@" || status=$?
if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "soak: FAIL the server died; its log:"; tail -50 "$workdir/server.log"; exit 1
fi
kill -TERM "$server_pid"
if wait "$server_pid"; then
  echo "soak: the server shut down cleanly (exit 0) after the soak"
else
  echo "soak: FAIL the server exited with $? on SIGTERM"; status=1
fi
server_pid=""
exit $status
