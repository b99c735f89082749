# Shared by bench/run-scenarios.sh, bench/one-core.sh and bench/soak.sh: start and stop a
# fresh tilerace (or the echo server) on 127.0.0.1 with a free port. Sets $port and
# $server_pid; needs $BUILD and $workdir.

# bench_workdir NAME: makes $workdir, and on exit stops the server still running and removes it.
bench_workdir() {
  server_pid=""
  workdir=$(mktemp -d "${TMPDIR:-/tmp}/tilerace-$1-XXXXXX")
  trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
        rm -rf "$workdir"' EXIT
}

# wait_for_port LOG PATTERN: prints the port the server logged, within 10 s.
wait_for_port() {
  for _ in $(seq 100); do
    if port=$(grep -m1 -oP "$2" "$1" 2>/dev/null); then echo "$port"; return 0; fi
    sleep 0.1
  done
  echo "server did not start; its log:" >&2; cat "$1" >&2; return 1
}

# start_tilerace [extra server flags…]; $SERVER_WRAP, when set, is a command to run it under.
start_tilerace() {
  rm -rf "$workdir/data" && mkdir -p "$workdir/data"
  ${SERVER_WRAP:-} "$BUILD/tilerace" --host 127.0.0.1 --port 0 --data "$workdir/data" --web-root web-client "$@" \
    > "$workdir/server.log" 2>&1 &
  server_pid=$!
  port=$(wait_for_port "$workdir/server.log" 'listening on https?://[^:]+:\K[0-9]+')
}

# start_echo [threads]
start_echo() {
  ${SERVER_WRAP:-} "$BUILD/tilerace-echo" 0 ${1:-} > "$workdir/echo.log" 2>&1 &
  server_pid=$!
  port=$(wait_for_port "$workdir/echo.log" 'listening on port \K[0-9]+')
}

stop_server() {
  kill "$server_pid" && wait "$server_pid" || true
  server_pid=""
}
